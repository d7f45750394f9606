<?php

namespace App\Api;

use Symfony\Component\Routing\Attribute\Route;

final class PostApi
{
    #[Route('/posts/{id}', name: 'post', methods: ['GET'])]
    public function show(int $id): void
    {
    }
}
