package all

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
)

// extractFile runs the registered front end of language l on testdata/name.
func extractFile(t *testing.T, l, name string) lang.Facts {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	fe, ok := Registry()[l]
	if !ok {
		t.Fatalf("no front end %q", l)
	}
	p, err := fe.New(lang.Options{ChunkTokens: 512, MaxFileWork: 20000000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.File(context.Background(), "src/"+name, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// outline renders the declarations as "kind qname start-end <parent qname>".
func outline(f lang.Facts) []string {
	byID := map[string]string{}
	for _, n := range f.Nodes {
		byID[n.ID] = n.QName
	}
	var out []string
	for _, n := range f.Nodes {
		out = append(out, fmt.Sprintf("%s %s %d-%d <%s>", n.Kind, n.QName, n.StartLine, n.EndLine, byID[n.Parent]))
	}
	return out
}

func refs(f lang.Facts) []string {
	var out []string
	for _, r := range f.Refs {
		s := fmt.Sprintf("%s %s@%d", r.Kind, r.Name, r.Line)
		if r.Qualifier != "" {
			s += " recv=" + r.Qualifier
		}
		if r.Kind == fact.RefImport {
			s += " alt=" + r.Alt
		}
		out = append(out, s)
	}
	return out
}

func docs(f lang.Facts) map[string]string {
	byID := map[string]string{}
	for _, n := range f.Nodes {
		byID[n.ID] = n.QName
	}
	out := map[string]string{}
	for _, c := range f.Chunks {
		out[byID[c.NodeID]] = c.Text
	}
	return out
}

func mustHave(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: missing %q in\n%s", what, w, strings.Join(got, "\n"))
		}
	}
}

// TestLanguages_Definitions: each tree-parsed language gives its declarations
// with exact line ranges and containers (methods below their class, Go
// methods below their receiver type), doc comments as chunks of their
// symbol, imports with the name they bind and calls with their receiver.
func TestLanguages_Definitions(t *testing.T) {
	t.Run("typescript", func(t *testing.T) {
		f := extractFile(t, "typescript", "sample.ts")
		mustHave(t, "outline", outline(f),
			"class Greeter 6-15 <>", "method Greeter.greet 9-13 <Greeter>", "method Greeter.handler 14-14 <Greeter>",
			"interface IGreet 17-17 <>", "method IGreet.greet 17-17 <IGreet>", "enum Color 18-18 <>",
			"function main 21-21 <>", "function arrow 22-22 <>")
		mustHave(t, "refs", refs(f),
			"import h@1 recv=./util alt=helper", "import Def@2 recv=./def alt=default", "import ns@3 recv=../ns alt=*",
			"extends Base@6", "implements IGreet@6", "call h@10", "method_call log@11 recv=this", "new Message@12",
			"method_call run@21 recv=ns", "type Person@9")
		d := docs(f)
		if d["Greeter"] != "Greeter greets." || d["Greeter.greet"] != "greet says hello" || d["main"] != "top level" {
			t.Errorf("docs %v", d)
		}
		if f.Partial {
			t.Errorf("partial: %s", f.Reason)
		}
	})
	t.Run("tsx", func(t *testing.T) {
		f := extractFile(t, "typescript", "sample.tsx")
		mustHave(t, "outline", outline(f), "function Button 3-5 <>")
		mustHave(t, "refs", refs(f), "call useLabel@4")
		if f.Partial {
			t.Errorf("tsx read with the TypeScript grammar: %s", f.Reason)
		}
	})
	t.Run("javascript", func(t *testing.T) {
		f := extractFile(t, "javascript", "sample.js")
		mustHave(t, "outline", outline(f), "class Shape 4-11 <>", "method Shape.area 6-8 <Shape>",
			"function draw 14-16 <>", "function helper 17-17 <>")
		mustHave(t, "refs", refs(f), "import fs@1 recv=fs alt=*", "extends Base@4", "method_call compute@7 recv=this",
			"call helper@15", "method_call readFileSync@15 recv=fs")
		if docs(f)["draw"] != "Draws a shape." {
			t.Errorf("docs %v", docs(f))
		}
	})
	t.Run("python", func(t *testing.T) {
		f := extractFile(t, "python", "sample.py")
		mustHave(t, "outline", outline(f), "class Greeter 6-13 <>", "method Greeter.greet 9-13 <Greeter>",
			"function main 15-17 <>")
		mustHave(t, "refs", refs(f), "import os.path@1 recv=os.path alt=*", "import j@2 recv=json alt=*", "import helper@3 recv=.util alt=helper",
			"import o@3 recv=.util alt=other", "extends Base@6", "call helper@11", "method_call log@12 recv=self",
			"method_call join@16 recv=os.path")
		for _, r := range refs(f) {
			if strings.Contains(r, "Meta") {
				t.Errorf("a keyword argument is no parent class: %s", r)
			}
		}
		if d := docs(f); d["Greeter"] != "Greeter greets." || d["Greeter.greet"] != "say hello" {
			t.Errorf("docstrings %v", d)
		}
	})
	t.Run("go", func(t *testing.T) {
		f := extractFile(t, "go", "sample.go")
		mustHave(t, "outline", outline(f), "class Greeter 9-9 <>", "interface Speaker 12-14 <>",
			"method Speaker.Speak 13-13 <Speaker>", "method Greeter.Greet 19-23 <Greeter>", "function helper 25-25 <>")
		mustHave(t, "refs", refs(f), "import f2@5 recv=github.com/x/y/internal/fact alt=*",
			"method_call Println@20 recv=fmt", "call helper@22", "new Node@22 recv=f2", "type Person@19")
		for _, r := range refs(f) {
			if strings.HasPrefix(r, "type string") || strings.HasPrefix(r, "type int") {
				t.Errorf("a predeclared type is no reference: %s", r)
			}
		}
		if docs(f)["Greeter.Greet"] != "Greet says hello." {
			t.Errorf("docs %v", docs(f))
		}
	})
}

// TestLanguages_Partial: a file with syntax errors keeps what was read and is
// partial with the line of the first error.
func TestLanguages_Partial(t *testing.T) {
	f := extractFile(t, "python", "broken.py")
	if !f.Partial || !strings.Contains(f.Reason, "syntax errors: first at line") {
		t.Fatalf("partial %v %q", f.Partial, f.Reason)
	}
	mustHave(t, "outline", outline(f), "function ok 1-2 <>")
}

// TestLanguages_TestFiles: declarations of test files carry test=true by each
// language's convention.
func TestLanguages_TestFiles(t *testing.T) {
	cases := map[string][]string{
		"go":         {"a_test.go"},
		"python":     {"test_a.py", "a_test.py", "conftest.py"},
		"javascript": {"a.test.js", "a.spec.js", "__tests__/a.js"},
		"typescript": {"a.spec.ts", "a.test.tsx"},
	}
	src := map[string]string{"go": "package a\nfunc F() {}\n", "python": "def f():\n    pass\n",
		"javascript": "function f() {}\n", "typescript": "function f() {}\n"}
	for l, paths := range cases {
		p, err := Registry()[l].New(lang.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range append(paths, "plain.x") {
			f, err := p.File(context.Background(), path, []byte(src[l]))
			if err != nil || len(f.Nodes) != 1 {
				t.Fatalf("%s %s: %v %v", l, path, err, f.Nodes)
			}
			if got, want := f.Nodes[0].Props["test"] == "true", path != "plain.x"; got != want {
				t.Errorf("%s %s: test %v, want %v", l, path, got, want)
			}
		}
		p.Close()
	}
}

// TestLanguages_MoreLanguages: Java, C#, Ruby, Rust, C, C++, Bash, Kotlin,
// Scala and Lua give their declarations with ranges and containers (Rust's
// impl methods and C++'s out-of-class definitions below their type), parent
// types, calls, instantiations and doc comments.
func TestLanguages_MoreLanguages(t *testing.T) {
	cases := []struct {
		lang, file string
		outline    []string
		refs       []string
		doc        [2]string // qname, text
	}{
		{"java", "Sample.java", []string{"class Cart 6-17 <>", "method Cart.Cart 9-9 <Cart>", "method Cart.add 12-16 <Cart>",
			"interface Priced 19-21 <>", "method Priced.price 20-20 <Priced>", "enum Color 23-23 <>"},
			[]string{"extends Base@6", "implements Priced@6", "method_call add@13 recv=items", "call log@14", "new Item@15"},
			[2]string{"Cart.add", "Adds an item."}},
		{"csharp", "Sample.cs", []string{"namespace Shop 3-20 <>", "class Shop.Cart 6-15 <Shop>", "method Shop.Cart.Add 9-14 <Shop.Cart>",
			"interface Shop.IPriced 17-17 <Shop>", "class Shop.Point 18-18 <Shop>", "enum Shop.Color 19-19 <Shop>"},
			[]string{"extends Base@6", "extends IPriced@6", "call Log@11", "new Item@12", "method_call Touch@13 recv=i"},
			[2]string{"Shop.Cart", "<summary>A cart.</summary>"}},
		{"ruby", "sample.rb", []string{"class Cart 2-12 <>", "method Cart.add 4-8 <Cart>", "method Cart.build 10-11 <Cart>",
			"namespace Shop 14-16 <>"},
			[]string{"extends Base@2", "call log@5", "method_call touch@6 recv=item", "new Item@7"},
			[2]string{"Cart", "A cart."}},
		{"rust", "sample.rs", []string{"class Cart 2-4 <>", "trait Priced 6-8 <>", "method Priced.price 7-7 <Priced>",
			"method Cart.add 12-16 <Cart>", "method Cart.price 20-20 <Cart>", "enum Color 23-23 <>", "function helper 25-25 <>"},
			[]string{"call log@14", "method_call new@15 recv=Item", "implements Priced@19"},
			[2]string{"Cart.add", "Adds an item."}},
		{"c", "sample.c", []string{"class point 4-6 <>", "class point_t 8-8 <>", "function add 11-13 <>", "function name 15-15 <>"},
			[]string{"call helper@12"}, [2]string{"add", "Adds two numbers."}},
		{"cpp", "sample.cpp", []string{"namespace shop 1-14 <>", "class shop.Cart 4-8 <shop>", "method shop.Cart.add 6-6 <shop.Cart>",
			"method shop.Cart.price 10-12 <shop.Cart>", "function main 16-19 <>"},
			[]string{"extends Base@4", "call helper@11", "new Cart@17", "method_call add@18 recv=c"},
			[2]string{"shop.Cart", "A cart."}},
		{"bash", "sample.sh", []string{"function build 3-6 <>", "function helper 8-8 <>"},
			[]string{"call helper@5", "call build@9"}, [2]string{"build", "Builds the project."}},
		{"kotlin", "Sample.kt", []string{"class Cart 2-7 <>", "method Cart.add 3-6 <Cart>", "interface Priced 9-11 <>",
			"class Registry 13-13 <>", "function helper 15-15 <>"},
			[]string{"call log@4", "method_call touch@5 recv=i"}, [2]string{"Cart", "A cart."}},
		{"scala", "Sample.scala", []string{"class Cart 2-7 <>", "method Cart.add 3-6 <Cart>", "trait Priced 9-11 <>",
			"class Registry 13-15 <>", "method Registry.helper 14-14 <Registry>"},
			[]string{"extends Base@2", "extends Priced@2", "call log@4", "method_call touch@5 recv=i"}, [2]string{"Cart", "A cart."}},
		{"lua", "sample.lua", []string{"function add 2-4 <>", "method M.build 6-8 <>", "method Cart.price 10-12 <>"},
			[]string{"call helper@3", "call add@7", "method_call total@11 recv=self"}, [2]string{"add", "Adds two numbers."}},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			f := extractFile(t, c.lang, c.file)
			mustHave(t, "outline", outline(f), c.outline...)
			mustHave(t, "refs", refs(f), c.refs...)
			if got := docs(f)[c.doc[0]]; got != c.doc[1] {
				t.Errorf("doc of %s: %q, want %q", c.doc[0], got, c.doc[1])
			}
			if f.Partial {
				t.Errorf("partial: %s", f.Reason)
			}
		})
	}
}
