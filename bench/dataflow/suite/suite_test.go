package suite

import (
	"slices"
	"testing"
)

// TestSourceLines: lines reading a superglobal, a source call of the models
// or an extra source function are found; a declaration of that function is
// not a read.
func TestSourceLines(t *testing.T) {
	src := "<?php\n$a = $_GET['x'];\n$b = 1;\n$c = file_get_contents('php://input');\n$d = file_get_contents('f');\nfunction getTaint() {}\n$e = getTaint();\n"
	got, err := SourceLines([]byte(src), []string{"getTaint"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 4, 7}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
