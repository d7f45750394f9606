package facade

import (
	"context"
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

// TestFT27_EveryTargetTakingOperationResolvesAlike: code, context, impact and
// supertypes take the same target as references (a Class::method short
// name, path:line, a qualified name), list the other definitions of an
// ambiguous name and answer an unknown name with the closest names.
func TestFT27_EveryTargetTakingOperationResolvesAlike(t *testing.T) {
	s := shop(t)
	// answered is the qualified name of the definition the answer is about.
	answered := func(env *Envelope) string {
		b, err := json.Marshal(env.Result)
		must(t, err)
		var r struct {
			Symbol  *Symbol  `json:"symbol"`
			Target  *Symbol  `json:"target"`
			Targets []Symbol `json:"targets"`
		}
		must(t, json.Unmarshal(b, &r))
		switch {
		case r.Symbol != nil:
			return r.Symbol.QName
		case r.Target != nil:
			return r.Target.QName
		case len(r.Targets) > 0:
			return r.Targets[0].QName
		}
		return ""
	}
	// supertypes is no operation of its own (the web view calls it)
	call := func(t *testing.T, s *Service, op, args string) *Envelope {
		t.Helper()
		if op != "supertypes" {
			return call(t, s, op, args)
		}
		var a SupertypesArgs
		must(t, json.Unmarshal([]byte(args), &a))
		env, err := s.Supertypes(context.Background(), a)
		must(t, err)
		return env
	}
	const add = `Shop\Cart\Cart::add`
	for _, op := range []string{"code", "context", "impact", "supertypes"} {
		for _, c := range []struct{ qname, want string }{
			{`Cart::add`, add},
			{`src/Cart/Cart.php:47`, add},
			{`Shop\\Cart\\Cart::add`, add},
			{`Cart`, `Shop\Cart\Cart`},
		} {
			env := call(t, s, op, `{"qname":"`+c.qname+`"}`)
			if got := answered(env); got != c.want {
				t.Errorf("%s %s: answered %q, want %q", op, c.qname, got, c.want)
			}
		}
		// add is defined by Cart, Money, Router and CartController: one is
		// answered, the others are listed with the arguments that select them
		env := call(t, s, op, `{"qname":"add","near":"src/Money/Money.php"}`)
		if got := answered(env); got != `Shop\Money\Money::add` {
			t.Errorf("%s add near Money.php: answered %q", op, got)
		}
		listed := map[string]bool{}
		for _, sg := range env.Suggest {
			if q, ok := sg.Args["qname"].(string); ok {
				listed[q] = true
			}
		}
		if !listed[add] {
			t.Errorf("%s add: %s not listed; suggest %+v", op, add, env.Suggest)
		}
		// an unknown name: not found, with a close name to call next
		env = call(t, s, op, `{"qname":"Cart::addd"}`)
		if !env.NotFound || answered(env) != "" {
			t.Errorf("%s Cart::addd: not_found %v, answered %q", op, env.NotFound, answered(env))
		}
		b, err := json.Marshal(env.Suggest)
		must(t, err)
		if !strings.Contains(string(b), `"fuzzy":true`) {
			t.Errorf("%s Cart::addd: no fuzzy symbol search suggested: %s", op, b)
		}
	}
}
