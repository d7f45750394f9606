package suite

import (
	"reflect"
	"testing"
)

// flat renders a Value for comparison: strings as themselves, arrays as
// slices of key=value or value.
func flat(v Value) any {
	if !v.IsArray {
		return v.Str
	}
	out := []any{}
	for i, e := range v.List {
		if v.Keys[i] != "" {
			out = append(out, v.Keys[i]+"=")
		}
		out = append(out, flat(e))
	}
	return out
}

// TestParseArray: the literal forms of the suites' expectation files and
// data providers read as PHP would evaluate them.
func TestParseArray(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     any
	}{
		{"progpilot", `<?php return [ ["./a.php", [["\$var1", '3', "xss"]]], ["./b.php", []], ];`,
			[]any{[]any{"./a.php", []any{[]any{"$var1", "3", "xss"}}}, []any{"./b.php", []any{}}}},
		{"array() and comments", `return array( /* x */ array("\$a", "\$b"), // y
			'it\'s', "q\"\\");`, []any{[]any{"$a", "$b"}, "it's", `q"\`}},
		{"keys and concatenation", `return ['t' => ['code' => '<?php echo 1;', 'error_message' => 'TaintedHtml - src' . DIRECTORY_SEPARATOR . 'f.php']];`,
			[]any{"t=", []any{"code=", "<?php echo 1;", "error_message=", "TaintedHtml - src/f.php"}}},
	} {
		v, err := ParseArray(c.in, 0)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := flat(v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, got, c.want)
		}
	}
	if _, err := ParseArray(`return ['a' 'b'];`, 0); err == nil {
		t.Error("two values without a comma parsed")
	}
}
