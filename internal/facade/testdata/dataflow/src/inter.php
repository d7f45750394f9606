<?php
function run_query($db, $q) {
    return mysqli_query($db, $q);
}

function handler($db) {
    $q = "DELETE FROM t WHERE id=" . $_REQUEST['id'];
    run_query($db, $q);
}

function get_input() {
    return $_POST['data'];
}

function show() {
    $d = get_input();
    echo $d;
}
