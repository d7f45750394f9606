package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/dataflow"
)

func TestFT37_TemplateParsesToDefault(t *testing.T) {
	got, err := Parse(Template(), "project.yaml")
	if err != nil {
		t.Fatalf("Parse(Template()): %v", err)
	}
	if diff := cmp.Diff(Default(), got); diff != "" {
		t.Errorf("Parse(Template()) differs from Default() (-want +got):\n%s", diff)
	}
	if got.Hash() != Default().Hash() {
		t.Errorf("hash of parsed template differs from hash of Default()")
	}
	if err := Default().Validate(); err != nil {
		t.Errorf("Default().Validate() = %v", err)
	}
}

func TestFT37_ParseValues(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want func(*Config)
	}{
		{"empty file", "", func(*Config) {}},
		{"comments only", "# nothing\n", func(*Config) {}},
		{"null value keeps default", "include:\n", func(*Config) {}},
		{"languages", "languages: [php]\n", func(c *Config) { c.Languages = []string{"php"} }},
		{"block list", "exclude:\n  - tests/**\n  - '*.min.js'\n", func(c *Config) { c.Exclude = []string{"tests/**", "*.min.js"} }},
		{"numbers and bools", "max_file_size: 1024\nretain_revs: 1\nrespect_gitignore: false\n", func(c *Config) {
			c.MaxFileSize, c.RetainRevs, c.RespectGitignore = 1024, 1, false
		}},
		{"nested sections", "dataflow:\n  enabled: false\nembeddings:\n  model: m\n  path: /models/m\n  dim: 384\n", func(c *Config) {
			c.DataFlow.Enabled = false
			c.Embeddings = EmbeddingsConfig{Model: "m", Path: "/models/m", Dim: 384}
		}},
		{"data-flow models", "dataflow:\n  models:\n    sources:\n      app_input:\n        calls:\n          - {function: fetch_param}\n        superglobals: [_ENV]\n    sinks:\n      sql:\n        calls:\n          - {method: raw, receivers: [db, DB]}\n      log:\n        outputs: [echo]\n    sanitizers:\n      - {function: clean_id}\n", func(c *Config) {
			c.DataFlow.Models = &dataflow.Models{
				Sources:    map[string]dataflow.Model{"app_input": {Calls: []dataflow.CallModel{{Function: "fetch_param"}}, Superglobals: []string{"_ENV"}}},
				Sinks:      map[string]dataflow.Model{"sql": {Calls: []dataflow.CallModel{{Method: "raw", Receivers: []string{"db", "DB"}}}}, "log": {Outputs: []string{"echo"}}},
				Sanitizers: []dataflow.CallModel{{Function: "clean_id"}},
			}
		}},
		{"db sources", "database:\n  sources:\n    - name: main\n      driver: mysql\n      dsn: \"root@tcp(localhost:3306)/wp\"\n      password_env: WP_DB_PASS\n  table_prefixes: []\n", func(c *Config) {
			c.Database.Sources = []DBSource{{Name: "main", Driver: "mysql", DSN: "root@tcp(localhost:3306)/wp", PasswordEnv: "WP_DB_PASS"}}
			c.Database.TablePrefixes = []string{}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in), "project.yaml")
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := Default()
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestFT37_ConfigValidation(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // first error, exactly
	}{
		{"unknown key with suggestion", "languages: [php]\n\nlangauges: [php]\n",
			`project.yaml:3:1: unknown key "langauges": did you mean "languages"?`},
		{"unknown nested key", "dataflow:\n  enabeld: true\n",
			`project.yaml:2:3: unknown key "dataflow.enabeld": did you mean "dataflow.enabled"?`},
		{"unknown key without suggestion", "zzzzzzzz: 1\n",
			`project.yaml:1:1: unknown key "zzzzzzzz" (known keys: chunk_budget, co_change, database, dataflow, embeddings, exclude, include, languages, max_file_memory_mb, max_file_ms, max_file_size, max_file_work, max_memory_mb, respect_gitignore, retain_revs, secrets_exclude)`},
		{"wrong type int", "max_file_size: big\n",
			`project.yaml:1:16: max_file_size: expected a whole number from 1 to 1073741824, got the string big`},
		{"wrong type bool", "respect_gitignore: 1\n",
			`project.yaml:1:20: respect_gitignore: expected true or false, got the number 1`},
		{"wrong type list", "include: \"**\"\n",
			`project.yaml:1:10: include: expected a list, got the string "**"; write ["..."] or one "- item" per line`},
		{"wrong type section", "dataflow: yes\n",
			`project.yaml:1:11: dataflow: expected a mapping of keys to values, got the string yes`},
		{"retain_revs zero", "retain_revs: 0\n",
			`project.yaml:1:14: retain_revs: 0 is out of range: write a whole number from 1 to 1000`},
		{"negative size", "max_file_size: -5\n",
			`project.yaml:1:16: max_file_size: -5 is out of range: write a whole number from 1 to 1073741824`},
		{"unknown language", "languages: [php, cobol]\n",
			`project.yaml:1:18: languages: unknown language "cobol" (allowed: "php", "markdown", "sql", "javascript", "typescript", "python", "go", "twig", "blade", "java", "csharp", "ruby", "rust", "c", "cpp", "bash", "kotlin", "scala" or "lua")`},
		{"language typo", "languages:\n  - markdwn\n",
			`project.yaml:2:5: languages: unknown language "markdwn": did you mean "markdown"? (allowed: "php", "markdown", "sql", "javascript", "typescript", "python", "go", "twig", "blade", "java", "csharp", "ruby", "rust", "c", "cpp", "bash", "kotlin", "scala" or "lua")`},
		{"no languages", "languages: []\n",
			`project.yaml:1:12: languages: at least one language is needed; allowed: "php", "markdown", "sql", "javascript", "typescript", "python", "go", "twig", "blade", "java", "csharp", "ruby", "rust", "c", "cpp", "bash", "kotlin", "scala" or "lua"`},
		{"invalid glob", "exclude: [\"src/[a\"]\n",
			`project.yaml:1:11: exclude: invalid glob "src/[a": check unbalanced [ ] or { } and trailing \`},
		{"absolute glob", "include: [\"/src/**\"]\n",
			`project.yaml:1:11: include: glob "/src/**" must be relative to the project root: write "src/**"`},
		{"unknown driver", "database:\n  sources:\n    - name: a\n      driver: postgress\n",
			`project.yaml:4:15: database.sources[0].driver: unknown driver "postgress": did you mean "postgres"? (allowed: "mysql", "mariadb", "postgres" or "sqlite")`},
		{"password in dsn", "database:\n  sources:\n    - name: a\n      driver: postgres\n      dsn: postgres://u:hunter2@db/x\n",
			`project.yaml:5:12: database.sources[0].dsn: the dsn must not contain a password: remove it and name an environment variable in password_env`},
		{"mysql password in dsn", "database:\n  sources:\n    - {name: a, driver: mysql, dsn: \"u:pw@tcp(h)/d\"}\n",
			`project.yaml:3:37: database.sources[0].dsn: the dsn must not contain a password: remove it and name an environment variable in password_env`},
		{"duplicate key", "retain_revs: 2\nretain_revs: 3\n",
			`project.yaml:2:1: invalid YAML: mapping key "retain_revs" already defined at [1:1]`},
		{"model name with a space", "embeddings:\n  model: my model\n",
			`project.yaml:2:3: embeddings.model: model "my model": a model name has no spaces, e.g. paraphrase-multilingual-MiniLM-L12-v2 (see ragraf model list)`},
		{"model call naming both", "dataflow:\n  models:\n    sanitizers:\n      - {function: a, method: b}\n",
			`project.yaml:4:9: dataflow.models.sanitizers[0]: a call names a function ("a") or a method ("b"), not both: write two entries`},
		{"model call naming nothing", "dataflow:\n  models:\n    sinks:\n      sql:\n        calls:\n          - {receivers: [db]}\n",
			`project.yaml:6:13: dataflow.models.sinks.sql.calls[0]: a call needs function: NAME or method: NAME`},
		{"model receivers on a function", "dataflow:\n  models:\n    sinks:\n      sql:\n        calls:\n          - {function: q, receivers: [db]}\n",
			`project.yaml:6:13: dataflow.models.sinks.sql.calls[0]: receivers apply to methods: write method: q, or drop receivers`},
		{"model name", "dataflow:\n  models:\n    sources:\n      App-Input:\n        superglobals: [_GET]\n",
			`project.yaml:4:7: dataflow.models.sources.App-Input: model name "App-Input": write lower-case letters, digits and _ (e.g. http_input)`},
		{"model superglobal", "dataflow:\n  models:\n    sources:\n      env:\n        superglobals: [ENV]\n",
			`project.yaml:5:24: dataflow.models.sources.env.superglobals: unknown superglobal "ENV" (allowed: "_GET", "_POST", "_REQUEST", "_COOKIE", "_FILES", "_SERVER", "_ENV", "_SESSION" or "GLOBALS")`},
		{"empty model", "dataflow:\n  models:\n    sinks:\n      mail: {}\n",
			`project.yaml:4:7: dataflow.models.sinks.mail: a model needs superglobals, calls or outputs`},
		{"unknown model key", "dataflow:\n  models:\n    sink:\n      sql: {}\n",
			`project.yaml:3:5: unknown key "dataflow.models.sink": did you mean "dataflow.models.sinks"?`},
		{"syntax error", "languages: [php\n",
			`project.yaml:1:12: invalid YAML: `},
		{"top level list", "- a\n",
			`project.yaml:1:1: the file: expected a mapping of keys to values, got a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), "project.yaml")
			if err == nil {
				t.Fatalf("Parse accepted %q", tt.in)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *config.Error", err)
			}
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			if strings.HasSuffix(tt.want, ": ") {
				if !strings.HasPrefix(first, tt.want) {
					t.Errorf("got  %s\nwant prefix %s", first, tt.want)
				}
				return
			}
			if first != tt.want {
				t.Errorf("got  %s\nwant %s", first, tt.want)
			}
		})
	}
}

