<?php
class Db
{
    /** @var Cache */
    public $cache;

    public function connect() {}
    public function query($sql) {}
}

class Cache
{
    public function get($key) {}
}

class Query
{
    public function run() {}
}

function setup_query()
{
    global $the_query;
    $the_query = new Query();
}

/**
 * @global Db $db
 */
function documented()
{
    global $db;
    $db->cache->get('k'); // a chain that starts at the global says so
    return $db->query('x');
}

function plain()
{
    global $db, $the_query;
    $db->query('y');
    $the_query->run();
    $GLOBALS['cache']->get('k');
    call_user_func('plain');
}

function local()
{
    $db = null;
    $db->query('not the global');
}

class PostsTable
{
    public function singleRow($item) {}
}

class UsersTable
{
    public function singleRow($item) {}
}

function posts_screen()
{
    global $list_table;
    $list_table = new PostsTable();
}

function users_screen()
{
    global $list_table;
    $list_table = new UsersTable();
}

// which table this is depends on the screen that ran first
function ajax_row()
{
    global $list_table;
    $list_table->singleRow(1);
}

/**
 * A documented union is what the function states: proven.
 *
 * @global PostsTable|UsersTable $list_table
 */
function documented_row()
{
    global $list_table;
    $list_table->singleRow(2);
}

class Hook
{
    public function fire() {}
}

/**
 * @global Hook[] $hooks
 */
function fire_all($name)
{
    global $hooks;
    $hooks[$name]->fire();
}
