<?php
class Store {
    /** @var array */
    private $items;
    public function __construct(array $items) {
        $this->items = $items;
    }
    public function fetch(string $key) {
        return $this->items[$key];
    }
}
