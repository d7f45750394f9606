<?php
class Base {
    public function __construct(private string $name) {
        mysqli_query($GLOBALS['db'], "SELECT * FROM t WHERE n = '" . $name . "'");
    }
}
class Child extends Base {
}
function make() {
    return new Child($_GET['n']);
}
