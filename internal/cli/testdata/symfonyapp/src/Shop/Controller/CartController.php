<?php

namespace Acme\Shop\Controller;

final class CartController
{
    public function show(): void
    {
    }

    public function __invoke(): void
    {
    }
}
