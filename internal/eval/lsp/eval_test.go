package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// The test binary doubles as a small language server when this variable is
// set: TestMain serves LSP over stdio instead of running tests.
const fakeServerEnv = "RAGRAF_FAKE_LSP"

func TestMain(m *testing.M) {
	if os.Getenv(fakeServerEnv) != "" {
		fakeServer(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer answers from the text of the project's files, with three
// planted faults the test knows: it never sees uses in c.php (references),
// it answers no definition for a position in b.php, and its first answer to
// a references request lists only the first location, as intelephense's
// first answer may list only part of what the same request gives again.
func fakeServer(in io.Reader, out io.Writer) {
	asked := map[string]bool{}
	r := bufio.NewReader(in)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	var root string
	for {
		body, err := readFrame(r)
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(body, &m)
		var p struct {
			RootPath     string `json:"rootPath"`
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Position struct {
				Line      int `json:"line"`
				Character int `json:"character"`
			} `json:"position"`
		}
		_ = json.Unmarshal(m.Params, &p)
		var result any
		switch m.Method {
		case "initialize":
			root = p.RootPath
			result = map[string]any{"capabilities": map[string]any{}}
		case "initialized":
			send(map[string]any{"jsonrpc": "2.0", "method": "indexingEnded"})
			continue
		case "textDocument/references", "textDocument/definition":
			path := uriPath(p.TextDocument.URI)
			name := identAt(path, p.Position.Line, p.Position.Character)
			if m.Method == "textDocument/references" {
				refs := fakeRefs(root, name)
				if key := string(m.Params); !asked[key] && len(refs) > 1 {
					asked[key] = true
					refs = refs[:1]
				}
				result = refs
			} else if !strings.HasSuffix(path, "b.php") {
				result = fakeDef(root, name)
			}
		case "shutdown":
		default:
			if m.ID == nil {
				continue
			}
		}
		if m.ID != nil {
			res, _ := json.Marshal(result)
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": json.RawMessage(res)})
		}
	}
}

func uriPath(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return pu.Path
}

func identAt(path string, line, char int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if line >= len(lines) || char > len(lines[line]) {
		return ""
	}
	l := lines[line]
	start, end := char, char
	for start > 0 && isIdent(l[start-1]) {
		start--
	}
	for end < len(l) && isIdent(l[end]) {
		end++
	}
	return l[start:end]
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type fakeLoc struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"start"`
		End struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"end"`
	} `json:"range"`
}

// scan finds lines matching re in the project's PHP files, c.php left out
// when skipC is set.
func scan(root string, re *regexp.Regexp, skipC bool) []fakeLoc {
	var out []fakeLoc
	paths, _ := filepath.Glob(filepath.Join(root, "*.php"))
	for _, p := range paths {
		f := filepath.Base(p)
		if skipC && f == "c.php" {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(root, f))
		for i, l := range strings.Split(string(b), "\n") {
			for _, ix := range re.FindAllStringIndex(l, -1) {
				var loc fakeLoc
				loc.URI = "file://" + filepath.Join(root, f)
				loc.Range.Start.Line, loc.Range.Start.Character = i, ix[0]
				loc.Range.End.Line, loc.Range.End.Character = i, ix[1]
				out = append(out, loc)
			}
		}
	}
	return out
}

func fakeRefs(root, name string) []fakeLoc {
	if name == "" {
		return nil
	}
	// calls on variables are seen, except on $db: like real servers, this
	// one does not type global variables
	locs := scan(root, regexp.MustCompile(`(?:^|[^\w$>:]|return |\$\w+->)`+regexp.QuoteMeta(name)+`\(`), true)
	out := locs[:0]
	for _, l := range locs {
		b, _ := os.ReadFile(uriPath(l.URI))
		line := strings.Split(string(b), "\n")[l.Range.Start.Line][:l.Range.End.Character]
		if !strings.HasSuffix(line, "$db->"+name+"(") && !strings.HasSuffix(line, "function "+name+"(") {
			out = append(out, l)
		}
	}
	// like intelephense, the use statements that import the name
	out = append(out, scan(root, regexp.MustCompile(`^use \\?`+regexp.QuoteMeta(name)+`[ ;]`), true)...)
	// and, like intelephense, a hook name equal to a function's name
	return append(out, scan(root, regexp.MustCompile(`apply_filters\( *'`+regexp.QuoteMeta(name)+`'`), true)...)
}

func fakeDef(root, name string) []fakeLoc {
	if name == "" {
		return nil
	}
	return scan(root, regexp.MustCompile(`function `+regexp.QuoteMeta(name)+`\(`), false)
}

// buildProject writes files into a new project directory, indexes it and
// returns the directory.
func buildProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	return root
}

// openIndexed opens the current graph store of an indexed project and
// returns it with a lookup of the one node of a qualified name.
func openIndexed(t *testing.T, root string) (*graph.Store, func(q string) fact.Node) {
	t.Helper()
	ctx := context.Background()
	name, err := rev.Layout{Root: root}.CurrentRev()
	if err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(ctx, filepath.Join(rev.Layout{Root: root}.Rev(name), rev.GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, func(q string) fact.Node {
		ns, err := st.NodesByQName(ctx, q)
		if err != nil || len(ns) != 1 {
			t.Fatalf("%s: %v %v", q, ns, err)
		}
		return ns[0]
	}
}

// TestFT3_EvalLSP runs `eval lsp` against the fake server on a project whose
// answers are known: ragraf and the server agree everywhere but on the
// planted faults, which must show up as exactly the counted disagreements.
func TestFT3_EvalLSP(t *testing.T) {
	root := buildProject(t, map[string]string{
		"a.php": "<?php\nfunction alpha() { return 1; }\nfunction beta() { return alpha(); }\n",
		"b.php": "<?php\nfunction gamma() { return alpha() + beta(); }\n",
		"c.php": "<?php\nfunction delta() { return gamma(); }\n",
	})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Server: fakeServerEnv + "=1 " + exe, Corpus: root, Sample: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// the server reports indexingEnded: its indexing time is measured
	if rep.ServerIndexSeconds <= 0 || rep.ServerIndexSeconds > 60 {
		t.Errorf("server index time %v s", rep.ServerIndexSeconds)
	}
	s := rep.Total
	// uses: alpha a.php:3 and b.php:2, beta b.php:2, gamma c.php:2; the server
	// never sees c.php, so gamma's use is ragraf's only
	if s.Symbols != 4 || s.Ragraf != 4 || s.Server != 3 || s.Agree != 3 {
		t.Fatalf("refs: %+v", s)
	}
	if s.Precision != 0.75 || s.Recall != 1 {
		t.Errorf("precision %v recall %v, want 0.75 and 1", s.Precision, s.Recall)
	}
	// the server's first answer for alpha lists one of its two uses; the
	// request is repeated until the answer stops growing
	if s.Regrown != 1 {
		t.Errorf("%d answers grew when asked again, want 1 (alpha's)", s.Regrown)
	}
	// definitions asked at alpha's a.php:3 and b.php:2, beta's b.php:2 and
	// gamma's c.php:2; the server is silent in b.php
	if s.DefAsked != 4 || s.DefAgree != 2 || s.DefSilent != 2 || s.DefAgreeing != 0.5 || s.DefAnswered != 1 {
		t.Errorf("definitions: %+v", s)
	}
	extra, defs := 0, 0
	for _, d := range rep.Disagreements {
		switch d.What {
		case "extra":
			extra++
			if d.Path != "c.php" || d.Symbol != "gamma" {
				t.Errorf("extra %+v, want gamma's use in c.php", d)
			}
		case "definition":
			defs++
		default:
			t.Errorf("unexpected disagreement %+v", d)
		}
	}
	if extra != 1 || defs != 2 {
		t.Errorf("%d extra and %d definition disagreements, want 1 and 2", extra, defs)
	}
}

// TestFT3_EvalLSPCauses: an extra whose call is typed through a global
// variable and a server-only site where ragraf holds a heuristic edge are
// counted and explained as such.
func TestFT3_EvalLSPCauses(t *testing.T) {
	root := buildProject(t, map[string]string{
		"a.php": "<?php\nclass Db { public function query() { return 1; } }\n$db = new Db();\n",
		"b.php": "<?php\n/**\n * @global Db $db\n */\nfunction run() { global $db; return $db->query(); }\nfunction guess($x) { return $x->query(); }\n" +
			"function viaMixin(Outer $o) { return $o->inner(); }\n",
		"d.php": "<?php\nfunction hook() { return apply_filters('guess', 1); }\n",
		"e.php": "<?php\nuse Db as Store;\n\nfunction make() { return new Store(); }\n",
		"c.php": "<?php\nuse Db as Conn;\n\nfunction conn() { return new Conn(); }\n",
		"g.php": "<?php\nif (function_exists('guess')) { echo 1; }\n",
		"h.php": "<?php\nclass Db2\n{\n    public static function make() { return new self(); }\n    const LIMIT = 1;\n" +
			"    /** @param self::LIMIT $x */\n    public static function lim($x) { return $x; }\n}\n",
		"i.php": "<?php\nclass Inner { public function inner() {} }\n/** @mixin Inner */\nclass Outer {}\nfunction useit(Outer $db) { $db->inner(); }\n",
		"f.php": "<?php\nclass Cache { public function put() {} }\nclass Base { public function m() {} }\n" +
			"class Child extends Base { public function m() { parent::m(); } }\n" +
			"class Holder { private $c; public function __construct() { $this->c = new Cache(); } public function go() { $this->c->put(); } }\n",
	})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Server: fakeServerEnv + "=1 " + exe, Corpus: root, Symbols: []string{"Db::query", "Db", "guess", "Child::m", "Cache::put", "Db2", "Inner::inner", "Db2::LIMIT"}})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Total
	// Db: `new Db()` in a.php, seen by both, and the @global tag in b.php:3,
	// ragraf's only and unexplained; Db::query: the global call in
	// b.php:5 is ragraf's only, the guessed call in b.php:6 the server's
	// only; guess: the hook name in d.php:2 is the server's only; Db under
	// its alias in e.php:4 is found by asking the server at the alias in the
	// use statement e.php:2, which it lists; the same alias in c.php, where
	// this server sees nothing, is ragraf's only, use statement too; Child::m: `parent::m()` in f.php:4 is a
	// use of Base::m, in its family, unseen by this server; Cache::put: the
	// call on the untyped property $c in f.php:5, unseen too; guess named
	// by function_exists in g.php:2, a reference to ragraf only
	// `new self()` in h.php:4 is Db2 under another name, ragraf's only
	// `$db->inner()` in i.php:5 is found through Outer's @mixin, ragraf's
	// only; `$o->inner()` in b.php:7 too, listed by the server, which is
	// silent when asked for its definition there
	// `self::LIMIT` in h.php:6, a PHPDoc type, is Db2::LIMIT, ragraf's only
	if s.Symbols != 8 || s.Ragraf != 14 || s.ExtraMixin != 1 || s.Server != 6 || s.Agree != 4 || s.ExtraGlobal != 1 || s.ExtraAlias != 3 ||
		s.ExtraFamily != 1 || s.ExtraAssigned != 1 || s.ExtraString != 1 || s.MissingHeuristic != 1 || s.MissingString != 1 || s.AliasAsked != 1 {
		t.Fatalf("refs: %+v", s)
	}
	if s.PrecisionExplained != 4.0/6 || s.RecallCode != 0.8 {
		t.Errorf("precision without explained extras %v, recall without strings %v; want 4/6 and 0.8", s.PrecisionExplained, s.RecallCode)
	}
	causes := map[string]string{}
	silent, docDef := map[int]string{}, ""
	for _, d := range rep.Disagreements {
		if d.What != "definition" {
			causes[fmt.Sprintf("%s %s:%d", d.What, d.Path, d.Line)] = d.Cause
		} else if d.Path == "b.php" {
			silent[d.Line] = d.Cause
		} else if d.Path == "h.php" && d.Line == 6 {
			docDef = d.Cause
		}
	}
	// nor does it answer a definition at self::LIMIT in the PHPDoc type
	if !strings.Contains(docDef, "self::LIMIT in a PHPDoc type") {
		t.Errorf("definition at h.php:6 explained as %q", docDef)
	}
	// this server is silent in b.php, where the @global tag names Db (no
	// cause known), one call is on a global and one found through a @mixin
	if c, ok := silent[3]; len(silent) != 3 || !ok || c != "" || !strings.Contains(silent[5], "global $db") || !strings.Contains(silent[7], "@mixin") {
		t.Errorf("definition disagreements in b.php by line: %v; want line 3 unexplained, 5 explained by global $db and 7 by @mixin", silent)
	}
	// each planted site and what its explanation must say ("" for none)
	want := map[string]string{
		"extra b.php:5":   "global $db",
		"missing b.php:6": "heuristic",
		"missing d.php:2": "string literal",
		"extra c.php:4":   "alias Conn",
		"extra c.php:2":   "", // the use statement: this server does not see c.php
		"extra f.php:4":   "use of Base::m",
		"extra f.php:5":   "property ->c",
		"extra g.php:2":   "string literal",
		"extra h.php:4":   "self or static",
		"extra h.php:6":   "self::LIMIT in a PHPDoc type",
		"extra i.php:5":   "@mixin",
		"extra b.php:3":   "", // the @global tag names Db
	}
	for site, w := range want {
		c, ok := causes[site]
		if !ok || w == "" && c != "" || !strings.Contains(c, w) {
			t.Errorf("%s: present %v, explained as %q; want %q", site, ok, c, w)
		}
	}
	if len(causes) != len(want) {
		t.Errorf("disagreements %v, want the %d planted", causes, len(want))
	}
	var out strings.Builder
	rep.Write(&out)
	if !strings.Contains(out.String(), "because: receiver is global $db") {
		t.Errorf("text report does not give the cause:\n%s", out.String())
	}
	if _, err := Run(context.Background(), Options{Server: fakeServerEnv + "=1 " + exe, Corpus: root, Symbols: []string{"Nope"}}); err == nil {
		t.Error("an unknown --symbol was accepted")
	}
}

// TestAliasColumn: the alias a use statement gives a name is found in each
// form of the statement, and nothing else passes for one.
func TestAliasColumn(t *testing.T) {
	for _, c := range []struct {
		text, qname, alias string
	}{
		{`use A\B as C;`, `A\B`, "C"},
		{`use \A\B as C;`, `A\B`, "C"},
		{`  USE a\b AS Cee;`, `A\B`, "Cee"},
		{`use function a\b as c;`, `a\b`, "c"},
		{`use const A\LIMIT as L;`, `A\LIMIT`, "L"},
		{`use A\X as Y, A\B as C;`, `A\B`, "C"},
		{`use A\B as B2, A\Bee as C;`, `A\B`, "B2"},
		{`use A\{X, B as C};`, `A\B`, "C"},
		{`use function A\{x, b as c};`, `A\b`, "c"},
		{`use A\{X, B as C};`, `B`, ""}, // the group imports A\B, not B
		{`use X\A\B as C;`, `A\B`, ""},  // another class whose name ends the same
		{`use A\B;`, `A\B`, ""},
		{`useful A\B as C;`, `A\B`, ""},
		{`$x = A\B as C;`, `A\B`, ""},
	} {
		col := aliasColumn(c.text, c.qname)
		got := ""
		if col >= 0 {
			got = c.text[col : col+len(c.alias)]
			if col+len(c.alias) < len(c.text) && wordByte(c.text[col+len(c.alias)]) {
				got = "longer than " + got
			}
		}
		if got != c.alias {
			t.Errorf("aliasColumn(%q, %q) finds %q, want %q", c.text, c.qname, got, c.alias)
		}
	}
}

// TestUseIndexSkipsDeclaredNames: definitions are asked at the use of a
// name, never at a declaration of the same name on the line.
func TestUseIndexSkipsDeclaredNames(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       int
	}{
		{`class NaviForm extends \PhpMyAdmin\Config\Forms\User\NaviForm`, "NaviForm", 53},
		{`class Pdf extends PdfLib`, "Pdf", -1},
		{`$pdf = new Pdf();`, "Pdf", 11},
		{`function foo() { return foo(); }`, "foo", 24},
		{`const LIMIT = self::LIMIT;`, "LIMIT", 20},
	} {
		if got := useIndex(c.text, c.name); got != c.want {
			t.Errorf("useIndex(%q, %q) = %d, want %d", c.text, c.name, got, c.want)
		}
	}
}

