<?php
$name = $_GET['name'];
include 'incl_view.php';
