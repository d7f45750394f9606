<?php

namespace DoctrineMigrations;

use Doctrine\DBAL\Schema\Schema;
use Doctrine\Migrations\AbstractMigration;

final class Version20240201000000 extends AbstractMigration
{
    public function up(Schema $schema): void
    {
        $schema->getTable('blog_post')->addColumn('published_at', 'datetime_immutable');
    }
}
