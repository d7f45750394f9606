<?php
namespace DoctrineMigrations;

use Doctrine\DBAL\Schema\Schema;
use Doctrine\DBAL\Types\Types;
use Doctrine\Migrations\AbstractMigration;

final class Version20240101 extends AbstractMigration
{
    public function up(Schema $schema): void
    {
        $table = $schema->createTable('wallabag_entry');
        $table->addColumn('id', 'integer', ['autoincrement' => true]);
        $table->addColumn('title', Types::STRING, ['length' => 191, 'notnull' => false]);
        $table->setPrimaryKey(['id']);

        $schema->getTable('wallabag_user')->addColumn('locale', 'string', ['default' => 'en']);

        $tag = $schema->getTable('wallabag_tag');
        $tag->dropColumn('color');
        $tag->addColumn('slug', 'string');
        $tag = $schema->getTable('other');
        $tag->addColumn('ignored_here', 'string');
    }
}
