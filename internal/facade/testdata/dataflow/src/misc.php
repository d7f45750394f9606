<?php
function shell() {
    $u = $_GET['u'] ?? 'guest';
    $c = $u ? "ls " . $u : 'ls';
    system($c);
}

function wp_search() {
    global $wpdb;
    $s = $_GET['s'];
    $rows = $wpdb->get_results($wpdb->prepare("SELECT * FROM t WHERE s = %s", $s));
    return $rows;
}

function vv() {
    $name = 'x';
    $$name = $_GET['q'];
    echo $x;
}

function dyn($cb) {
    $v = $_GET['v'];
    $cb($v);
    echo 'done';
}

function page() {
    $p = $_GET['page'];
    include $p . '.php';
}

function build($a, $b) {
    $s = "x";
    $s .= $a;
    $t = $b;
    return $s;
}

function br($c) {
    if ($c) {
        $x = 1;
    } else {
        $x = $c;
    }
    $y = 5;
    return $x;
}

function keys() {
    $a['x'] = $_GET['x'];
    $a['y'] = 'safe';
    echo $a['y'];
}

function unserial() {
    $raw = file_get_contents('php://input');
    $obj = unserialize($raw);
    return $obj;
}
