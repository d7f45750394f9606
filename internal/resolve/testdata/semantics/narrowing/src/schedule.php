<?php
namespace App;

interface EventMutex
{
    public function create($event);
}

interface CacheAware
{
    public function useStore($store);
}

class CacheEventMutex implements EventMutex, CacheAware
{
    public function create($event) {}
    public function useStore($store) {}
}

class Relation
{
    public function getResults() {}
}

/** Unrelated methods of the same names: by-name guesses would pick them. */
class Other
{
    public function useStore($store) {}
    public function getResults() {}
}

class Schedule
{
    /** @var EventMutex */
    protected $eventMutex;

    public function useCache($store)
    {
        if ($this->eventMutex instanceof CacheAware) {
            $this->eventMutex->useStore($store);
        }
        $this->eventMutex->create($store);
    }

    public function replace($store, $other)
    {
        if ($this->eventMutex instanceof CacheAware) {
            $this->eventMutex = $other;
            $this->eventMutex->useStore($store);
        }
    }

    public function results($method)
    {
        $relation = $this->$method();
        if (! $relation instanceof Relation) {
            throw new \LogicException('not a relation');
        }
        call_user_func([$relation, 'getResults']);
        return $relation->getResults();
    }

    public function noExit($relation)
    {
        if (!($relation instanceof Relation)) {
            $relation = null;
        }
        return $relation->getResults();
    }
}
