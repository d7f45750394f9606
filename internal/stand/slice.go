// This file is M4 (FT-42): slice compression. For sampled functions and
// methods, the tokens of ragraf's slice answer against the tokens an agent
// would read instead: the symbol's whole file plus the bodies (PHP's
// tokenizer's ranges) of the functions the slice crosses in other files.

package stand

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/ragraf/ragraf/internal/facade"
)

// M4 is slice compression.
type M4 struct {
	Compression *float64  `json:"compression"` // median of slice ÷ surroundings tokens
	Mean        *float64  `json:"mean"`
	Ratios      []float64 `json:"ratios,omitempty"`
	Empty       int       `json:"empty"` // slices with no node, left out of the ratio
	Method      string    `json:"method"`
	Sample      int       `json:"sample"`
	Seed        uint64    `json:"seed"`
	Reason      string    `json:"reason,omitempty"`
}

const m4Method = "for sampled functions and methods (bodies of at least 4 lines, by PHP's tokenizer), `slice` by id (backward, default depth) as MCP sends it, " +
	"in cl100k tokens, divided by the tokens of the symbol's file plus the bodies of the functions the slice crosses in other files; compression is the median ratio"

func (s *stand) sliceCompression(ctx context.Context) (*M4, error) {
	m := &M4{Method: m4Method, Seed: s.opts.Seed}
	if !s.rep.Capability.Dataflow {
		m.Reason = "the revision has no data flow: " + s.rep.Capability.Reason
		return m, nil
	}
	var cands []Decl
	for _, d := range s.truth.Decls {
		if (d.Kind == "function" || d.Kind == "method") && d.End-d.Line >= 4 {
			cands = append(cands, d)
		}
	}
	rng := rand.New(rand.NewPCG(s.opts.Seed, s.opts.Seed^0xf4))
	byPath := map[string][]Decl{}
	for _, d := range s.truth.Decls {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	var ratios []float64
	for _, d := range sample(cands, s.opts.Slices, rng) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id, err := s.idOf(ctx, d)
		if err != nil {
			return nil, err
		}
		if id == "" {
			continue
		}
		ans, err := s.ask.call(ctx, "slice", map[string]any{"id": id})
		if err != nil {
			fe := facade.AsError(err)
			if fe.Code == facade.ErrCapability {
				m.Reason = fe.Message
				return m, nil
			}
			if fe.Code == facade.ErrInternal {
				return nil, err
			}
			continue
		}
		m.Sample++
		res, _ := ans.Result.(map[string]any)
		if nodes, _ := res["nodes"].([]any); len(nodes) == 0 {
			m.Empty++
			continue
		}
		surr := readText(s.tree, d.Path)
		fns, _ := res["functions"].([]any)
		for _, f := range fns {
			fm, _ := f.(map[string]any)
			p, _ := fm["path"].(string)
			l, _ := fm["line"].(float64)
			if p == "" || p == d.Path {
				continue
			}
			surr += body(s.tree, p, int(l), byPath[p])
		}
		n, err := tokens(surr)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			ratios = append(ratios, round(float64(ans.Tokens)/float64(n)))
		}
	}
	m.Ratios = ratios
	if q := quantiles(ratios); q != nil {
		m.Compression, m.Mean = &q.P50, &q.Mean
	} else if m.Reason == "" {
		m.Reason = "no slice with nodes among the sampled symbols"
	}
	return m, nil
}

// idOf finds ragraf's id of a tokenizer declaration: the definition of that
// name in that file whose lines hold the declaration's first line.
func (s *stand) idOf(ctx context.Context, d Decl) (string, error) {
	// the stand's own lookup, not an agent's question: detailed, for the line range
	ans, err := s.ask.call(ctx, "symbol", map[string]any{"name": d.Name, "path": d.Path, "format": "detailed"})
	if err != nil {
		if facade.AsError(err).Code != facade.ErrInternal {
			return "", nil
		}
		return "", err
	}
	m, _ := ans.Result.(map[string]any)
	syms, _ := m["symbols"].([]any)
	for _, x := range syms {
		sm, _ := x.(map[string]any)
		l, _ := sm["line"].(float64)
		e, _ := sm["end_line"].(float64)
		if int(l) <= d.Line+lead && d.Line <= max(int(e), int(l)) && int(l) >= d.Line-lead {
			id, _ := sm["id"].(string)
			return id, nil
		}
	}
	return "", nil
}

func readText(root, p string) string {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	return string(b)
}

// body is the text of the declaration in decls whose lines hold line.
func body(root, p string, line int, decls []Decl) string {
	for _, d := range decls {
		if (d.Kind == "function" || d.Kind == "method") && d.Line-lead <= line && line <= d.End {
			ls := strings.Split(readText(root, p), "\n")
			if d.End <= len(ls) {
				return strings.Join(ls[d.Line-1:d.End], "\n") + "\n"
			}
		}
	}
	return ""
}
