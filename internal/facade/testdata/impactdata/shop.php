<?php
class Cart {
    private $total;
    private $items = [];

    public function add($price, $qty) {
        $line = $this->scale($price, $qty);
        $this->total = $line;
        return $line;
    }

    private function scale($p, $q) {
        return round_price($p) * $q;
    }

    public function summary() {
        echo $this->total;
    }
}

function round_price($v) {
    return floor($v * 100) / 100;
}

function checkout(Cart $cart) {
    $sum = $cart->add(10, 2);
    echo $sum;
}
