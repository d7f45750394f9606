package dataflow

import (
	"slices"
	"testing"
)

// TestModelsShipped: the models in the binary decode strictly and name the
// sources, sinks and sanitizers the operations document.
func TestModelsShipped(t *testing.T) {
	m, err := DefaultModels()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.SourceNames(); !slices.Equal(got, []string{"http_input"}) {
		t.Errorf("sources %v", got)
	}
	for _, s := range []string{"sql", "output", "shell", "include", "unserialize", "file", "code", "ldap", "xpath"} {
		if _, ok := m.Sinks[s]; !ok {
			t.Errorf("no sink %s", s)
		}
	}
	for _, c := range []struct {
		call Call
		want string
	}{
		{Call{Name: "intval"}, "intval"},
		{Call{Name: "prepare", Method: true, Receiver: "wpdb"}, "->prepare"},
		{Call{Name: "prepare", Method: true, Receiver: "stmt"}, ""},
		{Call{Name: "intval", Method: true, Receiver: "x"}, ""},
		{Call{Name: "?", Dynamic: true}, ""},
	} {
		if got := m.sanitizer(&c.call); got != c.want {
			t.Errorf("sanitizer(%+v) = %q, want %q", c.call, got, c.want)
		}
	}
}

// TestModelsSinkCalls: the calls the public taint suites treat as sinks
// (progpilot's tests, Psalm's TaintTest) match the sink model of their kind
// and no other; the escaping functions they treat as sanitizers are ones.
func TestModelsSinkCalls(t *testing.T) {
	m, err := DefaultModels()
	if err != nil {
		t.Fatal(err)
	}
	sinksOf := func(c *Call) []string {
		var out []string
		for _, name := range m.SinkNames() {
			for _, cm := range m.Sinks[name].Calls {
				if cm.match(c) {
					out = append(out, name)
					break
				}
			}
		}
		return out
	}
	for _, c := range []struct {
		call Call
		want []string
	}{
		{Call{Name: "print_r"}, []string{"output"}},
		{Call{Name: "var_dump"}, []string{"output"}},
		{Call{Name: "var_export"}, []string{"output"}},
		{Call{Name: "file_get_contents"}, []string{"file"}},
		{Call{Name: "readfile"}, []string{"file"}},
		{Call{Name: "eval"}, []string{"code"}},
		{Call{Name: "create_function"}, []string{"code"}},
		{Call{Name: "ldap_search"}, []string{"ldap"}},
		{Call{Name: "ldap_list"}, []string{"ldap"}},
		{Call{Name: "xpath", Method: true, Receiver: "xml"}, []string{"xpath"}},
		{Call{Name: "query", Method: true, Receiver: "xpath"}, []string{"xpath"}},
		{Call{Name: "evaluate", Method: true, Receiver: "xpath"}, []string{"xpath"}},
		{Call{Name: "query", Method: true, Receiver: "pdo"}, []string{"sql"}},
		{Call{Name: "query", Method: true, Receiver: "stmt"}, nil},
		{Call{Name: "ldap_connect"}, nil},
		{Call{Name: "xpath"}, nil},
	} {
		if got := sinksOf(&c.call); !slices.Equal(got, c.want) {
			t.Errorf("sinks of %+v = %v, want %v", c.call, got, c.want)
		}
	}
	for _, c := range []struct {
		call Call
		want string
	}{
		{Call{Name: "mysql_real_escape_string"}, "mysql_real_escape_string"},
		{Call{Name: "mysqli_escape_string"}, "mysqli_escape_string"},
		{Call{Name: "escape_string", Method: true, Receiver: "mysqli"}, "->escape_string"},
		{Call{Name: "ldap_escape"}, "ldap_escape"},
		{Call{Name: "urlencode"}, "urlencode"},
		{Call{Name: "escape_string", Method: true, Receiver: "s"}, ""},
	} {
		if got := m.sanitizer(&c.call); got != c.want {
			t.Errorf("sanitizer(%+v) = %q, want %q", c.call, got, c.want)
		}
	}
}

// A property of an unknown receiver ($clone->p after `$clone = clone $this`)
// may be any class's property of that name, with a lower confidence; two
// known classes never alias.
func TestPropAlias(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"Response::$headers", "Response::$headers", 0.9},
		{"*::$headers", "Response::$headers", 0.6},
		{"Response::$headers", "*::$headers", 0.6},
		{"*::$headers", "*::$headers", 0.9},
		{"Request::$headers", "Response::$headers", 0},
		{"*::$headers", "Response::$body", 0},
	} {
		if got := propAlias(c.a, c.b); got != c.want {
			t.Errorf("propAlias(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestModelsWith: a project's models extend a shipped name and add new ones,
// leaving the shipped models unchanged.
func TestModelsWith(t *testing.T) {
	m, err := DefaultModels()
	if err != nil {
		t.Fatal(err)
	}
	sqlCalls := len(m.Sinks["sql"].Calls)
	sans := len(m.Sanitizers)
	x := m.With(&Models{
		Sources:    map[string]Model{"app_input": {Calls: []CallModel{{Function: "fetch_param"}}}},
		Sinks:      map[string]Model{"sql": {Calls: []CallModel{{Method: "raw", Receivers: []string{"db"}}}}},
		Sanitizers: []CallModel{{Function: "clean_id"}},
	})
	if got := x.SourceNames(); !slices.Equal(got, []string{"app_input", "http_input"}) {
		t.Errorf("sources %v", got)
	}
	if got := len(x.Sinks["sql"].Calls); got != sqlCalls+1 {
		t.Errorf("sql sink calls %d, want %d", got, sqlCalls+1)
	}
	if !x.Sinks["sql"].Calls[sqlCalls].match(&Call{Name: "raw", Method: true, Receiver: "db"}) {
		t.Error("the added sql call does not match $db->raw()")
	}
	if x.sanitizer(&Call{Name: "clean_id"}) != "clean_id" || x.sanitizer(&Call{Name: "intval"}) != "intval" {
		t.Error("sanitizers not joined")
	}
	if len(m.Sinks["sql"].Calls) != sqlCalls || len(m.Sanitizers) != sans || len(m.Sources) != 1 {
		t.Error("With changed the shipped models")
	}
	if m.With(nil) != m {
		t.Error("With(nil) is not the models themselves")
	}
}
