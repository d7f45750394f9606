<?php

declare(strict_types=1);

namespace Shop\Support\Concerns;

use DateTimeImmutable;

trait HasTimestamps
{
    protected ?DateTimeImmutable $createdAt = null;

    protected ?DateTimeImmutable $updatedAt = null;

    /**
     * @return static
     */
    public function touch(): static
    {
        $now = new DateTimeImmutable();
        $this->createdAt ??= $now;
        $this->updatedAt = $now;

        return $this;
    }

    public function createdAt(): ?DateTimeImmutable
    {
        return $this->createdAt;
    }

    public function updatedAt(): ?DateTimeImmutable
    {
        return $this->updatedAt;
    }

    /**
     * @return array{created_at: string|null, updated_at: string|null}
     */
    protected function timestampsToArray(): array
    {
        return [
            'created_at' => $this->createdAt?->format(DATE_ATOM),
            'updated_at' => $this->updatedAt?->format(DATE_ATOM),
        ];
    }
}
