<?php
namespace Fam;

// self and static inside a trait name the class that uses it: no reference
// to the trait, which can be neither instantiated nor an instance's type
trait MakesItself
{
    public static function make()
    {
        return new static();
    }

    public function same($other)
    {
        return $other instanceof self;
    }
}

class Pivot
{
    use MakesItself;
}

function pivot()
{
    return Pivot::make();
}
