<?php
namespace App;

use DateTime;
use PDO;

class Repo
{
    /** @var PDO */
    private $pdo;
    private $created;

    public function __construct(PDO $pdo)
    {
        $this->pdo = $pdo;
        $this->created = new DateTime();
    }

    public function find(\DateTimeInterface $since, $value)
    {
        $s = $this->pdo->prepare('select 1'); // external
        $s->execute(); // external
        $s->fetch(); // external
        $d = new DateTime();
        $d->format('A'); // external
        $d->setTimezone(new \DateTimeZone('UTC'))->format('c'); // external 2
        $since->getTimestamp(); // external
        $this->created->format('Y'); // external
        $t = date_create('now');
        $t->format('Y'); // external
        if ($value instanceof \DateTimeImmutable) {
            $value->format('c'); // external
        }
        $value->format('x');
        $c = new Collection();
        $c->getIterator(); // external
        $c->first();
        $e = new \RuntimeException('x');
        $e->getPrevious()->getMessage(); // external 2
        call_user_func([$s, 'execute']);
        call_user_func([$c, 'first']);
    }
}
