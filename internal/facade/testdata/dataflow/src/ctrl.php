<?php
function gate($user, $amount) {
    $limit = 100;
    if ($user->isAdmin()) {
        $limit = 1000;
    }
    if ($amount > $limit) {
        return false;
    }
    $fee = $amount * 2;
    return $fee;
}
