<?php

declare(strict_types=1);

namespace Shop\Support\Concerns;

/**
 * Lets an entity collect domain events that the service layer releases
 * after a successful commit.
 */
trait RecordsEvents
{
    /** @var list<array{name: string, payload: array<string, mixed>}> */
    private array $recordedEvents = [];

    public function touch(): static
    {
        $this->record('touched');

        return $this;
    }

    /**
     * @param array<string, mixed> $payload
     */
    protected function record(string $name, array $payload = []): void
    {
        $this->recordedEvents[] = ['name' => $name, 'payload' => $payload];
    }

    /**
     * @return list<array{name: string, payload: array<string, mixed>}>
     */
    public function releaseEvents(): array
    {
        [$events, $this->recordedEvents] = [$this->recordedEvents, []];

        return $events;
    }
}
