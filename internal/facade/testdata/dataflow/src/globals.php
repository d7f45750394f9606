<?php
$term = $_POST['term'];
function search_terms() {
    global $term;
    return "WHERE t = '" . $term . "'";
}
function run_search($db) {
    mysqli_query($db, search_terms());
}
$total = 0;
function count_up($n) {
    global $total;
    $total = $n;
}
count_up($_GET['n']);
echo $total;
$safe = 'x';
echo $safe;
