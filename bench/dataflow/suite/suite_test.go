package suite

import (
	"slices"
	"testing"
)

// TestSourceLines: lines reading a superglobal, a source call of the models
// (a method only on the model's receivers) or an extra source function are
// found; a declaration of that function is not a read.
func TestSourceLines(t *testing.T) {
	src := "<?php\n$a = $_GET['x'];\n$b = 1;\n$c = file_get_contents('php://input');\n$d = file_get_contents('f');\nfunction getTaint() {}\n$e = getTaint();\n$f = $mysqli->query($q);\n$g = $request->query('id');\n"
	got, err := SourceLines([]byte(src), []string{"getTaint"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 4, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
