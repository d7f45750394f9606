<?php

declare(strict_types=1);

namespace Shop\Support\Routing;

use Closure;
use ReflectionClass;
use ReflectionMethod;
use Shop\Support\Http\Request;
use Shop\Support\Http\Response;

/**
 * A deliberately small router. Actions may be closures, [Controller::class, 'method']
 * pairs or 'Controller@method' strings; controllers are built by the resolver.
 */
final class Router
{
    public const CONTROLLER_NAMESPACE = 'Shop\\Http\\Controller\\';

    /** @var list<array{method: string, path: string, pattern: string, action: Closure|array{0: class-string|object, 1: string}|string}> */
    private array $routes = [];

    private string $prefix = '';

    /**
     * @param Closure(class-string): object $resolver
     */
    public function __construct(private readonly Closure $resolver)
    {
    }

    /** @param Closure|array{0: class-string, 1: string}|string $action */
    public function get(string $path, Closure|array|string $action): static
    {
        return $this->add('GET', $path, $action);
    }

    /** @param Closure|array{0: class-string, 1: string}|string $action */
    public function post(string $path, Closure|array|string $action): static
    {
        return $this->add('POST', $path, $action);
    }

    /** @param Closure|array{0: class-string, 1: string}|string $action */
    public function delete(string $path, Closure|array|string $action): static
    {
        return $this->add('DELETE', $path, $action);
    }

    /**
     * @param array{prefix?: string} $attributes
     * @param Closure(self): void $routes
     */
    public function group(array $attributes, Closure $routes): static
    {
        $previous = $this->prefix;
        $this->prefix = rtrim($previous . '/' . trim($attributes['prefix'] ?? '', '/'), '/');

        try {
            $routes($this);
        } finally {
            $this->prefix = $previous;
        }

        return $this;
    }

    /**
     * Registers every method of $controller that carries a #[Route] attribute.
     *
     * @param class-string $controller
     */
    public function registerController(string $controller): static
    {
        foreach ((new ReflectionClass($controller))->getMethods(ReflectionMethod::IS_PUBLIC) as $method) {
            foreach ($method->getAttributes(Route::class) as $attribute) {
                $route = $attribute->newInstance();
                foreach ($route->methods as $verb) {
                    $this->add(strtoupper($verb), $route->path, [$controller, $method->getName()]);
                }
            }
        }

        return $this;
    }

    public function dispatch(Request $request): Response
    {
        foreach ($this->routes as $route) {
            if ($route['method'] !== $request->method || !preg_match($route['pattern'], $request->path, $matches)) {
                continue;
            }
            foreach (array_filter($matches, is_string(...), ARRAY_FILTER_USE_KEY) as $name => $value) {
                $request = $request->withAttribute($name, $value);
            }

            return $this->call($route['action'], $request);
        }

        return Response::notFound();
    }

    /**
     * @return list<string> e.g. "GET /cart"
     */
    public function list(): array
    {
        return array_map(static fn (array $route): string => $route['method'] . ' ' . $route['path'], $this->routes);
    }

    /** @param Closure|array{0: class-string|object, 1: string}|string $action */
    private function add(string $method, string $path, Closure|array|string $action): static
    {
        $path = $this->prefix . '/' . ltrim($path, '/');
        $path = $path === '/' ? $path : rtrim($path, '/');
        $pattern = '#^' . preg_replace('#\{(\w+)\}#', '(?P<$1>[^/]+)', $path) . '$#';

        // A later registration of the same method and path replaces the earlier one.
        $this->routes = array_values(array_filter(
            $this->routes,
            static fn (array $route): bool => !($route['method'] === $method && $route['path'] === $path),
        ));
        $this->routes[] = ['method' => $method, 'path' => $path, 'pattern' => $pattern, 'action' => $action];

        return $this;
    }

    /** @param Closure|array{0: class-string|object, 1: string}|string $action */
    private function call(Closure|array|string $action, Request $request): Response
    {
        if ($action instanceof Closure) {
            $handler = $action;
            $result = $handler($request);
        } else {
            if (is_string($action)) {
                [$class, $method] = explode('@', $action, 2);
                $action = [str_contains($class, '\\') ? $class : self::CONTROLLER_NAMESPACE . $class, $method];
            }
            [$controller, $method] = $action;
            if (is_string($controller)) {
                $controller = ($this->resolver)($controller);
            }
            $result = call_user_func([$controller, $method], $request);
        }

        return $result instanceof Response ? $result : Response::json($result);
    }
}
