<?php
namespace Shop\Service;

use Shop\Model\Product;
use Shop\Model\Category;
use Shop\Model as M;
use function Shop\Model\make_product;
use const Shop\Model\MAX_ITEMS;
use Shop\Contracts\Entity;

require_once __DIR__ . '/model.php';
require_once APP_DIR . 'contracts.php';
require_once dirname(__FILE__) . '/missing.php';
include $dynamicPath;

#[\Attribute]
class Audit {}

function strlen(string $s): int { return 0; }

class Cart
{
    public function __construct(private Repo $repo) {}

    #[Audit]
    public function run(Product $p, ?Category $c, Entity&\Countable $e, $any): void
    {
        $p->price();
        $p?->label();
        $p->log('x')->log('y')->price();
        $p->withCategory(new Category())->category()->first()->price();
        $this->repo->find()->getName();
        $x = new Product('a');
        $x->getName();
        $y = clone $x;
        $y->id();
        $z = make_product('b');
        $z->price();
        $n = M\make_product('c');
        Product::create()->label();
        Product::$count++;
        echo Product::KIND, MAX_ITEMS, \PHP_EOL;
        echo M\Status::Active->value;
        strlen('x');
        \strlen('y');
        $p->featured->price();
        $p->pick()->price();
        $p->help();
        if ($any instanceof Product) {
            $any->getName();
        }
        foreach ($c->all() as $item) {
            $item->price();
        }
        foreach ($c->products as $prod) {
            $prod->label();
        }
        /** @var Product $q */
        $q = $this->lookup();
        $q->price();
        try {
            $p->price();
        } catch (\RuntimeException|NotFound $ex) {
            $ex->getMessage();
        }
        $f = 'Shop\Service\helper';
        $f();
        $m = 'price';
        $p->$m();
        array_map('Shop\Service\helper', [1]);
        call_user_func([$p, 'price']);
        usort($list, [Product::class, 'create']);
        $cb = helper(...);
        $cb2 = $p->price(...);
        $fn = fn(Product $w) => $w->label();
        $cl = function () use ($p) { return $p->price(); };
        $unknown->price();
        $unknown->nothingLikeThis();
        $e->id();
        $str = Product::class;
    }

    private function lookup() { return null; }
}

class NotFound extends \RuntimeException {}

class Repo
{
    public function find(): Product { return new Product('r'); }
}

function helper(int $i): int { return $i; }
