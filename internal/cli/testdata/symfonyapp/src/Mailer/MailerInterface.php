<?php

namespace App\Mailer;

interface MailerInterface
{
    public function send(string $to): void;
}
