// This file defines Config, its defaults, validation and fingerprint. Reading the
// YAML text into a Config lives in parse.go; the commented file that `ragraf init`
// writes lives in template.go.

package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragraf/ragraf/internal/dataflow"
)

// Config is the content of project.yaml.
type Config struct {
	Languages        []string `yaml:"languages" json:"languages"`
	Include          []string `yaml:"include" json:"include"`
	Exclude          []string `yaml:"exclude" json:"exclude"`
	SecretsExclude   []string `yaml:"secrets_exclude" json:"secrets_exclude"`
	MaxFileSize      int64    `yaml:"max_file_size" json:"max_file_size"`
	MaxFileWork      int64    `yaml:"max_file_work" json:"max_file_work"`
	MaxFileMS        int64    `yaml:"max_file_ms" json:"max_file_ms"` // read so older files load; unused: the budget is work, not time
	MaxFileMemoryMB  int64    `yaml:"max_file_memory_mb" json:"max_file_memory_mb"`
	ChunkBudget      int      `yaml:"chunk_budget" json:"chunk_budget"`
	RetainRevs       int      `yaml:"retain_revs" json:"retain_revs"`
	RespectGitignore bool     `yaml:"respect_gitignore" json:"respect_gitignore"`
	// MaxMemoryMB is the memory budget of a build (the Go runtime's soft
	// limit; a tight one also lowers parse concurrency and the static
	// model's training sample). Not part of Hash: it changes how a build
	// runs, never what it writes.
	MaxMemoryMB int              `yaml:"max_memory_mb" json:"max_memory_mb,omitempty"`
	Database    DatabaseConfig   `yaml:"database" json:"database"`
	DataFlow    DataFlowConfig   `yaml:"dataflow" json:"dataflow"`
	Embeddings  EmbeddingsConfig `yaml:"embeddings" json:"embeddings"`
	CoChange    CoChangeConfig   `yaml:"co_change" json:"co_change"`
}

// CoChangeConfig bounds the history impact's co_changed block is mined
// from at index time: the newest Commits commits of the checked-out branch
// (0: none), merges and commits touching more than MaxFiles files skipped.
type CoChangeConfig struct {
	Commits  int `yaml:"commits" json:"commits"`
	MaxFiles int `yaml:"max_files" json:"max_files"`
}

// DatabaseConfig says where the database schema comes from: live databases
// (Sources) and schema files in the corpus (SchemaFiles).
type DatabaseConfig struct {
	Sources       []DBSource `yaml:"sources" json:"sources"`
	TablePrefixes []string   `yaml:"table_prefixes" json:"table_prefixes"`
	SchemaFiles   []string   `yaml:"schema_files" json:"schema_files"`
}

// DBSource is one live database whose schema is read at index time. The DSN
// never holds the password; PasswordEnv names the environment variable that does.
type DBSource struct {
	Name        string `yaml:"name" json:"name"`
	Driver      string `yaml:"driver" json:"driver"`
	DSN         string `yaml:"dsn" json:"dsn"`
	PasswordEnv string `yaml:"password_env" json:"password_env"`
}

// DataFlowConfig controls the data-flow engine behind slice and flow queries
// (NFR-8): Enabled false makes the revision's capability degraded and the two
// operations refuse; MaxFunctionLines skips longer functions as too_large;
// MaxMemoryMB bounds the lowered functions a server keeps and one query
// holds; MaxMS is a query's default time budget. Models are read at query
// time, so changing them needs no reindex.
type DataFlowConfig struct {
	Enabled          bool `yaml:"enabled" json:"enabled"`
	MaxFunctionLines int  `yaml:"max_function_lines" json:"max_function_lines"`
	MaxMemoryMB      int  `yaml:"max_memory_mb" json:"max_memory_mb"`
	MaxMS            int  `yaml:"max_ms" json:"max_ms"`
	// Models extends the sources, sinks and sanitizers shipped in the
	// binary (dataflow.Models.With); nil when project.yaml has none.
	Models *dataflow.Models `yaml:"models" json:"models,omitempty"`
}

// EmbeddingsConfig names the embedding model. StaticModel, the default,
// trains one on the project; NoModel (or "", which project.yaml files
// written before StaticModel was the default hold) means no vectors: search
// is lexical only. Any other name is an ONNX sentence model installed by
// `ragraf model pull` (or in Path, a directory holding model.onnx and
// tokenizer.json), or a model2vec model (Model2VecPrefix); Dim, when set, is
// checked against the model's vectors.
type EmbeddingsConfig struct {
	Model string `yaml:"model" json:"model"`
	Path  string `yaml:"path" json:"path"`
	Dim   int    `yaml:"dim" json:"dim"`
}

