<?php
require __DIR__ . '/db.php';

$db = new Db();
$GLOBALS['cache'] = new Cache();
$db->connect();
