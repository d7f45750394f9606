<?php
class Box {
    public $v = 'safe';
    private $h = 'safe';
    function __isset($n) { echo $this->v; return true; }
    function __unset($n) { echo $this->h; }
    function hide($x) { $this->h = $x; }
}
$in = $_GET['q'];
$b = new Box;
$b->v = $in;
isset($b->v);
$b->hide($in);
unset($b->h);
