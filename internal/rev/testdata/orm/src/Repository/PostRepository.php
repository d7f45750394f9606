<?php

namespace App\Repository;

use App\Entity\Post;
use App\Entity\Tag;
use Doctrine\Bundle\DoctrineBundle\Repository\ServiceEntityRepository;
use Doctrine\Persistence\ManagerRegistry;

class PostRepository extends ServiceEntityRepository
{
    public function __construct(ManagerRegistry $registry)
    {
        parent::__construct($registry, Post::class);
    }

    public function findLatest(): array
    {
        return $this->createQueryBuilder('p')
            ->where('p.publishedAt <= :now')
            ->getQuery()->getResult();
    }

    public function countTags(): int
    {
        return $this->getEntityManager()
            ->createQuery('SELECT COUNT(t) FROM App\Entity\Tag t')
            ->getSingleScalarResult();
    }
}
