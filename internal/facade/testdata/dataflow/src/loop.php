<?php
function collect($db) {
    foreach ($_POST['ids'] as $k => $v) {
        $parts[] = $v;
    }
    [$first, $second] = $parts;
    $run = function () use ($first, $db) {
        mysqli_query($db, "SELECT " . $first);
    };
    $run();
}

function lp($n) {
    $acc = '';
    for ($i = 0; $i < $n; $i++) {
        $acc = $acc . $i;
    }
    return $acc;
}
