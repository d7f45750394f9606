<?php
function fill(&$out, $in) {
    $out = "v=" . $in;
}
function caller() {
    $q = $_GET['q'];
    fill($dst, $q);
    echo $dst;
}
function counter($v) {
    static $last = '';
    echo $last;
    $last = $v;
}
counter($_POST['c']);
function show($x) {
    echo $x;
}
$rows = [$_GET['r'], 'b'];
array_walk($rows, 'show');
function gen($g) {
    yield $g;
}
foreach (gen($_GET['g']) as $item) {
    echo $item;
}
function vvar($name) {
    $$name = $_GET['w'];
    echo $other;
}
function check($v) {
    throw new InvalidArgumentException("bad " . $v);
}
try {
    check($_GET['e']);
} catch (InvalidArgumentException $ex) {
    echo $ex->getMessage();
}
function remember() {
    $_SESSION['u'] = $_GET['u'];
}
