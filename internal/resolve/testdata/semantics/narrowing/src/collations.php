<?php
namespace Gen;

class Collation
{
    public function describe() {}
}

class Charsets
{
    /** @return array<string, array<string, Collation>> collations by charset */
    public static function collations(): array { return []; }

    /** @return Collation[][] */
    public static function grid(): array { return []; }

    /** @return iterable<int, Collation> */
    public static function stream(): iterable { return []; }
}

function list_all($name)
{
    $all = Charsets::collations();
    foreach ($all[$name] as $c) {
        $c->describe();
    }
    foreach (Charsets::grid() as $row) {
        foreach ($row as $c2) {
            $c2->describe();
        }
    }
    foreach (Charsets::stream() as $c3) {
        $c3->describe();
    }
}

interface Jsonable
{
    public function toJson();
}

interface Arrayable
{
    public function toArray();
}

function serialize_value($value)
{
    if ($value instanceof Arrayable) {
        return $value->toArray();
    } elseif ($value instanceof Jsonable) {
        return json_decode($value->toJson(), true);
    }
    return $value;
}