// TestUsePositionPicksTheUse: a method's use is a call, a property's is not,
// and a constant's name is matched with its case.
func TestUsePositionPicksTheUse(t *testing.T) {
	m := fact.Node{Kind: fact.Method, Name: "active_callback"}
	p := fact.Node{Kind: fact.Property, Name: "active_callback"}
	c := fact.Node{Kind: fact.Constant, Name: "FORCE_SSL_ADMIN"}
	for _, tc := range []struct {
		text string
		n    fact.Node
		want int
	}{
		{`$this->active_callback = array( $this, 'active_callback' );`, m, -1},
		{`$this->active_callback = $this->active_callback();`, m, 32},
		{`$this->active_callback = $this->active_callback();`, p, 7},
		{`force_ssl_admin( FORCE_SSL_ADMIN );`, c, -1},
	} {
		if got := memberIndex(tc.text, tc.n); got != tc.want {
			t.Errorf("memberIndex(%q, %s) = %d, want %d", tc.text, tc.n.Kind, got, tc.want)
		}
	}
	if got := caseIndex(`force_ssl_admin( FORCE_SSL_ADMIN );`, "FORCE_SSL_ADMIN"); got != 17 {
		t.Errorf("caseIndex = %d, want 17", got)
	}
	if got := caseIndex(`XFORCE_SSL_ADMIN`, "FORCE_SSL_ADMIN"); got != -1 {
		t.Errorf("caseIndex inside a longer name = %d", got)
	}
}

