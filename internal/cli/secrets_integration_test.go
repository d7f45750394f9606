package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/secrets/secretstest"
)

// TestFT39_LiveReadRefusesExcludedFiles runs index and query as real
// processes: live_read and code refuse every file the index excludes with
// E_EXCLUDED, name the rule, and never print the file's content; an indexed
// file's secrets are redacted in both answers as in the index.
func TestFT39_LiveReadRefusesExcludedFiles(t *testing.T) {
	root := writeFiles(t, map[string]string{
		".env":            "DB_PASSWORD=x1-env-canary\n",
		".git/config":     "[remote \"origin\"]\n\turl = https://bob:gitcred-canary@example.com/r.git\n",
		"debug.log":       "log-canary-line\n",
		"build/out.php":   "<?php // gitignored-canary\n",
		".gitignore":      "build/\n",
		"src/Cart.php":    "<?php\nclass Cart {}\n",
		"wp-config.php":   "<?php\ndefine( 'DB_PASSWORD', 'wp-db-canary-77' );\ndefine( 'AUTH_KEY', 'wp-auth-canary-88' );\n$table_prefix = 'wp_';\n",
		"keys/server.pem": "-----BEGIN PRIVATE KEY-----\npem-canary\n-----END PRIVATE KEY-----\n",
	})
	if err := os.Symlink(".env", filepath.Join(root, "env-link.php")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(root, "gitdir")); err != nil {
		t.Fatal(err)
	}
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	canaries := []string{"x1-env-canary", "gitcred-canary", "log-canary-line", "gitignored-canary", "pem-canary",
		"wp-db-canary-77", "wp-auth-canary-88", "SQLite format"}
	noCanary := func(what, out string) {
		t.Helper()
		for _, c := range canaries {
			if strings.Contains(out, c) {
				t.Errorf("%s prints %q:\n%s", what, c, out)
			}
		}
	}
	for _, tc := range []struct{ path, rule string }{
		{".env", `secrets_exclude ".env"`},
		{"./.env", `secrets_exclude ".env"`},
		{".git/config", `mandatory exclude ".git/"`},
		{"gitdir/config", `mandatory exclude ".git/"`},
		{"debug.log", `mandatory exclude "*.log"`},
		{".ragraf/control.sqlite", `mandatory exclude ".ragraf/"`},
		{"env-link.php", `secrets_exclude ".env"`},
		{"build/out.php", `.gitignore`},
		{"keys/server.pem", `secrets_exclude "*.pem"`},
	} {
		for _, op := range []string{"live_read", "code"} {
			r := run(t, root, "query", op, "--args", `{"path":"`+tc.path+`"}`)
			var body struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &body); err != nil {
				t.Fatalf("%s %s: %v %q", op, tc.path, err, r.stdout)
			}
			if r.code == 0 || body.Error.Code != "E_EXCLUDED" || !strings.Contains(body.Error.Message, tc.rule) {
				t.Errorf("%s %s: exit %d, error %+v; want E_EXCLUDED naming %s", op, tc.path, r.code, body.Error, tc.rule)
			}
			noCanary(op+" "+tc.path, r.stdout+r.stderr)
		}
	}
	for _, op := range []string{"live_read", "code"} {
		r := run(t, root, "query", op, "--args", `{"path":"wp-config.php"}`)
		if r.code != 0 || !strings.Contains(r.stdout, "DB_PASSWORD") || !strings.Contains(r.stdout, "[REDACTED]") {
			t.Errorf("%s wp-config.php: %d %s", op, r.code, r.stdout)
		}
		noCanary(op+" wp-config.php", r.stdout+r.stderr)
	}
	// redaction alone is no change: the live file matches its snapshot
	r := run(t, root, "query", "live_read", "--args", `{"path":"wp-config.php"}`)
	if !strings.Contains(r.stdout, `"file_state": "unchanged"`) {
		t.Errorf("live_read of an unchanged file with secrets: %s", r.stdout)
	}
}

