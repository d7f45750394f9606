<?php
// Chains deeper than a query's default depth (2): past it, the callee's
// summary stands in for its body.
function sum_l1($v) { return sum_l2($v); }
function sum_l2($v) { return sum_l3($v); }
function sum_l3($v) { return sum_l4($v); }
function sum_l4($v) { return trim($v); }

function sum_drop($v) { $n = strlen($v); return 42; }
function sum_w1($v) { return sum_w2($v); }
function sum_w2($v) { return sum_w3($v); }
function sum_w3($v) { return sum_drop($v); }

function sum_q1($s) { sum_q2($s); }
function sum_q2($s) { sum_q3($s); }
function sum_q3($s) { mysql_query("SELECT " . $s); }

function sum_src1() { return sum_src2(); }
function sum_src2() { return sum_src3(); }
function sum_src3() { return $_GET['q']; }

function sum_keep($v) { return sum_k2($v); }
function sum_k2($v) { return sum_k3($v); }
function sum_k3($v) { $GLOBALS['kept'] = $v; return 1; }

$a = sum_l1($_GET['a']);
echo $a;
$b = sum_w1($_GET['b']);
echo $b;
sum_q1($_GET['c']);
$q = sum_src1();
echo $q;
$k = sum_keep($_GET['k']);
echo $k;
