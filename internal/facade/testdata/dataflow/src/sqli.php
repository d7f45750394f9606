<?php
function direct_sqli($db) {
    $id = $_GET['id'];
    $sql = "SELECT * FROM users WHERE id = " . $id;
    mysqli_query($db, $sql);
}

function sanitized($db) {
    $id = intval($_GET['id']);
    $sql = "SELECT * FROM users WHERE id = $id";
    mysqli_query($db, $sql);
}

function safe($db) {
    $id = $_GET['id'];
    $sql = "SELECT 1";
    mysqli_query($db, $sql);
}

function cast_echo() {
    $n = (int) $_POST['n'];
    echo "Count: {$n}";
}
