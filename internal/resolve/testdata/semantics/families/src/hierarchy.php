<?php
namespace Fam;

interface Store
{
    public function put($key, $value);
}

interface Paginator
{
    public function url($page);
}

trait PutsInMemory
{
    public function put($key, $value) {}
}

// the trait's method implements the interface
class MemoryStore implements Store
{
    use PutsInMemory;
}

abstract class AbstractPaginator
{
    public function url($page) {}
}

// the parent's method implements an interface only the subclass declares
class SimplePaginator extends AbstractPaginator implements Paginator
{
    public function next() { return $this->url(2); }

    public function last() { return call_user_func([$this, 'url'], 9); }
}

// an own method: overrides as before
class FileStore implements Store
{
    public function put($key, $value) {}
}
