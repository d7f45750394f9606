<?php

namespace App\Controller;

final class HomeController
{
    public function __invoke(): void
    {
    }

    public function legacy(int $id): void
    {
    }
}
