<?php
namespace Fam;

// A trait's abstract method is a requirement the using class implements:
// the class's method overrides it, so `$this->driver()` in the trait belongs
// to the family of each implementation.
trait ManagesDrivers
{
    abstract public function driver(): string;

    public function describe(): string
    {
        return 'driver ' . $this->driver();
    }

    public function label(): string
    {
        return 'manager';
    }
}

class MailManager
{
    use ManagesDrivers;

    public function driver(): string
    {
        return 'smtp';
    }

    // a concrete trait method the class replaces is not an implementation
    public function label(): string
    {
        return 'mail';
    }
}
