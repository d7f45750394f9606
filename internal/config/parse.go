// This file reads project.yaml into a Config. It walks the goccy/go-yaml AST
// itself rather than decoding into the struct, so that every problem carries the
// exact line and column and the message can say what to write instead.

package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/ragraf/ragraf/internal/dataflow"
)

// Load reads and parses the configuration file at path.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("reading config: %w", err)
	}
	return Parse(data, path)
}

// Parse parses project.yaml content; name is the file name used in errors.
// Missing keys take their Default value. On error the returned Config is the
// zero value and the error joins one *Error per problem, in file order.
func Parse(data []byte, name string) (Config, error) {
	d := &decoder{file: name}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return Config{}, d.syntaxError(err)
	}
	c := Default()
	for i, doc := range f.Docs {
		body := unwrap(doc.Body)
		if body == nil {
			continue
		}
		if i > 0 {
			d.errorf(body, "only one YAML document is allowed; remove the second one")
			break
		}
		if _, ok := body.(*ast.NullNode); ok {
			continue
		}
		d.mapping(body, "", c.fields())
	}
	if len(d.errs) > 0 {
		return Config{}, errors.Join(d.errs...)
	}
	return c, nil
}

// decoder collects errors while walking the AST.
type decoder struct {
	file string
	errs []error
}

func (d *decoder) syntaxError(err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		return &Error{File: d.file, Line: p.Line, Column: p.Column, Msg: "invalid YAML: " + ye.GetMessage()}
	}
	return &Error{File: d.file, Msg: "invalid YAML: " + err.Error()}
}

