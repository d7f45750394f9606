<?php
function pick($x) {
    try { return $x; } finally { return 'safe'; }
}
function keep($x) {
    try { return $x; } finally { $x = htmlspecialchars($x); }
}
$in = $_GET['q'];
$p = pick($in);
echo $p;
$k = keep($in);
echo $k;
