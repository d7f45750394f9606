<?php
namespace App;

/** Project methods named like built-in ones: by-name guesses would pick them. */
class Statement
{
    public function execute() {}
    public function fetch() {}
}

class Formatter
{
    public function format($value) {}
    public function getTimestamp() {}
    public function getMessage() {}
}

class Collection extends \ArrayObject
{
    public function first() {}
}