// TestDeclPositionOfDefine: a constant declared by define() is asked at the
// name define() is given, not at a defined() check before it on the line.
func TestDeclPositionOfDefine(t *testing.T) {
	e := &evaluator{files: map[string][]string{"a.php": {
		`<?php`,
		`if(!defined("FTP_AUTOASCII")) define("FTP_AUTOASCII", -1);`,
		`define ('LIMIT', 10); // LIMIT`,
		`const LIMIT2 = 1;`,
	}}}
	for _, c := range []struct {
		n    fact.Node
		want int // character, -1 for none
	}{
		{fact.Node{Kind: fact.Constant, Name: "FTP_AUTOASCII", Path: "a.php", StartLine: 2, EndLine: 2, Props: map[string]string{"define": "true"}}, 38},
		{fact.Node{Kind: fact.Constant, Name: "LIMIT", Path: "a.php", StartLine: 3, EndLine: 3, Props: map[string]string{"define": "true"}}, 9},
		{fact.Node{Kind: fact.Constant, Name: "LIMIT2", Path: "a.php", StartLine: 4, EndLine: 4}, 6},
		{fact.Node{Kind: fact.Constant, Name: "LIMIT2", Path: "a.php", StartLine: 4, EndLine: 4, Props: map[string]string{"define": "true"}}, -1},
	} {
		pos, ok := e.declPosition(c.n)
		got := -1
		if ok {
			got = pos.Character
		}
		if got != c.want {
			t.Errorf("declPosition(%s) = %d, want %d", c.n.Name, got, c.want)
		}
	}
}

