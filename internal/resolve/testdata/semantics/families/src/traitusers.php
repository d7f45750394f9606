<?php
namespace Users;

// $this, self and static in a trait are the using class: a method the trait
// does not declare is one of the using classes' (derived, classes outside
// the project may use the trait too)
trait Talks
{
    public function greet()
    {
        return $this->name() . $this->missing(); // three users' name(); missing() nowhere
    }

    public static function make()
    {
        return static::create(); // only Person declares create()
    }

    public function label()
    {
        return $this->label; // Person's; a reference must be proven: unresolved
    }
}

trait Loud
{
    use Talks;
}

class Person
{
    use Talks;

    public $label = 'person';

    public function name() { return 'p'; }

    public static function create() { return new static(); }
}

class Robot
{
    use Loud;

    public function name() { return 'r'; }
}

class Base
{
    public function name() { return 'b'; }
}

class Child extends Base
{
    use Talks;
}
