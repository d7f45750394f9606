<?php

namespace App\Controller;

use Symfony\Component\Routing\Attribute\Route;

#[Route('/blog')]
final class BlogController
{
    #[Route('/', name: 'blog_index', methods: ['GET'])]
    public function index(): void
    {
    }

    #[Route('/posts/{slug:post}', name: 'blog_post', methods: ['GET'])]
    public function show(): void
    {
    }
}
