<?php
namespace App\Cache;

interface Store
{
    public function get($key);
}

class FileDriver implements Store
{
    public function get($key) {}
    public function put($key, $value) {}
}

class RedisDriver implements Store
{
    public function get($key) {}
    public function put($key, $value) {}
}

class Mutex
{
    public function exists($name) {}
}

class Logger
{
    public function log($message) {}
}

/** Unrelated methods of the same names: by-name guesses would pick them. */
class Unrelated
{
    public function exists($name) {}
    public function put($key, $value) {}
    public function log($message) {}
    public function flush() {}
    public function boot() {}
}

function make_driver()
{
    return null;
}
