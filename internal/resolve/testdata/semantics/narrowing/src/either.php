<?php
namespace App;

class Cursor
{
    public function parameter($column) {}

    /** @return static|null */
    public static function fromEncoded($encoded) {}

    public static function current(): ?Cursor {}
}

/** An unrelated method of the same name: a by-name guess would pick it. */
class Column
{
    public function parameter($column) {}
}

class Paginator
{
    /** @var Cursor|null */
    protected $cached;

    public function reassignedInBranch($cursor, $encoded)
    {
        if (! $cursor instanceof Cursor) {
            $cursor = $encoded ? Cursor::fromEncoded($encoded) : Cursor::current();
        }
        return $cursor->parameter('id');
    }

    public function either($flag)
    {
        $a = $this->cached ?? new Cursor();
        $a->parameter('a');
        $b = $flag ? new Cursor() : null;
        $b->parameter('b');
        $c = $flag ? new Cursor() : $flag;
        $c->parameter('c');
        $d = $flag ? new Cursor() : $this->untyped();
        $d->parameter('d');
    }

    public function untyped() {}

    public function unknownInBranch($cursor)
    {
        if (! $cursor instanceof Cursor) {
            $cursor = $this->untyped();
        }
        return $cursor->parameter('e');
    }
}