func (d *decoder) errorf(n ast.Node, format string, args ...any) {
	e := &Error{File: d.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.GetToken() != nil {
		e.Line, e.Column = n.GetToken().Position.Line, n.GetToken().Position.Column
	}
	d.errs = append(d.errs, e)
}

// check records msg (from the check functions in config.go) at n.
func (d *decoder) check(n ast.Node, key, msg string) {
	if msg != "" {
		d.errorf(n, "%s: %s", key, msg)
	}
}

// field decodes the value of one key; key is the dotted path for messages.
type field func(d *decoder, key string, v ast.Node)

// unwrap strips tags, anchors and comments around a value.
func unwrap(n ast.Node) ast.Node {
	for {
		switch t := n.(type) {
		case *ast.TagNode:
			n = t.Value
		case *ast.AnchorNode:
			n = t.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
}

func isNull(n ast.Node) bool {
	_, ok := n.(*ast.NullNode)
	return n == nil || ok
}

// mapping decodes a mapping node whose keys must come from fields.
func (d *decoder) mapping(n ast.Node, prefix string, fields map[string]field) {
	n = unwrap(n)
	m, ok := n.(*ast.MappingNode)
	if !ok {
		if mv, ok2 := n.(*ast.MappingValueNode); ok2 {
			m = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}
		} else {
			what := "the file"
			if prefix != "" {
				what = strings.TrimSuffix(prefix, ".")
			}
			d.errorf(n, "%s: expected a mapping of keys to values, got %s", what, describe(n))
			return
		}
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	seen := map[string]bool{}
	for _, mv := range m.Values {
		if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
			d.errorf(mv.Key, "merge keys (<<) are not supported; write the keys out")
			continue
		}
		key := mv.Key.String()
		if s, ok := unwrap(mv.Key).(*ast.StringNode); ok {
			key = s.Value
		}
		f, ok := fields[key]
		if !ok {
			msg := fmt.Sprintf("unknown key %q", prefix+key)
			if s := suggest(key, names); s != "" {
				msg += fmt.Sprintf(": did you mean %q?", prefix+s)
			} else {
				msg += " (known keys: " + strings.Join(prefixAll(prefix, names), ", ") + ")"
			}
			d.errorf(mv.Key, "%s", msg)
			continue
		}
		if seen[key] {
			d.errorf(mv.Key, "duplicate key %q: keep only one", prefix+key)
			continue
		}
		seen[key] = true
		v := unwrap(mv.Value)
		if _, ok := v.(*ast.AliasNode); ok {
			d.errorf(v, "%s: aliases (*name) are not supported; write the value out", prefix+key)
			continue
		}
		if isNull(v) {
			// "key:" with no value keeps the default.
			continue
		}
		f(d, prefix+key, v)
	}
}

// keyNode returns the key node of name in mapping n, or n when absent.
func keyNode(n ast.Node, name string) ast.Node {
	if m, ok := unwrap(n).(*ast.MappingNode); ok {
		for _, mv := range m.Values {
			if mv.Key.String() == name {
				return mv.Key
			}
		}
	}
	return n
}

func prefixAll(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// describe names the YAML type of n for "expected X, got Y" messages.
func describe(n ast.Node) string {
	switch t := n.(type) {
	case nil, *ast.NullNode:
		return "nothing"
	case *ast.StringNode, *ast.LiteralNode:
		v := n.String()
		// an error is one line: a block of text is quoted, and long ones cut
		if strings.ContainsAny(v, "\n\r\t") || len(v) > 80 {
			if len(v) > 80 {
				v = v[:80] + "…"
			}
			v = strconv.Quote(v)
		}
		return "the string " + v
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "the number " + n.String()
	case *ast.BoolNode:
		return "the boolean " + n.String()
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	default:
		return t.Type().String()
	}
}

func (d *decoder) str(key string, n ast.Node) (string, bool) {
	switch t := n.(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.LiteralNode:
		return t.Value.Value, true
	}
	d.errorf(n, "%s: expected a string, got %s; quote the value", key, describe(n))
	return "", false
}

func (d *decoder) list(key string, n ast.Node) ([]ast.Node, bool) {
	s, ok := n.(*ast.SequenceNode)
	if !ok {
		d.errorf(n, "%s: expected a list, got %s; write [\"...\"] or one \"- item\" per line", key, describe(n))
		return nil, false
	}
	out := make([]ast.Node, len(s.Values))
	for i, v := range s.Values {
		out[i] = unwrap(v)
	}
	return out, true
}

// strList decodes a list of strings and runs each through check.
func (d *decoder) strList(dst *[]string, checkEach func(string) string) field {
	return func(d *decoder, key string, n ast.Node) {
		items, ok := d.list(key, n)
		if !ok {
			return
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			s, ok := d.str(key, it)
			if !ok {
				continue
			}
			if checkEach != nil {
				d.check(it, key, checkEach(s))
			}
			out = append(out, s)
		}
		*dst = out
	}
}

func (d *decoder) integer(key string, n ast.Node, lo, hi int64) (int64, bool) {
	in, ok := n.(*ast.IntegerNode)
	if !ok {
		d.errorf(n, "%s: expected a whole number from %d to %d, got %s", key, lo, hi, describe(n))
		return 0, false
	}
	var v int64
	switch x := in.Value.(type) {
	case int64:
		v = x
	case uint64:
		if x > 1<<62 {
			v = 1 << 62
		} else {
			v = int64(x)
		}
	}
	if msg := checkRange(v, lo, hi); msg != "" {
		d.check(n, key, msg)
		return 0, false
	}
	return v, true
}

func intField[T int | int64](dst *T, lo, hi int64) field {
	return func(d *decoder, key string, n ast.Node) {
		if v, ok := d.integer(key, n, lo, hi); ok {
			*dst = T(v)
		}
	}
}

func boolField(dst *bool) field {
	return func(d *decoder, key string, n ast.Node) {
		b, ok := n.(*ast.BoolNode)
		if !ok {
			d.errorf(n, "%s: expected true or false, got %s", key, describe(n))
			return
		}
		*dst = b.Value
	}
}

func strField(dst *string, checkFn func(string) string) field {
	return func(d *decoder, key string, n ast.Node) {
		if s, ok := d.str(key, n); ok {
			if checkFn != nil {
				d.check(n, key, checkFn(s))
			}
			*dst = s
		}
	}
}

// fields maps each top-level key to the decoder that fills c.
func (c *Config) fields() map[string]field {
	return map[string]field{
		"languages": func(d *decoder, key string, n ast.Node) {
			d.strList(&c.Languages, checkLanguage)(d, key, n)
			if len(c.Languages) == 0 {
				d.check(n, key, checkLanguageList(c.Languages))
			}
		},
		"include": func(d *decoder, key string, n ast.Node) {
			d.strList(&c.Include, checkGlob)(d, key, n)
			if len(c.Include) == 0 {
				d.check(n, key, checkNonEmpty(c.Include, `["**"]`))
			}
		},
		"exclude":            func(d *decoder, key string, n ast.Node) { d.strList(&c.Exclude, checkGlob)(d, key, n) },
		"secrets_exclude":    func(d *decoder, key string, n ast.Node) { d.strList(&c.SecretsExclude, checkGlob)(d, key, n) },
		"max_file_size":      intField(&c.MaxFileSize, minMaxFileSize, maxMaxFileSize),
		"max_file_work":      intField(&c.MaxFileWork, minMaxFileWork, maxMaxFileWork),
		"max_file_ms":        intField(&c.MaxFileMS, minMaxFileMS, maxMaxFileMS),
		"max_file_memory_mb": intField(&c.MaxFileMemoryMB, minMaxFileMemoryMB, maxMaxFileMemoryMB),
		"chunk_budget":       intField(&c.ChunkBudget, minChunkBudget, maxChunkBudget),
		"retain_revs":        intField(&c.RetainRevs, minRetainRevs, maxRetainRevs),
		"max_memory_mb":      intField(&c.MaxMemoryMB, minMaxMemoryMB, maxMaxMemoryMB),
		"respect_gitignore":  boolField(&c.RespectGitignore),
		"database": func(d *decoder, key string, n ast.Node) {
			d.mapping(n, key+".", c.Database.fields())
		},
		"co_change": func(d *decoder, key string, n ast.Node) {
			d.mapping(n, key+".", map[string]field{
				"commits":   intField(&c.CoChange.Commits, 0, maxCoChangeCommits),
				"max_files": intField(&c.CoChange.MaxFiles, minCoChangeMaxFiles, maxCoChangeMaxFiles),
			})
		},
		"dataflow": func(d *decoder, key string, n ast.Node) {
			d.mapping(n, key+".", map[string]field{
				"enabled":            boolField(&c.DataFlow.Enabled),
				"max_function_lines": intField(&c.DataFlow.MaxFunctionLines, minMaxFunctionLines, maxMaxFunctionLines),
				"max_memory_mb":      intField(&c.DataFlow.MaxMemoryMB, minDataflowMemoryMB, maxDataflowMemoryMB),
				"max_ms":             intField(&c.DataFlow.MaxMS, minDataflowMS, maxDataflowMS),
				"models": func(d *decoder, key string, n ast.Node) {
					m := &dataflow.Models{}
					d.mapping(n, key+".", map[string]field{
						"sources":    d.flowModels(&m.Sources),
						"sinks":      d.flowModels(&m.Sinks),
						"sanitizers": d.callModels(&m.Sanitizers),
					})
					c.DataFlow.Models = m
				},
			})
		},
		"embeddings": func(d *decoder, key string, n ast.Node) {
			d.mapping(n, key+".", map[string]field{
				"model": strField(&c.Embeddings.Model, nil),
				"path":  strField(&c.Embeddings.Path, nil),
				"dim":   intField(&c.Embeddings.Dim, 0, maxEmbeddingDim),
			})
			d.check(keyNode(n, "model"), key+".model", checkEmbeddings(c.Embeddings))
		},
	}
}

// entries returns the key/value pairs of a mapping whose keys are names the
// user chooses (model names), reporting duplicates.
func (d *decoder) entries(key string, n ast.Node) []*ast.MappingValueNode {
	var vals []*ast.MappingValueNode
	switch t := n.(type) {
	case *ast.MappingNode:
		vals = t.Values
	case *ast.MappingValueNode:
		vals = []*ast.MappingValueNode{t}
	default:
		d.errorf(n, "%s: expected a mapping of names to models, got %s", key, describe(n))
		return nil
	}
	seen := map[string]bool{}
	out := vals[:0:0]
	for _, mv := range vals {
		name := mv.Key.String()
		if s, ok := unwrap(mv.Key).(*ast.StringNode); ok {
			name = s.Value
		}
		if seen[name] {
			d.errorf(mv.Key, "duplicate key %q: keep only one", key+"."+name)
			continue
		}
		seen[name] = true
		out = append(out, mv)
	}
	return out
}

// flowModels decodes dataflow.models.sources or .sinks: a mapping of model
// names to {superglobals, calls, outputs}.
func (d *decoder) flowModels(dst *map[string]dataflow.Model) field {
	return func(d *decoder, key string, n ast.Node) {
		out := map[string]dataflow.Model{}
		for _, mv := range d.entries(key, n) {
			name := mv.Key.String()
			if s, ok := unwrap(mv.Key).(*ast.StringNode); ok {
				name = s.Value
			}
			k := key + "." + name
			d.check(mv.Key, k, checkModelName(name))
			var md dataflow.Model
			if v := unwrap(mv.Value); !isNull(v) {
				d.mapping(v, k+".", map[string]field{
					"superglobals": d.strList(&md.Superglobals, func(s string) string { return checkOneOf("superglobal", s, dataflow.Superglobals) }),
					"outputs":      d.strList(&md.Outputs, func(s string) string { return checkOneOf("output", s, dataflow.Outputs) }),
					"calls":        d.callModels(&md.Calls),
				})
			}
			if len(md.Superglobals)+len(md.Outputs)+len(md.Calls) == 0 {
				d.errorf(mv.Key, "%s: a model needs superglobals, calls or outputs", k)
			}
			out[name] = md
		}
		*dst = out
	}
}

// callModels decodes a list of {function | method, receivers, literal}.
func (d *decoder) callModels(dst *[]dataflow.CallModel) field {
	return func(d *decoder, key string, n ast.Node) {
		items, ok := d.list(key, n)
		if !ok {
			return
		}
		out := make([]dataflow.CallModel, 0, len(items))
		for i, it := range items {
			var cm dataflow.CallModel
			k := fmt.Sprintf("%s[%d]", key, i)
			d.mapping(it, k+".", map[string]field{
				"function":  strField(&cm.Function, nil),
				"method":    strField(&cm.Method, nil),
				"receivers": d.strList(&cm.Receivers, nil),
				"literal":   strField(&cm.Literal, nil),
			})
			d.check(it, k, checkCallModel(cm))
			out = append(out, cm)
		}
		*dst = out
	}
}

func (db *DatabaseConfig) fields() map[string]field {
	return map[string]field{
		"table_prefixes": func(d *decoder, key string, n ast.Node) { d.strList(&db.TablePrefixes, nil)(d, key, n) },
		"schema_files":   func(d *decoder, key string, n ast.Node) { d.strList(&db.SchemaFiles, checkGlob)(d, key, n) },
		"sources": func(d *decoder, key string, n ast.Node) {
			items, ok := d.list(key, n)
			if !ok {
				return
			}
			seen := map[string]bool{}
			db.Sources = make([]DBSource, 0, len(items))
			for i, it := range items {
				var s DBSource
				k := fmt.Sprintf("%s[%d]", key, i)
				d.mapping(it, k+".", map[string]field{
					"name":         strField(&s.Name, nil),
					"driver":       strField(&s.Driver, checkDriver),
					"dsn":          strField(&s.DSN, checkDSN),
					"password_env": strField(&s.PasswordEnv, checkEnvName),
				})
				d.check(it, k+".name", checkSourceName(s.Name, seen))
				if s.Driver == "" {
					d.check(it, k+".driver", checkDriver(s.Driver))
				}
				db.Sources = append(db.Sources, s)
			}
		},
	}
}
