<?php

namespace App\Service;

use App\Mailer\MailerInterface;

final class Notifier
{
    public function __construct(private MailerInterface $mailer)
    {
    }

    public function notify(): void
    {
        $this->mailer->send('a@example.org');
    }
}
