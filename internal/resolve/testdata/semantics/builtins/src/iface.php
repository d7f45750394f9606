<?php
// Calls on receivers typed by PHP's own interfaces: the project's
// implementations are candidates (calls_heuristic), never proven targets.
namespace App;

class Money implements \JsonSerializable
{
    public function jsonSerialize(): mixed { return 1; }
}

abstract class Base implements \Countable
{
    abstract public function count(): int;
}

class Bag extends Base
{
    public function count(): int { return 0; }
}

class Crate extends Bag
{
}

function encode($v)
{
    if ($v instanceof \JsonSerializable) {
        return $v->jsonSerialize(); // Money::jsonSerialize, a candidate
    }
    return null;
}

function size(\Countable $c): int
{
    return $c->count(); // Bag::count, not the abstract Base::count
}

function walk(\Iterator $it)
{
    $it->rewind(); // external: no project class is an Iterator
}

function message(\Exception $e): string
{
    return $e->getMessage(); // external: final in Exception
}

class Failure extends \RuntimeException
{
    public function __construct(string $m)
    {
        parent::__construct($m); // external: bound to RuntimeException
    }

    public function describe(\Throwable $t): string
    {
        return $t->getMessage() . $t->__toString(); // external 2
    }
}
