package all

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/resolve"
)

// resolveFiles reads files (path → source) with language l's front end and
// links their references; the edges come back as "kind from-qname to-qname
// provenance".
func resolveFiles(t *testing.T, l string, files map[string]string) map[string]bool {
	t.Helper()
	p, err := Registry()[l].New(lang.Options{ChunkTokens: 512, MaxFileWork: 20000000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var in resolve.Input
	in.Lang = l
	for path, src := range files {
		f, err := p.File(context.Background(), path, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		in.Nodes = append(in.Nodes, fact.Node{ID: fact.FileNodeID(path), Kind: fact.File, Name: path, QName: path, Path: path, Lang: l})
		for _, n := range f.Nodes {
			if n.Parent == "" { // the build's rule: a top-level declaration's parent is its file
				n.Parent = fact.FileNodeID(path)
			}
			in.Nodes = append(in.Nodes, n)
		}
		in.Refs = append(in.Refs, f.Refs...)
	}
	out, err := resolve.Resolve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	name := map[string]string{}
	for _, n := range in.Nodes {
		name[n.ID] = n.QName
	}
	got := map[string]bool{}
	for _, e := range out.Edges {
		got[fmt.Sprintf("%s %s %s %s", e.Kind, name[e.From], name[e.To], e.Provenance)] = true
	}
	return got
}

func mustLink(t *testing.T, got map[string]bool, want ...string) {
	t.Helper()
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing %q in %v", w, got)
		}
	}
}

// TestLanguages_JavaCSharpImportsStated: a Java import (`import a.b.C;`,
// `import a.b.*;`) or C# using (`using A.B;`, `using C = A.B.C;`) and the
// file's own package or namespace make a type name stated to the
// declaration in that package; a name declared in two packages goes to the
// one the file imports, a bare call to the enclosing class's method and
// `Type.m()` to the type's method.
func TestLanguages_JavaCSharpImportsStated(t *testing.T) {
	t.Run("java", func(t *testing.T) {
		got := resolveFiles(t, "java", map[string]string{
			"src/com/shop/model/Cart.java":   "package com.shop.model;\n\npublic class Cart {\n  public static Cart empty() { return new Cart(); }\n  public int total() { return 0; }\n}\n",
			"src/com/shop/model/Item.java":   "package com.shop.model;\n\npublic class Item extends Base {\n}\n",
			"src/com/shop/model/Base.java":   "package com.shop.model;\n\npublic class Base {\n}\n",
			"src/com/other/Cart.java":        "package com.other;\n\npublic class Cart {\n  public int total() { return 1; }\n}\n",
			"src/com/shop/util/Unused.java":  "package com.shop.util;\n\npublic class Unused {\n}\n",
			"src/com/shop/util/Money.java":   "package com.shop.util;\n\npublic class Money {\n}\n",
			"src/com/shop/app/Checkout.java": "package com.shop.app;\n\nimport com.shop.model.Cart;\nimport com.shop.util.*;\nimport java.util.List;\n\npublic class Checkout {\n  Money pay(Cart c, List<Item> xs) {\n    Cart e = Cart.empty();\n    e.total();\n    c.total();\n    return sum(c);\n  }\n  Money sum(Cart c) { return new Money(); }\n}\n",
		})
		mustLink(t, got,
			"imports src/com/shop/app/Checkout.java src/com/shop/model/Cart.java stated",
			"imports src/com/shop/app/Checkout.java src/com/shop/util/Money.java stated",
			"references Checkout.pay Cart stated",
			"references Checkout.pay Money stated",
			"calls Checkout.pay Cart.empty stated",
			"calls Checkout.pay Checkout.sum stated",
			"calls Checkout.pay Cart.total stated",
			"instantiates Checkout.sum Money stated",
			"extends Item Base stated",
			"instantiates Cart.empty Cart stated",
		)
		for k := range got {
			if k == "references Checkout.pay Cart derived" {
				t.Errorf("the imported Cart is stated, not matched by name: %v", got)
			}
			if strings.Contains(k, "Unused.java") {
				t.Errorf("a wildcard import links only the files whose names the file uses: %q", k)
			}
		}
	})
	t.Run("csharp", func(t *testing.T) {
		got := resolveFiles(t, "csharp", map[string]string{
			"Model/Cart.cs":   "namespace Shop.Model\n{\n  public class Cart\n  {\n    public static Cart Empty() { return new Cart(); }\n    public int Total() { return 0; }\n  }\n  public class Base { }\n  public class Item : Base { }\n}\n",
			"Other/Cart.cs":   "namespace Shop.Other\n{\n  public class Cart { public int Total() { return 1; } }\n}\n",
			"Util/Money.cs":   "namespace Shop.Util;\n\npublic class Money { }\n",
			"App/Checkout.cs": "using System;\nusing Shop.Model;\nusing M = Shop.Util.Money;\n\nnamespace Shop.App\n{\n  public class Checkout\n  {\n    M Pay(Cart c)\n    {\n      Cart e = Cart.Empty();\n      e.Total();\n      c.Total();\n      return Sum(c);\n    }\n    M Sum(Cart c) { return new M(); }\n  }\n}\n",
		})
		mustLink(t, got,
			"imports App/Checkout.cs Model/Cart.cs stated",
			"imports App/Checkout.cs Util/Money.cs stated",
			"references Shop.App.Checkout.Pay Shop.Model.Cart stated",
			"references Shop.App.Checkout.Pay Money stated",
			"calls Shop.App.Checkout.Pay Shop.Model.Cart.Empty stated",
			"calls Shop.App.Checkout.Pay Shop.App.Checkout.Sum stated",
			"calls Shop.App.Checkout.Pay Shop.Model.Cart.Total stated",
			"instantiates Shop.App.Checkout.Sum Money stated",
			"extends Shop.Model.Item Shop.Model.Base stated",
		)
		for k := range got {
			if k == "references Shop.App.Checkout.Pay Shop.Other.Cart derived" {
				t.Errorf("the imported Cart is stated, not matched by name: %v", got)
			}
		}
	})
}

// TestLanguages_JSVariableTypes: a method call on a variable whose class
// the function states (`const x = new Foo()`, `let`/`var`, TypeScript
// `x: Foo` on a parameter or variable) is a stated call to that class's
// method when the class is imported or declared in the file, not a match
// by name among every method called so.
func TestLanguages_JSVariableTypes(t *testing.T) {
	t.Run("typescript", func(t *testing.T) {
		got := resolveFiles(t, "typescript", map[string]string{
			"web/cart.ts": "export class Cart {\n  add(n: number) {}\n  total() { return 0; }\n}\n",
			"web/run.ts": "import { Cart } from './cart';\n\nclass Other {\n  add() {}\n  total() {}\n}\n\n" +
				"export function run(c: Cart, d?: Cart) {\n  const x = new Cart();\n  x.add(1);\n  c.total();\n  let y: Cart = make();\n  y.add(2);\n  d.total();\n}\n\nfunction make(): Cart { return new Cart(); }\n",
		})
		mustLink(t, got,
			"calls run Cart.add stated",
			"calls run Cart.total stated",
		)
		for k := range got {
			if strings.Contains(k, "run Other.") {
				t.Errorf("a typed receiver's call matched by name: %q", k)
			}
		}
	})
	t.Run("javascript", func(t *testing.T) {
		got := resolveFiles(t, "javascript", map[string]string{
			"lib/shop.js": "class Foo {\n  bar() {}\n}\nclass Baz {\n  bar() {}\n}\n\nfunction f() {\n  var x = new Foo();\n  x.bar();\n}\n\nfunction g() {\n  let x = new Baz();\n  x.bar();\n}\n",
		})
		mustLink(t, got, "calls f Foo.bar stated", "calls g Baz.bar stated")
		for k := range got {
			if k == "calls_heuristic f Baz.bar derived" || k == "calls_heuristic g Foo.bar derived" {
				t.Errorf("a typed receiver's call matched by name: %q", k)
			}
		}
	})
}

// TestLanguages_KotlinParentTypes: the parents a Kotlin class or object
// names after its colon (class X : Y(), Z; Z by d) are its parent class and
// interfaces, so implementations of Z list X.
func TestLanguages_KotlinParentTypes(t *testing.T) {
	got := resolveFiles(t, "kotlin", map[string]string{
		"src/Shape.kt": "interface Shape {\n  fun area(): Double\n}\n",
		"src/Shapes.kt": "interface Named\nopen class Base(val n: Int)\n\n" +
			"class Square(n: Int) : Base(n), Shape, Named {\n  override fun area() = 1.0\n}\n\n" +
			"object Unit : Shape {\n  override fun area() = 0.0\n}\n\nclass Wrapped(s: Shape) : Shape by s\n",
	})
	mustLink(t, got,
		"extends Square Base stated",
		"implements Square Shape derived",
		"implements Square Named stated",
		"implements Unit Shape derived",
		"implements Wrapped Shape derived",
	)
}
