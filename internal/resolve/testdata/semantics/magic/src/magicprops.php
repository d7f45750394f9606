<?php
namespace Props;

class Bag
{
    private array $data = [];
    public $real;

    public function __get($name) { return $this->data[$name] ?? null; }
    public function __set($name, $value) { $this->data[$name] = $value; }
}

class Plain { public $real; }

function use_bag(Bag $b, Plain $p)
{
    $x = $b->color;          // __get
    $b->color = 'red';       // __set
    $b->count .= 'x';        // __get, then __set
    $b->real = 1;            // declared: a reference
    $y = $p->missing;        // no magic method: unresolved
    return $x . $y;
}