func TestFT37_AllErrorsCollected(t *testing.T) {
	in := "langauges: [php]\nretain_revs: 0\ndataflow:\n  enabled: maybe\n"
	_, err := Parse([]byte(in), "p.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		`p.yaml:1:1: unknown key "langauges": did you mean "languages"?`,
		`p.yaml:2:14: retain_revs: 0 is out of range: write a whole number from 1 to 1000`,
		`p.yaml:4:12: dataflow.enabled: expected true or false, got the string maybe`,
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFT37_Validate(t *testing.T) {
	c := Default()
	c.Languages = []string{"cobol"}
	c.RetainRevs = 0
	c.Exclude = []string{"a/{b"}
	c.Database.Sources = []DBSource{{Name: "x", Driver: "oracle"}}
	c.DataFlow.Models = &dataflow.Models{Sinks: map[string]dataflow.Model{"sql": {Calls: []dataflow.CallModel{{}}}, "Bad": {Outputs: []string{"echo"}}}}
	err := c.Validate()
	if err == nil {
		t.Fatal("Validate accepted an invalid config")
	}
	for _, want := range []string{`unknown language "cobol"`, "retain_revs: 0 is out of range", `invalid glob "a/{b"`, `unknown driver "oracle"`,
		"dataflow.models.sinks.sql.calls[0]: a call needs function: NAME or method: NAME", `dataflow.models.sinks.Bad: model name "Bad"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error lacks %q:\n%v", want, err)
		}
	}
}

func TestFT37_HashStable(t *testing.T) {
	a, b := Default(), Default()
	if a.Hash() != b.Hash() || len(a.Hash()) != 64 {
		t.Fatalf("hash not stable: %s %s", a.Hash(), b.Hash())
	}
	b.Exclude = nil
	if a.Hash() != b.Hash() {
		t.Error("nil and empty exclude hash differently")
	}
	b.RetainRevs = 4
	if a.Hash() == b.Hash() {
		t.Error("different configs hash alike")
	}
	// data-flow models are optional: without them the hashed encoding is
	// what it was before they existed, so revisions built then do not look
	// as if their config changed
	enc, err := json.Marshal(Default().normalized())
	if err != nil || strings.Contains(string(enc), "models") {
		t.Errorf("default config encodes models: %s %v", enc, err)
	}
	b = Default()
	b.DataFlow.Models = &dataflow.Models{Sanitizers: []dataflow.CallModel{{Function: "clean"}}}
	if a.Hash() == b.Hash() {
		t.Error("data-flow models do not change the hash")
	}
}

func TestFT37_Load(t *testing.T) {
	p := filepath.Join(t.TempDir(), "project.yaml")
	if err := os.WriteFile(p, []byte("chunk_budget: 256\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.ChunkBudget != 256 || c.RetainRevs != 3 {
		t.Errorf("Load: got %+v", c)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want ErrNotExist", err)
	}
	if err := os.WriteFile(p, []byte("chunk_budget: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":1:15: ") {
		t.Errorf("Load(bad) = %v", err)
	}
}

func TestFT38_MandatoryExcludes(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{".git", true},
		{".git/config", true},
		{"sub/.git/HEAD", true},
		{".ragraf/project.yaml", true},
		{"vendor/autoload.php", true},
		{"wp-content/plugins/x/vendor/a.php", true},
		{"node_modules/x/index.js", true},
		{"debug.log", true},
		{"logs/x/error.log", true},
		{"index.php.bak", true},
		{"wp-config_bak.php", true},
		{"theme_bak2/style.css", true},
		{".claude/settings.json", true},
		{"a/.cursor/rules", true},
		{".aider.chat.history.md", true},
		{".codex/x", true},
		{".continue/config.json", true},
		{".windsurf/rules.md", true},
		{".roo/x", true},
		{".cline/x", true},
		{".gemini/x", true},
		{".zed/settings.json", true},
		{"CLAUDE.local.md", true},
		{"docs/CLAUDE.local.md", true},
		{"CLAUDE.md", false},
		{"src/vendors.php", false},
		{"src/Vendor/Model.php", false},
		{"logger.php", false},
		{"login.php", false},
		{"catalog/backup.php", false},
		{".github/workflows/ci.yml", false},
		{"index.php", false},
		{"./vendor/a.php", true},
	}
	for _, tt := range tests {
		if got := IsMandatoryExcluded(tt.path); got != tt.want {
			t.Errorf("IsMandatoryExcluded(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "abc", 0}, {"langauges", "languages", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q,%q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
