<?php
$in = $_GET['q'];
$list = array('a', 'b', $in, 'c');
echo $list[1];
echo array('x', $in)[0];
$list[] = $in;
echo $list[4];
echo $list[2];