// None reports whether the configuration asks for no vectors.
func (e EmbeddingsConfig) None() bool { return e.Model == "" || e.Model == NoModel }

// Languages and drivers accepted by Validate.
var (
	KnownLanguages = []string{"php", "markdown", "sql", "javascript", "typescript", "python", "go", "twig", "blade",
		"java", "csharp", "ruby", "rust", "c", "cpp", "bash", "kotlin", "scala", "lua"}
	KnownDrivers = []string{"mysql", "mariadb", "postgres", "sqlite"}
)

// Numeric limits accepted by Validate.
const (
	minMaxFileSize      = 1
	maxMaxFileSize      = 1 << 30
	minMaxFileMS        = 100
	minMaxFileWork      = 100000
	maxMaxFileWork      = 1 << 40
	maxMaxFileMS        = 3600000
	minMaxFileMemoryMB  = 16
	maxMaxFileMemoryMB  = 1 << 20
	minChunkBudget      = 16
	maxChunkBudget      = 8192
	minRetainRevs       = 1
	maxRetainRevs       = 1000
	minMaxFunctionLines = 1
	maxMaxFunctionLines = 1_000_000
	minDataflowMemoryMB = 16
	minMaxMemoryMB      = 16
	maxMaxMemoryMB      = 1 << 20
	maxDataflowMemoryMB = 1 << 20
	minDataflowMS       = 1
	maxDataflowMS       = 10000
	maxEmbeddingDim     = 65536
	maxCoChangeCommits  = 1_000_000
	minCoChangeMaxFiles = 2
	maxCoChangeMaxFiles = 100_000
)

// DefaultSecretsExclude lists the files that are never opened because they
// usually hold credentials. Secrets inside code files (wp-config.php, say) are
// handled by redaction instead, so code stays indexed.
var DefaultSecretsExclude = []string{
	".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	"credentials*", "secrets.*", "*.p12", "*.pfx", "*.keystore", ".htpasswd", "auth.json",
	".npmrc", ".pypirc",
}

// Default returns the configuration used for every key project.yaml omits.
func Default() Config {
	return Config{
		Languages:        []string{"php", "markdown", "sql", "twig", "blade"},
		Include:          []string{"**"},
		Exclude:          []string{},
		SecretsExclude:   slices.Clone(DefaultSecretsExclude),
		MaxFileSize:      2 << 20,
		MaxFileWork:      20000000,
		MaxFileMS:        20000,
		MaxFileMemoryMB:  256,
		ChunkBudget:      512,
		RetainRevs:       3,
		RespectGitignore: true,
		MaxMemoryMB:      1024,
		Database: DatabaseConfig{
			Sources:       []DBSource{},
			TablePrefixes: []string{"wp_"},
			SchemaFiles:   []string{"**/*.sql"},
		},
		DataFlow:   DataFlowConfig{Enabled: true, MaxFunctionLines: 2000, MaxMemoryMB: 256, MaxMS: 2000},
		Embeddings: EmbeddingsConfig{Model: StaticModel},
		CoChange:   CoChangeConfig{Commits: 2000, MaxFiles: 30},
	}
}

// Hash returns the sha256 (hex) of a canonical encoding of c. Nil and empty
// lists hash alike, so a loaded file and Default agree when they mean the same.
func (c Config) Hash() string {
	n := c.normalized()
	n.MaxMemoryMB = 0
	b, err := json.Marshal(n)
	if err != nil {
		// Config holds only strings, numbers, booleans and slices of them.
		panic("internal error: encoding config: " + err.Error())
	}
	sum := sha256.Sum256(append([]byte("ragraf-config-v1\n"), b...))
	return hex.EncodeToString(sum[:])
}

// normalized replaces nil slices by empty ones.
func (c Config) normalized() Config {
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	c.Languages = nz(c.Languages)
	c.Include = nz(c.Include)
	c.Exclude = nz(c.Exclude)
	c.SecretsExclude = nz(c.SecretsExclude)
	c.Database.TablePrefixes = nz(c.Database.TablePrefixes)
	c.Database.SchemaFiles = nz(c.Database.SchemaFiles)
	if c.Database.Sources == nil {
		c.Database.Sources = []DBSource{}
	}
	return c
}

