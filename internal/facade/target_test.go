package facade

import (
	"encoding/json"
	"strings"
	"testing"
)

// targetOf is the qualified name of the definition an answer is about.
func targetOf(t *testing.T, env *Envelope) string {
	t.Helper()
	b, err := json.Marshal(env.Result)
	must(t, err)
	var r struct {
		Target *struct {
			QName string `json:"qname"`
		} `json:"target"`
	}
	must(t, json.Unmarshal(b, &r))
	if r.Target == nil {
		return ""
	}
	return r.Target.QName
}

// TestFT27_TargetTakesWhatTheAgentHas: a target-taking operation answers a
// short name, a Class::method name, a qualified name and path:line; several
// definitions of one name are never merged (the one near the caller's file is
// answered, the others are listed with the arguments that select each); a
// name that matches nothing is not-found with the closest names.
func TestFT27_TargetTakesWhatTheAgentHas(t *testing.T) {
	s, _, _ := newFixtureService(t, 4, 0)
	for _, c := range []struct{ op, args, want string }{
		{"references", `{"qname":"App\\C1::run"}`, `App\C1::run`},
		{"references", `{"qname":"\\App\\C1::run"}`, `App\C1::run`},
		{"references", `{"qname":"C1::run"}`, `App\C1::run`},
		{"callers", `{"qname":"C2::helper"}`, `App\C2::helper`},
		{"implementations", `{"qname":"Shipping"}`, `App\Shipping`},
		{"callees", `{"qname":"src/C3.php:6"}`, `App\C3::run`},
		{"references", `{"qname":"run","near":"src/C2.php"}`, `App\C2::run`},
	} {
		env := call(t, s, c.op, c.args)
		if env.NotFound {
			t.Errorf("%s %s: not found", c.op, c.args)
			continue
		}
		if got := targetOf(t, env); got != c.want {
			t.Errorf("%s %s: target %q, want %q", c.op, c.args, got, c.want)
		}
	}

	// an ambiguous short name: one answered, every other run listed with the
	// arguments that select it, none merged into the answer
	env := call(t, s, "references", `{"qname":"run","near":"src/C2.php"}`)
	listed := map[string]bool{}
	for _, sg := range env.Suggest {
		if q, ok := sg.Args["qname"].(string); ok {
			listed[q] = true
		}
	}
	for _, other := range []string{`App\C0::run`, `App\C1::run`, `App\C3::run`, `App\Base::run`} {
		if !listed[other] {
			t.Errorf("ambiguous run: %s not suggested; suggest %+v", other, env.Suggest)
		}
	}
	if listed[`App\C2::run`] {
		t.Errorf("the answered definition is also suggested: %+v", env.Suggest)
	}

	// nothing matches: not found, with the closest names where a part of
	// the name matches, and a fuzzy symbol search as the next call always
	for _, c := range []struct{ qname, want string }{
		{`App\\C9::run`, `C0::run`},
		{`helpr`, `"fuzzy":true`},
	} {
		env := call(t, s, "references", `{"qname":"`+c.qname+`"}`)
		if !env.NotFound {
			t.Fatalf("%s: found %s", c.qname, targetOf(t, env))
		}
		b, err := json.Marshal(env.Suggest)
		must(t, err)
		if !strings.Contains(string(b), c.want) {
			t.Errorf("%s: suggest %s lacks %s", c.qname, b, c.want)
		}
	}
}
