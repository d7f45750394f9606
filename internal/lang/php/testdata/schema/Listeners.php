<?php
namespace App\EventListener;

use Doctrine\Bundle\DoctrineBundle\Attribute\AsDoctrineListener;
use Doctrine\ORM\Events;
use Symfony\Component\EventDispatcher\Attribute\AsEventListener;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\KernelEvents;

#[AsDoctrineListener(event: Events::onFlush)]
final class FlushListener
{
    public function onFlush(): void {}
}

final class LocaleListener
{
    #[AsEventListener]
    public function onRequest(RequestEvent $e): void {}
}

final class Subscriber implements EventSubscriberInterface
{
    public static function getSubscribedEvents(): array
    {
        return [
            KernelEvents::EXCEPTION => 'onException',
            'app.saved' => ['onSaved', 10],
            KernelEvents::RESPONSE => [['first', 5], ['second']],
        ];
    }
}