// TestBuiltinInterfaceFamily: methods implementing the same method of one of
// PHP's own interfaces belong to one family, through parents too; a method of
// the same name elsewhere does not.
func TestBuiltinInterfaceFamily(t *testing.T) {
	access := "    public function offsetExists($o): bool { return true; }\n    public function offsetGet($o): mixed { return null; }\n" +
		"    public function offsetSet($o, $v): void {}\n    public function offsetUnset($o): void {}\n"
	root := buildProject(t, map[string]string{
		"a.php": "<?php\nnamespace App;\n\nclass A implements \\ArrayAccess\n{\n" + access + "}\n",
		"b.php": "<?php\nnamespace App;\n\nuse ArrayAccess;\n\nabstract class Base implements ArrayAccess\n{\n}\n\nclass B extends Base\n{\n" + access + "}\n",
		"c.php": "<?php\nnamespace App;\n\nclass C\n{\n    public function offsetGet($o) { return $o; }\n}\n",
	})
	ctx := context.Background()
	st, byQName := openIndexed(t, root)
	e := &evaluator{st: st}
	sibs, err := e.builtinSiblings(ctx, byQName(`App\A::offsetGet`))
	if err != nil {
		t.Fatal(err)
	}
	if want := byQName(`App\B::offsetGet`).ID; len(sibs) != 1 || sibs[0] != want {
		t.Errorf("siblings of A::offsetGet = %v, want only B::offsetGet (%s)", sibs, want)
	}
	if sibs, _ := e.builtinSiblings(ctx, byQName(`App\C::offsetGet`)); len(sibs) != 0 {
		t.Errorf("C implements nothing, yet has siblings %v", sibs)
	}
}

