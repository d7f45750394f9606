<?php
namespace Mix;

class Items
{
    public function toJson() { return '[]'; }
}

/**
 * Calls it does not declare go to Items, through __call: delegation, not
 * inheritance.
 *
 * @mixin Items
 */
abstract class AbstractPager
{
    public function __call($method, $args) { return (new Items())->$method(...$args); }
}

class Pager extends AbstractPager
{
    public function toJson() { return '{}'; } // overrides nothing
}

function show(AbstractPager $p, Pager $q)
{
    return $p->toJson() . $q->toJson(); // Items::toJson through the mixin; Pager's own
}
