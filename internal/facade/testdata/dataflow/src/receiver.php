<?php
class Order {
    private $status = 'new';
    public function status() {
        return $this->status;
    }
}
function report(Order $order) {
    $s = $order->status();
    echo $s;
}
