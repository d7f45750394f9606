<?php

declare(strict_types=1);

namespace Shop\Support\Http;

/**
 * An immutable HTTP request. Route parameters and values set by the front
 * controller are stored as attributes and readable as properties.
 *
 * @property string|null $reference
 * @property string|null $sku
 * @property string|null $productId
 * @property int|null $customerId
 */
final class Request
{
    /** @var array<string, mixed> */
    private array $attributes = [];

    /**
     * @param array<string, string> $query
     * @param array<string, mixed> $body
     * @param array<string, string> $headers lower-cased header names
     */
    public function __construct(
        public readonly string $method,
        public readonly string $path,
        private readonly array $query = [],
        private readonly array $body = [],
        private readonly array $headers = [],
    ) {
    }

    public static function fromGlobals(): static
    {
        $headers = [];
        foreach ($_SERVER as $key => $value) {
            if (str_starts_with($key, 'HTTP_')) {
                $headers[strtolower(str_replace('_', '-', substr($key, 5)))] = (string) $value;
            }
        }
        $body = $_POST;
        if (str_contains($headers['content-type'] ?? '', 'json')) {
            $body = json_decode((string) file_get_contents('php://input'), true) ?: [];
        }

        $request = new static(
            strtoupper($_SERVER['REQUEST_METHOD'] ?? 'GET'),
            parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH) ?: '/',
            $_GET,
            $body,
            $headers,
        );

        $customerId = $headers['x-customer-id'] ?? null;

        return $customerId !== null ? $request->withAttribute('customerId', (int) $customerId) : $request;
    }

    public function input(string $key, mixed $default = null): mixed
    {
        return $this->body[$key] ?? $this->query[$key] ?? $default;
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    public function withAttribute(string $name, mixed $value): static
    {
        $clone = clone $this;
        $clone->attributes[$name] = $value;

        return $clone;
    }

    public function __get(string $name): mixed
    {
        return $this->attributes[$name] ?? null;
    }

    public function __isset(string $name): bool
    {
        return isset($this->attributes[$name]);
    }
}
