<?php
namespace App;

use Vendor\Http\Request; // not in the project

class Proxy
{
    public function __construct()
    {
    }

    public function __call($name, $args)
    {
        return null;
    }

    public static function __callStatic($name, $args)
    {
        return null;
    }
}

class Child extends Proxy
{
    public function __construct()
    {
        parent::__construct(); // stated: Proxy has one
    }

    public function run(): void
    {
        $this->missing();  // no such method: Proxy::__call
        self::gone();      // self:: from an instance method: Proxy::__call
        Proxy::other();    // a static call: Proxy::__callStatic
        parent::__clone(); // a magic method is never dispatched to __call
        \call_user_func('App\\quiet'); // a callable naming its function
    }
}

class Upload extends Request
{
    public function __call($name, $args)
    {
        return null;
    }

    public function size(): int
    {
        return $this->getSize(); // most likely Request's: no __call guess
    }
}

class Counter
{
    public function count(): int
    {
        return 0;
    }
}

function quiet(): int
{
    $x = @simplexml_load_string('<a/>');
    return $x->count(); // SimpleXMLElement::count, not Counter::count
}

class Base
{
    public function hello(): string
    {
        return 'hi';
    }
}

class File
{
    public function read(): string
    {
        return 'file';
    }
}

function anon(): object
{
    return new class extends Base {
        public function read(): string
        {
            return 'own';
        }

        public function run(): string
        {
            return $this->read() . $this->hello(); // its own read(), not File::read; Base::hello
        }
    };
}

class Store
{
    public function get(string $key): string
    {
        return $key;
    }
}

function outside(Request $req): string
{
    // what a class or function outside the project returns is not guessed by name
    return $req->getSession()->get('x') . \vendor_helper()->get('y');
}
