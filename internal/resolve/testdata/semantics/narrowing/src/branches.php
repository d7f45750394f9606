<?php
namespace Flow;

class Alpha
{
    public function run() {}
}

class Beta
{
    public function run() {}
}

// past an if/else a variable is what either branch left in it
function pick($flag)
{
    if ($flag) {
        $x = new Alpha();
    } else {
        $x = new Beta();
    }
    $x->run();
}

// a case that breaks reaches the end; one that returns does not
function upgrader($type)
{
    switch ($type) {
        case 'alpha':
            $u = new Alpha();
            break;
        case 'beta':
            $u = new Beta();
            break;
        case 'none':
            $u = new \stdClass();
            return $u;
    }
    $u->run();
}

// a branch that assigns an unknown value leaves the variable unknown
function maybe($flag, $other)
{
    $x = new Alpha();
    if ($flag) {
        $x = $other;
    }
    $x->run();
}

// a branch that leaves does not count
function early($flag)
{
    $x = new Alpha();
    if ($flag) {
        $x = new Beta();
        return;
    }
    $x->run();
}

/**
 * @param Alpha[] $list
 */
function first(array $list)
{
    $a = array_shift($list);
    $a->run();
    $b = \reset($list);
    $b->run();
}

// a match is one of its arms; an arm that throws adds nothing
function matched(string $kind)
{
    $m = match ($kind) {
        'alpha' => new Alpha(),
        'beta', 'b' => new Beta(),
        default => throw new \InvalidArgumentException($kind),
    };
    $m->run();
}

// past a try/catch a variable is what the try or a catch left in it
function tried()
{
    try {
        $t = new Alpha();
    } catch (\RuntimeException $e) {
        $t = new Beta();
    } finally {
        $done = true;
    }
    $t->run();
}

// a catch sees what the try assigned before it threw
function caught()
{
    try {
        $a = new Alpha();
        $a->run();
    } catch (\RuntimeException $e) {
        $a->run();
    }
}

/**
 * A break hands its variables to the end of the loop or switch it leaves.
 *
 * @param Alpha[] $items
 */
function find(array $items, $id)
{
    $found = null;
    foreach ($items as $item) {
        if ($item->id === $id) {
            $found = $item;
            break;
        }
    }
    $found->run();
}

function pick_case($t, $flag)
{
    switch ($t) {
        case 'a':
            if ($flag) {
                $v = new Alpha();
                break;
            }
            $v = new Beta();
            break;
        default:
            $v = new Beta();
    }
    $v->run();
}

// exit and die leave as return does
function guarded($x)
{
    $v = new Alpha();
    if (!$x) {
        $v = new Beta();
        exit;
    }
    if ($x === 2) {
        $v = new Beta();
        die('stop');
    }
    if ($x === 3) {
        $v = new Beta();
        die; // the grammar reads a bare die as a name, no constant
    }
    $x or die;
    $v->run();
}

// assert($v instanceof C) narrows $v from there on
function asserted($v)
{
    assert($v instanceof Beta);
    $v->run();
}
