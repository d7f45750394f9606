<?php

declare(strict_types=1);

namespace Shop\Exception;

class NotFoundException extends ShopException
{
    public static function for(string $what, int|string $key): static
    {
        return new static(sprintf('%s "%s" was not found.', ucfirst($what), $key), ['what' => $what, 'key' => $key]);
    }

    public function httpStatus(): int
    {
        return 404;
    }
}
