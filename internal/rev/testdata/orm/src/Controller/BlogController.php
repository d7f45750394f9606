<?php

namespace App\Controller;

use App\Entity\Tag;
use Doctrine\ORM\EntityManagerInterface;

class BlogController
{
    public function tags(EntityManagerInterface $em): array
    {
        return $em->getRepository(Tag::class)->findAll();
    }

    public function stats(\PDO $pdo): int
    {
        return (int) $pdo->query('SELECT COUNT(*) FROM page_views')->fetchColumn();
    }
}
