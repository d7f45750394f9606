<?php

namespace App\Listener;

final class FlushListener
{
    public function onFlush(): void
    {
    }
}
