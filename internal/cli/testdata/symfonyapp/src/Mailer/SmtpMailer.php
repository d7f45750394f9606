<?php

namespace App\Mailer;

final class SmtpMailer implements MailerInterface
{
    public function send(string $to): void
    {
    }
}
