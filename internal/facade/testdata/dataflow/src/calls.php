<?php
function log_all(...$parts) {
    foreach ($parts as $p) {
        echo $p;
    }
}
log_all('a', 'b', $_GET['x']);
function show_args() {
    foreach (func_get_args() as $a) {
        echo $a;
    }
}
show_args(1, $_GET['y']);
function pair($a, $b) {
    echo $b;
}
$vals = [1, $_GET['z']];
pair(...$vals);
parse_str($_SERVER['QUERY_STRING'], $q);
echo $q['name'];
