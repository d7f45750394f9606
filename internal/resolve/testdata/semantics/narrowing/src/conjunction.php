<?php
namespace App;

class HttpError
{
    public function status() {}
}

/** An unrelated method of the same name: a by-name guess would pick it. */
class Response
{
    public function status() {}
}

class Reporter
{
    /** @var object */
    protected $last;

    public function report($error)
    {
        if ($error instanceof HttpError && $error->status() === 404) {
            return;
        }
        $known = $this->last instanceof HttpError && $this->last->status();
        return $error->status();
    }
}

interface OneOfMany
{
    public function isOneOfMany(): bool;
}

trait ComparesModels
{
    public function compares(): bool
    {
        return $this instanceof OneOfMany && $this->isOneOfMany();
    }
}
