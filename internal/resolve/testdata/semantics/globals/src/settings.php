<?php
require __DIR__ . '/db.php';

$db = new Db();
$GLOBALS['cache'] = new Cache();
$db->connect();

/**
 * @global Query $current the tag types the global statement below it
 */
global $current;

$current->run();
