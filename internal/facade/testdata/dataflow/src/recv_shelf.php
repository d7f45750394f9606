<?php
include "recv_store.php";
class Shelf {
    /** @var Store */
    private $store;
    public function __construct(array $items) {
        $this->store = new Store($items);
    }
    public function pick(string $key) {
        return $this->store->fetch($key);
    }
}
