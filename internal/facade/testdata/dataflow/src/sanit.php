<?php
$in = $_GET['q'];
$b = $in;
$c = $b;
$d = $c;
$a = htmlspecialchars($in);
if ($d) { $a = $d; }
echo $a;