// TestFT39_PlantedSecretsReachNothing indexes the planted-secrets corpus
// (secretstest: more than 150 credentials in PHP, Markdown, SQL and config
// files, each value random) with the real binary, edits it and commits a
// reindex, then looks for every planted value (any 10-character piece of its
// random part, in any case) in every file under .ragraf (the stores as raw
// bytes and row by row through SQL, the extraction cache, the logs, the
// archive reports, the ledger), in the -v output of index and reindex, and in
// the answer of every read operation over the corpus. FT-39, FT-40.
func TestFT39_PlantedSecretsReachNothing(t *testing.T) {
	seed := plantSeed
	t.Logf("seed %d", seed)
	root := t.TempDir()
	plants, err := secretstest.Write(root, seed)
	if err != nil {
		t.Fatal(err)
	}
	find := secretstest.NewFinder(plants)
	// the check sees every value where it was planted
	var all []byte
	for _, p := range secretstest.Paths() {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	if n := len(find.Find(all)); n != len(plants) || n < 250 {
		t.Fatalf("the corpus shows %d of %d plants", n, len(plants))
	}
	leak := func(where string, data []byte) {
		t.Helper()
		for _, p := range find.Find(data) {
			t.Errorf("%s holds %s (%s): %.60q", where, p.Shape, p.Path, p.Value)
		}
	}
	r := run(t, root, "index", "-v")
	if r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	leak("index -v output", []byte(r.stdout+r.stderr))
	// every value changes (a second seed over the same files), so drift,
	// the incremental stores, the cache and the archive report all see
	// lines with secrets change; an edit adds a function
	plants2, err := secretstest.Write(root, seed+1)
	if err != nil {
		t.Fatal(err)
	}
	plants = append(plants, plants2...)
	find = secretstest.NewFinder(plants)
	f, err := os.OpenFile(filepath.Join(root, "src", "Props.php"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "function after_edit() { return 1; }\n")
	f.Close()
	r = run(t, root, "drift", "detect", "--method", "compare")
	leak("drift detect output", []byte(r.stdout+r.stderr))
	r = run(t, root, "reindex", "--commit", "-v")
	if r.code != 0 {
		t.Fatalf("reindex --commit: %d %s", r.code, r.stderr)
	}
	leak("reindex --commit -v output", []byte(r.stdout+r.stderr))

	// every operation's answer
	t.Run("every operation", func(t *testing.T) { everyOperationLeaksNothing(t, root, plants, find) })

	// every file under .ragraf, as bytes and, for databases, row by row
	files := 0
	err = filepath.WalkDir(filepath.Join(root, ".ragraf"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasSuffix(p, ".md") && !bytes.Contains(b, []byte("wp-config.php")) {
			t.Errorf("%s: the archive report does not name the changed files:\n%s", rel, b)
		}
		leak(rel, b)
		if strings.HasSuffix(p, ".sqlite") {
			rows := dumpRows(t, p)
			if strings.HasSuffix(p, "graph.sqlite") && !bytes.Contains(rows, []byte("Gateway::connect")) {
				t.Errorf("%s: the row dump misses the symbols", rel)
			}
			leak(rel+" rows", rows)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"graph.sqlite", "lexvec.sqlite", "control.sqlite", "extract.pack", "ragraf.log", ".md"} {
		if !strings.Contains(listTree(t, filepath.Join(root, ".ragraf")), want) {
			t.Errorf("no %s under .ragraf to check", want)
		}
	}
	t.Logf("%d files under .ragraf checked", files)
}

// plantSeed draws the planted values: fixed, so a leak found once is found
// again (TestFT39_PlantedCorpusRedacted tries 20 other seeds in-process).
const plantSeed uint64 = 2603

// everyOperationLeaksNothing is the property: for every operation the
// facade serves (its op table, read and ledger operations), with arguments
// drawn from what the index holds (every planted file's path, the ids and
// qualified names its answers name, key words and every planted value as
// queries in each search mode, tables, lines, variables), in both formats,
// no answer's bytes hold a planted value.
func everyOperationLeaksNothing(t *testing.T, root string, plants []secretstest.Plant, find *secretstest.Finder) {
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	r := rand.New(rand.NewPCG(plantSeed, 1))
	pool := map[string][]string{
		"path":  secretstest.Paths(),
		"table": {"users", "wp_users", "accounts", "settings"},
		"query": {"password", "secret", "token", "key", "auth", "pass", "credentials", "PDO", "define", "private_key",
			"webhook", "sshpass", "curl", "PGPASSWORD", "get", "Credentials", "login", "auth"},
		"variable": {"$password", "$secret", "$token", "$apiKey"},
	}
	values := map[string]bool{}
	for _, p := range plants {
		values[p.Value] = true
	}
	ids, qnames := map[string]bool{}, map[string]bool{}
	idRe := regexp.MustCompile(`"id":\s*"(n[0-9a-f]{8,})"`)
	qnameRe := regexp.MustCompile(`"qname":\s*"([^"]+)"`)
	entryRe := regexp.MustCompile(`"(?:entry_)?id":\s*"([^"]+)"`)
	called, answered := map[string]int{}, map[string]int{}
	ask := func(op string, args map[string]any) {
		t.Helper()
		b, _ := json.Marshal(args)
		env, err := svc.Call(context.Background(), op, b)
		called[op]++
		var out []byte
		if err != nil {
			out = []byte(err.Error())
		} else {
			answered[op]++
			if q, ok := args["query"].(string); ok && values[q] {
				// an answer echoes its query and suggests searches
				// built from it: that is what was asked, not what the
				// index holds
				if sr, ok := env.Result.(facade.SearchResult); ok {
					sr.Query = ""
					env.Result = sr
				}
				env.Suggest = nil
			}
			if out, err = facade.EncodeJSON(env); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range find.Find(out) {
			t.Errorf("%s %s holds %s (%s): %.60q", op, b, p.Shape, p.Path, p.Value)
		}
		for _, m := range idRe.FindAllSubmatch(out, -1) {
			ids[string(m[1])] = true
		}
		for _, m := range qnameRe.FindAllSubmatch(out, -1) {
			qnames[string(m[1])] = true
		}
		if strings.HasPrefix(op, "drift") {
			for _, m := range entryRe.FindAllSubmatch(out, -1) {
				pool["entry_id"] = append(pool["entry_id"], string(m[1]))
			}
		}
	}
	// what the index holds, to draw ids and names from
	for _, p := range pool["path"] {
		ask("outline", map[string]any{"path": p})
	}
	for _, q := range pool["query"] {
		ask("symbol", map[string]any{"name": q, "fuzzy": true, "limit": 100})
	}
	pool["id"] = sample(r, keys(ids), 40)
	pool["qname"] = sample(r, keys(qnames), 40)
	for _, p := range plants {
		pool["query"] = append(pool["query"], p.Value)
	}
	ops := append(facade.Ops(), facade.DriftOps()...)
	for _, o := range ops {
		fields := jsonFields(o.Args)
		base := map[string]any{}
		for f, v := range map[string]any{"limit": 100, "budget_tokens": 8000, "depth": 2, "data": true, "method": "compare",
			"note": "checked", "fuzzy": true} {
			if fields[f] {
				base[f] = v
			}
		}
		var calls []map[string]any
		add := func(f string, v any) {
			c := maps.Clone(base)
			c[f] = v
			calls = append(calls, c)
		}
		for _, f := range []string{"path", "id", "qname", "name", "query", "table", "entry_id", "from"} {
			if !fields[f] {
				continue
			}
			src := pool[f]
			switch f {
			case "name":
				src = pool["query"][:18]
			case "from":
				src = pool["id"]
			}
			for _, v := range src {
				add(f, v)
			}
		}
		if len(calls) == 0 {
			calls = append(calls, base)
		}
		for _, c := range calls {
			if fields["to"] {
				c["to"] = pool["id"][r.IntN(len(pool["id"]))]
			}
			if fields["line"] && c["path"] != nil {
				c["line"] = 1 + r.IntN(30)
			}
			if fields["variable"] && c["line"] != nil {
				c["variable"] = pool["variable"][r.IntN(len(pool["variable"]))]
			}
			if fields["focus"] {
				c["focus"] = []string{pool["path"][r.IntN(len(pool["path"]))]}
			}
			if fields["paths"] {
				c["paths"] = []string{pool["path"][r.IntN(len(pool["path"]))]}
			}
			if q, ok := c["query"].(string); ok && values[q] {
				for _, mode := range []string{"lexical", "semantic", "hybrid"} {
					c2 := maps.Clone(c)
					c2["mode"] = mode
					ask(o.Name, c2)
				}
				continue
			}
			if fields["format"] && r.IntN(2) == 0 {
				c["format"] = "concise"
			}
			ask(o.Name, c)
		}
	}
	for _, o := range ops {
		if called[o.Name] == 0 {
			t.Errorf("%s: never called", o.Name)
		}
		t.Logf("%s: %d calls, %d answered", o.Name, called[o.Name], answered[o.Name])
	}
}

// jsonFields lists the JSON names of an argument struct's fields, embedded
// structs included.
func jsonFields(rt reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			maps.Copy(out, jsonFields(f.Type))
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sample draws up to n of xs, in a fixed order for r's seed.
func sample(r *rand.Rand, xs []string, n int) []string {
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return xs[:min(n, len(xs))]
}

// dumpRows returns every row of every table of the SQLite file at path as
// text.
func dumpRows(t *testing.T, path string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	var out bytes.Buffer
	for _, tb := range tables {
		rows, err := db.Query(`SELECT * FROM "` + tb + `"`)
		if err != nil {
			continue // a virtual table whose module this connection lacks
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				fmt.Fprintf(&out, "%s\x00", v)
			}
			out.WriteByte('\n')
		}
		rows.Close()
	}
	return out.Bytes()
}

func listTree(t *testing.T, dir string) string {
	var b strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		b.WriteString(p + "\n")
		return nil
	})
	return b.String()
}

// TestFT39_LiveReadAppliesNamedConfig: with --project naming a config file,
// live_read and code apply that file's excludes, as the index did.
func TestFT39_LiveReadAppliesNamedConfig(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"ragraf-ci.yaml": "secrets_exclude: ['private/**']\n",
		"private/a.php":  "<?php\n// private-canary-5\n",
		"src/b.php":      "<?php\nfunction b() {}\n",
	})
	cfg := filepath.Join(root, "ragraf-ci.yaml")
	if r := run(t, root, "--project", cfg, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	for _, op := range []string{"live_read", "code"} {
		r := run(t, root, "--project", cfg, "query", op, "--args", `{"path":"private/a.php"}`)
		if r.code == 0 || !strings.Contains(r.stdout, `"E_EXCLUDED"`) || !strings.Contains(r.stdout, `secrets_exclude \"private/**\"`) ||
			strings.Contains(r.stdout, "private-canary-5") {
			t.Errorf("%s private/a.php: %d %s", op, r.code, r.stdout)
		}
	}
	if r := run(t, root, "--project", cfg, "query", "live_read", "--args", `{"path":"src/b.php"}`); r.code != 0 {
		t.Errorf("live_read src/b.php: %d %s", r.code, r.stdout)
	}
	// a named config that is gone serves nothing
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	r := run(t, root, "query", "--project", cfg, "live_read", "--args", `{"path":"src/b.php"}`)
	if r.code == 0 {
		t.Errorf("live_read without its config: %d %s", r.code, r.stdout)
	}
}
