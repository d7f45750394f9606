<?php
class Repo {
    private $term;
    public function __construct() {
        $this->term = $_GET['s'];
    }
    public function search($db) {
        $db->query("SELECT * FROM p WHERE t LIKE '%" . $this->term . "%'");
    }
}
