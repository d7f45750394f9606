<?php

declare(strict_types=1);

namespace Shop\Support\Http;

use Countable;
use JsonSerializable;

final class Response
{
    /**
     * @param array<string, string> $headers
     */
    public function __construct(
        public readonly string $body = '',
        public readonly int $status = 200,
        private array $headers = [],
    ) {
    }

    /**
     * Accepts plain arrays as well as collection-like objects that are both
     * JSON-serialisable and countable (a Cart, for example).
     */
    public static function json((JsonSerializable&Countable)|array|null $data, int $status = 200): self
    {
        $headers = ['Content-Type' => 'application/json'];
        if ($data instanceof Countable) {
            $headers['X-Total-Count'] = (string) count($data);
        }

        return new self(json_encode($data, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES), $status, $headers);
    }

    public static function redirect(string $location, int $status = 302): self
    {
        return new self('', $status, ['Location' => $location]);
    }

    public static function notFound(string $message = 'Not Found'): self
    {
        return self::json(['error' => $message], 404);
    }

    public function withHeader(string $name, string $value): static
    {
        $clone = clone $this;
        $clone->headers[$name] = $value;

        return $clone;
    }

    public function header(string $name): ?string
    {
        return $this->headers[$name] ?? null;
    }

    public function send(): void
    {
        http_response_code($this->status);
        foreach ($this->headers as $name => $value) {
            header("{$name}: {$value}");
        }
        echo $this->body;
    }
}
