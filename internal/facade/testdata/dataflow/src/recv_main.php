<?php
include "recv_shelf.php";
$shelf = new Shelf($_POST);
echo $shelf->pick('title');
