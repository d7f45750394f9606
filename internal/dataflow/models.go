// This file loads the models of sources, sinks and sanitizers (models.yaml,
// shipped in the binary) and matches IR nodes against them.

package dataflow

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
)

//go:embed models.yaml
var modelsYAML []byte

// CallModel matches a call: a plain function by name, or a method by name on
// one of Receivers (any receiver when empty); Literal, when set, must be the
// call's first argument.
type CallModel struct {
	Function  string   `yaml:"function"`
	Method    string   `yaml:"method"`
	Receivers []string `yaml:"receivers"`
	Literal   string   `yaml:"literal"`
}

// Model is one named source or sink.
type Model struct {
	Superglobals []string    `yaml:"superglobals"`
	Calls        []CallModel `yaml:"calls"`
	Outputs      []string    `yaml:"outputs"`
}

// Models are every source, sink and sanitizer known.
type Models struct {
	Sources    map[string]Model `yaml:"sources"`
	Sinks      map[string]Model `yaml:"sinks"`
	Sanitizers []CallModel      `yaml:"sanitizers"`
}

// DefaultModels returns the models shipped in the binary.
func DefaultModels() (*Models, error) {
	var m Models
	if err := yaml.UnmarshalWithOptions(modelsYAML, &m, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("decoding models.yaml: %w", err)
	}
	return &m, nil
}

// Superglobals and Outputs are the names a Model's superglobals and outputs
// may hold: what the lowering reads as a superglobal and names an output
// statement.
var (
	Superglobals = []string{"_GET", "_POST", "_REQUEST", "_COOKIE", "_FILES", "_SERVER", "_ENV", "_SESSION", "GLOBALS"}
	Outputs      = []string{"echo", "print", "backtick", "include", "include_once", "require", "require_once"}
)

// With returns the models of m extended by extra (a project's
// dataflow.models): a source or sink of a name m has gains extra's
// superglobals, calls and outputs; a new name is added; extra's sanitizers
// follow m's. m is not changed; a nil extra returns m.
func (m *Models) With(extra *Models) *Models {
	if extra == nil {
		return m
	}
	join := func(a, b map[string]Model) map[string]Model {
		out := make(map[string]Model, len(a)+len(b))
		for k, v := range a {
			out[k] = v
		}
		for k, v := range b {
			o := out[k]
			out[k] = Model{
				Superglobals: append(slices.Clip(o.Superglobals), v.Superglobals...),
				Calls:        append(slices.Clip(o.Calls), v.Calls...),
				Outputs:      append(slices.Clip(o.Outputs), v.Outputs...),
			}
		}
		return out
	}
	return &Models{
		Sources:    join(m.Sources, extra.Sources),
		Sinks:      join(m.Sinks, extra.Sinks),
		Sanitizers: append(slices.Clip(m.Sanitizers), extra.Sanitizers...),
	}
}

// SourceNames and SinkNames list the model names, sorted.
func (m *Models) SourceNames() []string { return keys(m.Sources) }

// SinkNames lists the sink model names, sorted.
func (m *Models) SinkNames() []string { return keys(m.Sinks) }

func keys(m map[string]Model) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c CallModel) match(call *Call) bool {
	if call.Dynamic {
		return false
	}
	if c.Function != "" {
		if call.Method || !strings.EqualFold(c.Function, call.Name) {
			return false
		}
	} else {
		if !call.Method || !strings.EqualFold(c.Method, call.Name) {
			return false
		}
		if len(c.Receivers) > 0 && !anyFold(c.Receivers, call.Receiver) {
			return false
		}
	}
	return c.Literal == "" || c.Literal == call.Literal
}

func anyFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// isSource reports whether node i of f is a source of model m.
func (m Model) isSource(f *Func, i int) bool {
	n := &f.Nodes[i]
	switch n.Loc.Kind {
	case Superglobal:
		return anyFold(m.Superglobals, n.Loc.Name)
	case CallResult:
		if n.Call < 0 {
			return false // a cast
		}
		c := &f.Calls[n.Call]
		for _, cm := range m.Calls {
			if cm.match(c) {
				return true
			}
		}
	}
	return false
}

// isSink reports whether node i of f is an operand of sink model m.
func (m Model) isSink(f *Func, i int) bool {
	n := &f.Nodes[i]
	switch n.Loc.Kind {
	case Output:
		return anyFold(m.Outputs, n.Loc.Name)
	case Arg:
		if n.Call < 0 {
			return false
		}
		c := &f.Calls[n.Call]
		for _, cm := range m.Calls {
			if cm.match(c) {
				return true
			}
		}
	}
	return false
}

// sanitizer names the sanitizer call c is, or "".
func (m *Models) sanitizer(c *Call) string {
	for _, s := range m.Sanitizers {
		if s.match(c) {
			if c.Method {
				return "->" + c.Name
			}
			return c.Name
		}
	}
	return ""
}
