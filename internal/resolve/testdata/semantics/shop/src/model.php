<?php
namespace Shop\Model;

use Shop\Contracts\{Entity, HasName as Named};

const MAX_ITEMS = 10;

function make_product(string $name): Product
{
    return new Product($name);
}

interface Priced
{
    public function price(): int;
}

abstract class Base implements Entity
{
    public function id(): int { return 1; }
    abstract public function label(): string;
    public static function create(): static { return new static(); }
}

trait Logs
{
    public function log(string $m): static { return $this; }
    public function hello(): string { return 'trait'; }
}

trait Greets
{
    public function hello(): string { return 'greets'; }
}

/**
 * @property Product $featured
 * @method Product pick()
 * @mixin Helper
 */
final class Product extends Base implements Priced, Named
{
    use Logs, Greets {
        Logs::hello insteadof Greets;
        Greets::hello as protected greet;
    }

    public const KIND = 'product';
    public static int $count = 0;
    private ?Category $category = null;

    public function __construct(private string $name, public readonly Tag|Label|null $tag = null) {}

    public function price(): int { return 3; }
    public function label(): string { return $this->name; }
    public function getName(): string { return $this->name; }
    public function category(): ?Category { return $this->category; }
    public function withCategory(Category $c): self { $this->category = $c; return $this; }
}

class Category
{
    /** @var Product[] */
    public array $products = [];
    public function first(): Product { return $this->products[0]; }
    /** @return Product[] */
    public function all(): array { return $this->products; }
}

class Tag {}
class Label {}
class Helper { public function help(): int { return 1; } }

enum Status: string implements Priced
{
    case Active = 'a';
    public function price(): int { return 0; }
}
