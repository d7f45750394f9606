package typ

import (
	"errors"
	"reflect"
	"testing"
)

// TestTypesAreValues_Build: descriptors built from values have the text the
// cache stores, and the text reads back as the same value.
func TestTypesAreValues_Build(t *testing.T) {
	a, b := NewClass(`\App\A`), NewClass("App\\B")
	for _, tc := range []struct {
		name string
		d    Desc
		want string
	}{
		{"unknown", Desc{}, ""},
		{"class", a, `\App\A`},
		{"array of", a.ArrayOf().ArrayOf(), `\App\A[][]`},
		{"array of a step is unknown", a.Then(Step{Kind: Method, Name: "m"}).ArrayOf(), ""},
		{"static", NewStatic().Then(Step{Kind: Prop, Name: "p"}), `static->p`},
		{"function", NewFunc(`\ns\f`, `\f`).Then(Step{Kind: Elem}), `@\ns\f,\f*`},
		{"global", NewGlobal("wpdb").Then(Step{Kind: Method, Name: "get_row"}), `$wpdb->get_row()`},
		{"static steps", a.Then(Step{Kind: StaticMethod, Name: "make"}).Then(Step{Kind: StaticProp, Name: "x"}), `\App\A::make()::$x`},
		{"union drops duplicates", Union(Union(a, b), a), `\App\A|\App\B`},
		{"join keeps them", Join(a, b, a), `\App\A|\App\B|\App\A`},
		{"either", Either(a, b), `(!\App\A|\App\B)`},
		{"either of equals", Either(a, a), `\App\A`},
		{"either of unknown", Either(a, Desc{}), ""},
		{"step on several groups them", Union(a, b).Then(Step{Kind: Method, Name: "m"}).Then(Step{Kind: Prop, Name: "p"}), `((\App\A|\App\B)->m())->p`},
		{"step on unknown", Desc{}.Then(Step{Kind: Elem}), ""},
		{"bad name", NewClass("A|B"), ""},
		{"bad step name", a.Then(Step{Kind: Prop, Name: "x->y"}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.String(); got != tc.want {
				t.Fatalf("String() = %q, want %q", got, tc.want)
			}
			back, err := Parse(tc.want)
			if err != nil || !back.Equal(tc.d) || back.Known() != tc.d.Known() {
				t.Fatalf("Parse(%q) = %q, %v", tc.want, back, err)
			}
		})
	}
}

// TestTypesAreValues_Structure: the parts of a parsed descriptor are typed.
func TestTypesAreValues_Structure(t *testing.T) {
	d := MustParse(`(!\A[]|$g)->m()*|@\f`)
	if len(d.Alts()) != 2 {
		t.Fatalf("alts = %d", len(d.Alts()))
	}
	g := d.Alts()[0].Base()
	if g.Kind != Group || !g.Strict || len(g.Group.Alts()) != 2 {
		t.Fatalf("group = %+v", g)
	}
	if c := g.Group.Alts()[0].Base(); c.Kind != Class || c.Name != "A" || c.Dims != 1 {
		t.Fatalf("class = %+v", c)
	}
	if st := d.Alts()[0].Steps(); len(st) != 2 || st[0] != (Step{Kind: Method, Name: "m"}) || st[1].Kind != Elem {
		t.Fatalf("steps = %+v", st)
	}
	if f := d.Alts()[1].Base(); f.Kind != Func || len(f.Funcs) != 1 || f.Funcs[0] != "f" {
		t.Fatalf("func = %+v", f)
	}
}

func TestTypesAreValues_ParseRejects(t *testing.T) {
	for _, s := range []string{"|", `\`, `\A|`, `(\A`, `\A)`, "static[]", `@f`, `\A->`, `\A::m`, "()", `\A[`, "x"} {
		if d, err := Parse(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %q, %v; want a syntax error", s, d, err)
		}
	}
}

// FuzzParse: whatever Parse accepts prints to a text that reads back as the
// same descriptor, and printing is stable.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", `\A`, `\A\B[][]->m()::$p*`, `static::make()`, `@\ns\f,\f`, `$wpdb->prefix`,
		`(!\A|(\B|\C)->x)*|$g`, `((!\A|\B))->m()`, "(", `\A|`, "static->p()->q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		if d.Known() != (s != "") {
			t.Fatalf("Parse(%q) known = %v", s, d.Known())
		}
		back, err := Parse(d.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, d.String(), err)
		}
		if d.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, d.String())
		}
		if !back.Equal(d) || !reflect.DeepEqual(back, d) {
			t.Fatalf("round trip of %q: %q then %q", s, d.String(), back.String())
		}
	})
}
