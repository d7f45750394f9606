package facade

import (
	"regexp"
	"strings"
	"testing"
)

// The text form of slice and flow names a statement's function by its
// qualified name (function_name), not by the node id the JSON form carries.
func TestFT27_SliceTextNamesTheFunction(t *testing.T) {
	s := dataflowProject(t)
	nodeID := regexp.MustCompile(`\b[net]?[0-9a-f]{32}\b`)
	for _, req := range []struct {
		op   string
		args map[string]any
	}{
		{"slice", map[string]any{"path": "inter.php", "line": 3, "direction": "backward"}},
		{"flow", map[string]any{"from": "source:http_input", "to": "inter.php:3"}},
	} {
		text := RenderText(dfCall(t, s, req.op, req.args))
		if nodeID.MatchString(text) || strings.Contains(text, "function=") {
			t.Errorf("%s text shows a node id:\n%s", req.op, text)
		}
		if req.op == "slice" && !strings.Contains(text, "function_name=") {
			t.Errorf("%s text does not name the function:\n%s", req.op, text)
		}
	}
}
