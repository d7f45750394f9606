<?php
// A loop body runs from what the variables held before the loop or at the
// end of its previous run.
namespace Loops;

class Node
{
    public function parent(): ?Node { return null; }
    public function name(): string { return ''; }
}

class Builder
{
    public function where(): static { return $this; }
    /** @return mixed */
    public function scope() { return $this; }
}

function walk(Node $n)
{
    while ($n !== null) {
        $n->name(); // Node on every run: stated
        $n = $n->parent();
    }
}

function scopes(Builder $b, array $names)
{
    $builder = $b;
    foreach ($names as $name) {
        // a Builder on the first run, unknown after: not proven
        $builder = $builder->scope($name);
    }
    return $builder;
}

function fluent(Builder $b, array $names)
{
    foreach ($names as $name) {
        $b = $b->where(); // stays a Builder: stated
    }
    $b->where();
}

function previous(array $rows)
{
    $last = null;
    foreach ($rows as $row) {
        if ($last) {
            $last->name(); // the Node of the previous run: stated
        }
        $last = new Node();
    }
}

function once(Builder $b)
{
    do {
        $n = new Node();
    } while (false);
    $n->name(); // the body ran: stated
}
