<?php
namespace Men;

class Limb
{
    public function shift() { return $this; }
}

class Bag implements \ArrayAccess
{
    /** @return Limb */
    public function offsetGet($offset): mixed { return new Limb(); }
    public function offsetExists($offset): bool { return true; }
    public function offsetSet($offset, $value): void {}
    public function offsetUnset($offset): void {}
}

class Registry
{
    /** @var Widget */
    public $owner;

    public function run(Bag $bag)
    {
        /** @var Limb[] $limbs */
        $limbs = array();
        $limbs[0]->shift();
        $bag[1]->shift()->shift();
        /** {@see Limb::shift()} is not a tag */
        $x = [$this->owner, 'render'];
    }
}