// Validate checks every value of c. It returns nil or one *Error per problem,
// joined; the errors carry no position (Parse reports the same problems with one).
func (c Config) Validate() error {
	var errs []error
	add := func(key, msg string) {
		if msg != "" {
			errs = append(errs, &Error{Msg: key + ": " + msg})
		}
	}
	add("languages", checkLanguageList(c.Languages))
	for _, l := range c.Languages {
		add("languages", checkLanguage(l))
	}
	add("include", checkNonEmpty(c.Include, `["**"]`))
	for key, globs := range map[string][]string{
		"include": c.Include, "exclude": c.Exclude, "secrets_exclude": c.SecretsExclude,
		"database.schema_files": c.Database.SchemaFiles,
	} {
		for _, g := range globs {
			add(key, checkGlob(g))
		}
	}
	add("max_file_size", checkRange(c.MaxFileSize, minMaxFileSize, maxMaxFileSize))
	add("max_file_work", checkRange(c.MaxFileWork, minMaxFileWork, maxMaxFileWork))
	add("max_file_ms", checkRange(c.MaxFileMS, minMaxFileMS, maxMaxFileMS))
	add("max_file_memory_mb", checkRange(c.MaxFileMemoryMB, minMaxFileMemoryMB, maxMaxFileMemoryMB))
	add("chunk_budget", checkRange(int64(c.ChunkBudget), minChunkBudget, maxChunkBudget))
	add("retain_revs", checkRange(int64(c.RetainRevs), minRetainRevs, maxRetainRevs))
	add("max_memory_mb", checkRange(int64(c.MaxMemoryMB), minMaxMemoryMB, maxMaxMemoryMB))
	add("dataflow.max_function_lines", checkRange(int64(c.DataFlow.MaxFunctionLines), minMaxFunctionLines, maxMaxFunctionLines))
	add("dataflow.max_memory_mb", checkRange(int64(c.DataFlow.MaxMemoryMB), minDataflowMemoryMB, maxDataflowMemoryMB))
	add("dataflow.max_ms", checkRange(int64(c.DataFlow.MaxMS), minDataflowMS, maxDataflowMS))
	add("co_change.commits", checkRange(int64(c.CoChange.Commits), 0, maxCoChangeCommits))
	add("co_change.max_files", checkRange(int64(c.CoChange.MaxFiles), minCoChangeMaxFiles, maxCoChangeMaxFiles))
	if m := c.DataFlow.Models; m != nil {
		for _, p := range checkModels(*m) {
			add("dataflow.models."+p[0], p[1])
		}
	}
	add("embeddings.dim", checkRange(int64(c.Embeddings.Dim), 0, maxEmbeddingDim))
	add("embeddings.model", checkEmbeddings(c.Embeddings))
	seen := map[string]bool{}
	for i, s := range c.Database.Sources {
		key := fmt.Sprintf("database.sources[%d]", i)
		add(key+".name", checkSourceName(s.Name, seen))
		add(key+".driver", checkDriver(s.Driver))
		add(key+".dsn", checkDSN(s.DSN))
		add(key+".password_env", checkEnvName(s.PasswordEnv))
	}
	slices.SortStableFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

var modelName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkModelName checks a source or sink name, which flow's from and to
// name as source:NAME or sink:NAME.
func checkModelName(name string) string {
	if !modelName.MatchString(name) {
		return fmt.Sprintf("model name %q: write lower-case letters, digits and _ (e.g. http_input)", name)
	}
	return ""
}

// checkCallModel checks one call entry: a function, or a method with
// optional receivers, never both.
func checkCallModel(c dataflow.CallModel) string {
	switch {
	case c.Function == "" && c.Method == "":
		return "a call needs function: NAME or method: NAME"
	case c.Function != "" && c.Method != "":
		return fmt.Sprintf("a call names a function (%q) or a method (%q), not both: write two entries", c.Function, c.Method)
	case c.Function != "" && len(c.Receivers) > 0:
		return fmt.Sprintf("receivers apply to methods: write method: %s, or drop receivers", c.Function)
	}
	for _, r := range c.Receivers {
		if r == "" || strings.HasPrefix(r, "$") {
			return fmt.Sprintf("receiver %q: write the variable or class name without $", r)
		}
	}
	return ""
}

func checkOneOf(what, v string, allowed []string) string {
	if slices.Contains(allowed, v) {
		return ""
	}
	return fmt.Sprintf("unknown %s %q (allowed: %s)", what, v, quoteList(allowed))
}

// checkModels returns (key, problem) pairs for every problem of m, keys
// relative to dataflow.models.
func checkModels(m dataflow.Models) [][2]string {
	var out [][2]string
	add := func(key, msg string) {
		if msg != "" {
			out = append(out, [2]string{key, msg})
		}
	}
	for kind, models := range map[string]map[string]dataflow.Model{"sources": m.Sources, "sinks": m.Sinks} {
		for name, md := range models {
			key := kind + "." + name
			add(key, checkModelName(name))
			if len(md.Superglobals)+len(md.Outputs)+len(md.Calls) == 0 {
				add(key, "a model needs superglobals, calls or outputs")
			}
			for _, s := range md.Superglobals {
				add(key+".superglobals", checkOneOf("superglobal", s, dataflow.Superglobals))
			}
			for _, o := range md.Outputs {
				add(key+".outputs", checkOneOf("output", o, dataflow.Outputs))
			}
			for i, c := range md.Calls {
				add(fmt.Sprintf("%s.calls[%d]", key, i), checkCallModel(c))
			}
		}
	}
	for i, c := range m.Sanitizers {
		add(fmt.Sprintf("sanitizers[%d]", i), checkCallModel(c))
	}
	return out
}

func checkLanguageList(langs []string) string {
	if len(langs) == 0 {
		return "at least one language is needed; allowed: " + quoteList(KnownLanguages)
	}
	return ""
}

func checkLanguage(l string) string {
	if slices.Contains(KnownLanguages, l) {
		return ""
	}
	msg := fmt.Sprintf("unknown language %q", l)
	if s := suggest(l, KnownLanguages); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return msg + " (allowed: " + quoteList(KnownLanguages) + ")"
}

func checkNonEmpty(list []string, example string) string {
	if len(list) == 0 {
		return "at least one glob is needed, e.g. " + example
	}
	return ""
}

func checkGlob(g string) string {
	if g == "" {
		return "empty glob"
	}
	if strings.HasPrefix(g, "/") {
		return fmt.Sprintf("glob %q must be relative to the project root: write %q", g, strings.TrimLeft(g, "/"))
	}
	if slices.Contains(strings.Split(g, "/"), "..") {
		return fmt.Sprintf("glob %q must not leave the project root (no \"..\")", g)
	}
	if !doublestar.ValidatePattern(g) {
		return fmt.Sprintf("invalid glob %q: check unbalanced [ ] or { } and trailing \\", g)
	}
	return ""
}

func checkRange(v, lo, hi int64) string {
	if v < lo || v > hi {
		return fmt.Sprintf("%d is out of range: write a whole number from %d to %d", v, lo, hi)
	}
	return ""
}

// StaticModel names the embedding model trained on the project itself at
// index time (internal/embed), the default; it needs no files, so no path
// or dim.
const StaticModel = "static:project"

// NoModel is the embeddings.model that asks for no vectors (lexical search
// only); "" means the same.
const NoModel = "none"

// Model2VecPrefix names a model2vec static model the user installed:
// "model2vec:DIR", DIR absolute or relative to the project root.
const Model2VecPrefix = "model2vec:"

// Model2VecDir returns the directory of a model2vec model name, resolved
// against root, and false for any other name.
func Model2VecDir(root, model string) (string, bool) {
	dir, ok := strings.CutPrefix(model, Model2VecPrefix)
	if !ok || dir == "" {
		return "", false
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir, true
}

func checkEmbeddings(e EmbeddingsConfig) string {
	if strings.ContainsAny(e.Model, " \t\n") {
		return fmt.Sprintf("model %q: a model name has no spaces, e.g. paraphrase-multilingual-MiniLM-L12-v2 (see ragraf model list)", e.Model)
	}
	return ""
}

func checkSourceName(name string, seen map[string]bool) string {
	if name == "" {
		return `a name is needed, e.g. name: "main"`
	}
	if seen[name] {
		return fmt.Sprintf("duplicate source name %q: names must be unique", name)
	}
	seen[name] = true
	return ""
}

func checkDriver(d string) string {
	if slices.Contains(KnownDrivers, d) {
		return ""
	}
	msg := fmt.Sprintf("unknown driver %q", d)
	if d == "" {
		msg = "a driver is needed"
	} else if s := suggest(d, KnownDrivers); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return msg + " (allowed: " + quoteList(KnownDrivers) + ")"
}

// mysqlUserPass matches the go-sql-driver form user:password@tcp(...).
var mysqlUserPass = regexp.MustCompile(`^[^:@/]*:[^@]+@`)

func checkDSN(dsn string) string {
	const msg = "the dsn must not contain a password: remove it and name an environment variable in password_env"
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			return msg
		}
		return ""
	}
	if !strings.Contains(dsn, "://") && mysqlUserPass.MatchString(dsn) {
		return msg
	}
	return ""
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkEnvName(name string) string {
	if name == "" || envName.MatchString(name) {
		return ""
	}
	return fmt.Sprintf("%q is not an environment variable name: use letters, digits and _, e.g. DB_PASSWORD", name)
}
