<?php

declare(strict_types=1);

namespace Shop\Contracts;

use JsonSerializable;

/**
 * A persisted domain object. Entities have no id until they are saved.
 */
interface Entity extends JsonSerializable
{
    public function id(): ?int;

    /**
     * @return array<string, mixed>
     */
    public function toArray(): array;
}