// TestOverrideFamily: a method's family is its component in the overrides
// graph: what it implements, what overrides it, and the siblings joined
// through them; a method of the same name outside the hierarchy is not in it.
// With --family chain it is what the method overrides and what overrides it.
func TestOverrideFamily(t *testing.T) {
	root := buildProject(t, map[string]string{"a.php": "<?php\nnamespace App;\n\ninterface I { public function m(); }\n" +
		"class B implements I { public function m() {} }\nclass C implements I { public function m() {} }\n" +
		"class D extends B { public function m() {} }\nclass E { public function m() {} }\n"})
	ctx := context.Background()
	st, byQName := openIndexed(t, root)
	id := func(q string) string { return byQName(q).ID }
	e := &evaluator{st: st}
	got, _, err := e.family(ctx, id(`App\D::m`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{id(`App\I::m`), id(`App\B::m`), id(`App\C::m`), id(`App\D::m`)}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("family of D::m = %v, want %v", got, want)
	}
	// the chain: what D::m overrides and what overrides it, not the sibling C::m
	e = &evaluator{st: st, chain: true}
	for _, c := range []struct {
		of   string
		want []string
	}{
		{`App\D::m`, []string{`App\I::m`, `App\B::m`, `App\D::m`}},
		{`App\B::m`, []string{`App\I::m`, `App\B::m`, `App\D::m`}},
		{`App\I::m`, []string{`App\I::m`, `App\B::m`, `App\C::m`, `App\D::m`}},
		{`App\E::m`, []string{`App\E::m`}},
	} {
		got, _, err := e.family(ctx, id(c.of))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, q := range c.want {
			want = append(want, id(q))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("chain of %s = %v, want %v", c.of, got, want)
		}
	}
}

// TestOverrideFamilyTraits: families through traits are what intelephense
// listed for this project (asked at each declaration, 2026-11-30): a trait
// method never leaves the trait upwards; reached through a sibling (also a
// sibling by one of PHP's interfaces) it brings only its uses outside the
// trait; an abstract trait method and the using classes' methods are one
// family.
func TestOverrideFamilyTraits(t *testing.T) {
	root := buildProject(t, map[string]string{
		"a.php": `<?php
interface LP { function lock(); }
trait T {
    function lock() {}
    function restore() { $this->lock(); }
}
class A implements LP {
    use T;
    function r() { $this->lock(); }
}
class B implements LP {
    function lock() {}
    function r2() { $this->lock(); }
}
function f(LP $x) { $x->lock(); }
function g(A $a) { $a->lock(); }
`,
		"c.php": `<?php
interface Enum extends \JsonSerializable { public function jsonSerialize(): mixed; }
trait EV {
    public function jsonSerialize(): mixed { return 1; }
    public function toJson() { return json_encode($this->jsonSerialize()); }
}
class Coll implements Enum { use EV; }
class Pag implements \JsonSerializable {
    public function jsonSerialize(): mixed { return 2; }
    public function go() { return $this->jsonSerialize(); }
}
function f(Coll $c) { return $c->jsonSerialize(); }
function g2(Enum $e) { return $e->jsonSerialize(); }
`,
		"b.php": `<?php
trait Drv {
    abstract function driver();
    function x() { $this->driver(); }
}
class X1 {
    use Drv;
    function driver() {}
}
class X2 {
    use Drv;
    function driver() {}
    function y() { $this->driver(); }
}
`})
	ctx := context.Background()
	st, byQName := openIndexed(t, root)
	e := &evaluator{st: st, ifaces: map[string][]string{}}
	for _, c := range []struct {
		of    string
		lines []string // use sites intelephense lists
	}{
		{`LP::lock`, []string{"a.php:5", "a.php:9", "a.php:13", "a.php:15", "a.php:16"}},
		{`T::lock`, []string{"a.php:5", "a.php:9", "a.php:16"}},
		{`B::lock`, []string{"a.php:9", "a.php:13", "a.php:15", "a.php:16"}},
		{`Drv::driver`, []string{"b.php:4", "b.php:13"}},
		{`X1::driver`, []string{"b.php:4", "b.php:13"}},
		{`X2::driver`, []string{"b.php:4", "b.php:13"}},
		// JsonSerializable's implementations are one family with no node
		// joining them; the trait's method is reached through a sibling
		{`Pag::jsonSerialize`, []string{"c.php:10", "c.php:12", "c.php:13"}},
		{`EV::jsonSerialize`, []string{"c.php:5", "c.php:12"}},
		{`Enum::jsonSerialize`, []string{"c.php:5", "c.php:10", "c.php:12", "c.php:13"}},
	} {
		n := byQName(c.of)
		family, err := e.familyUses(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		own, err := st.UsesOf(ctx, n.ID, string(fact.Calls))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range own {
			got = append(got, fmt.Sprintf("%s:%d", u.Path, u.Line))
		}
		for _, u := range family {
			if u.Kind == string(fact.Calls) {
				got = append(got, fmt.Sprintf("%s:%d", u.Path, u.Line))
			}
		}
		slices.Sort(got)
		want := slices.Clone(c.lines)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("uses of the family of %s = %v, want %v", c.of, got, want)
		}
	}
}

// TestOnlyInStrings: a name counts as only in strings when every occurrence
// as a word is inside a string literal; for a function, a member of the same
// name (`$this->app`) is neither.
func TestOnlyInStrings(t *testing.T) {
	for _, c := range []struct {
		text, name string
		member     bool
		want       bool
	}{
		{`$app->make('config');`, "config", false, true},
		{`$config = config('app');`, "config", false, false},
		{`$config = $this->app->make('config')->get('app');`, "app", false, true},
		{`$this->app->make('config');`, "app", false, false},
		{`$this->app->make('config');`, "app", true, false},
		{`array( $this, 'render' )`, "render", true, true},
		{`$this->render();`, "render", true, false},
		{`return 1;`, "render", false, false},
	} {
		if got := onlyInStrings(c.text, c.name, c.member); got != c.want {
			t.Errorf("onlyInStrings(%q, %q, member %v) = %v, want %v", c.text, c.name, c.member, got, c.want)
		}
	}
}

// TestInString: a use inside a string literal (a hook name that contains the
// method's name) is not a place to ask for a definition.
func TestInString(t *testing.T) {
	line := `$hooks->register('requests.before_redirect_check', array($this, 'before_redirect_check'));`
	if i := strings.Index(line, "before_redirect_check"); !inString(line, i) {
		t.Errorf("column %d of %q: not in a string", i, line)
	}
	if i := strings.Index(line, "register"); inString(line, i) {
		t.Errorf("column %d of %q: in a string", i, line)
	}
	if i := strings.Index(`$a = "it\"s"; foo();`, "foo"); inString(`$a = "it\"s"; foo();`, i) {
		t.Error("an escaped quote ended the string")
	}
}

// TestSampleIsStable: the sample is the lowest hashes under the seed, so a
// declaration added to the index leaves the rest of the sample as it was,
// and another seed draws another sample.
func TestSampleIsStable(t *testing.T) {
	var nodes []fact.Node
	for i := range 1000 {
		nodes = append(nodes, fact.Node{ID: fmt.Sprintf("n%04d", i)})
	}
	ids := func(ns []fact.Node) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return out
	}
	a := ids(bottomK(slices.Clone(nodes), 50, 1))
	grown := append(slices.Clone(nodes), fact.Node{ID: "added"})
	b := ids(bottomK(grown, 50, 1))
	kept := 0
	for _, id := range b {
		if slices.Contains(a, id) {
			kept++
		}
	}
	if kept < 49 {
		t.Errorf("adding one node kept %d of 50 sampled ids", kept)
	}
	if c := ids(bottomK(slices.Clone(nodes), 50, 2)); slices.Equal(a, c) {
		t.Error("seeds 1 and 2 draw the same sample")
	}
	if len(a) != 50 || len(ids(bottomK(slices.Clone(nodes[:10]), 50, 1))) != 10 {
		t.Error("sample sizes")
	}
}
