<?php

namespace App\Listener;

final class RequestListener
{
    public function onKernelRequest(): void
    {
    }

    public function after(): void
    {
    }
}
