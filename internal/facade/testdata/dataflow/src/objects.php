<?php
class Bag {
    private $secret = 'safe';
    public $open = 'safe';
    public function __set($name, $value) {
        echo $value;
    }
    public function __call($name, $args) {
        foreach ($args as $a) {
            echo $a;
        }
    }
}
$bag = new Bag;
$bag->secret = $_GET['s'];
$bag->open = $_GET['o'];
$bag->anything($_GET['c']);
class Label {
    public $text;
    public function __construct($t) {
        $this->text = $t;
    }
    public function __toString() {
        return $this->text;
    }
}
$label = new Label($_GET['t']);
echo $label;
class Base {
    public static function make($x) {
        return static::build($x);
    }
    public static function build($x) {
        return 'safe';
    }
}
class Child extends Base {
    public static function build($x) {
        return $x;
    }
}
echo Child::make($_GET['m']);
echo Base::make($_GET['n']);
$h = array(new Label($_GET['a']), '__toString')();
echo $h;
