// This file builds impact's co_changed block from the history a revision
// mined (package cochange): the files and definitions that changed in the
// same commits as the target, derived, with support, confidence and the
// commits as evidence.

package facade

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/ragraf/ragraf/internal/cochange"
	"github.com/ragraf/ragraf/internal/fact"
)

// CoChanged is impact's co_changed block. Basis says what the commits were
// counted for: "definition" (the commits that changed the target's
// function or method) or "file" (those that changed its file; a type, a
// file, or a definition the window never changed alone).
type CoChanged struct {
	Provenance string            `json:"provenance"` // derived
	Basis      string            `json:"basis,omitempty"`
	Commits    int               `json:"commits"` // commits in the mined window
	With       int               `json:"with"`    // of them, those that changed the target
	Files      []CoChangedFile   `json:"files"`
	Symbols    []CoChangedSymbol `json:"symbols"`
	Reason     string            `json:"reason,omitempty"` // why there is no history
}

// CoChangedFile is one file changed with the target: in Support of the
// target's commits (Confidence = Support / With), Commits the newest of them.
type CoChangedFile struct {
	Path       string   `json:"path"`
	Support    int      `json:"support"`
	Confidence float64  `json:"confidence"`
	Commits    []string `json:"commits"`
}

// CoChangedSymbol is one definition changed with the target.
type CoChangedSymbol struct {
	Symbol
	Support    int      `json:"support"`
	Confidence float64  `json:"confidence"`
	Commits    []string `json:"commits"`
}

// Co-change pairs below these are left out: a pair seen once is chance.
// Chosen on the Symfony demo's history (docs/measurements.md): support 2
// and confidence 0.3 keep 88 % of the hits of support 1 at 1.5 times the
// precision.
const (
	coMinSupport    = 2
	coMinConfidence = 0.3
	coMaxFiles      = 20
	coMaxSymbols    = 30
)

// history returns the revision's mined history, read once per revision.
func (s *Service) history(ctx context.Context, snap *snapshot) (*cochange.History, error) {
	return cached(ctx, snap, "cochange", func(context.Context) (*cochange.History, error) {
		h, err := cochange.Load(s.layout.Rev(snap.name))
		if err != nil {
			return nil, &Error{Code: ErrInternal, Message: err.Error()}
		}
		if h == nil {
			h = &cochange.History{Reason: "the revision was built without co-change history: run `ragraf reindex --commit`"}
		}
		return h, nil
	})
}

// coChanged builds the co_changed block of target t.
func (s *Service) coChanged(ctx context.Context, snap *snapshot, t Symbol) (*CoChanged, error) {
	h, err := s.history(ctx, snap)
	if err != nil {
		return nil, err
	}
	out := &CoChanged{Provenance: string(fact.Derived), Commits: len(h.Commits), Files: []CoChangedFile{}, Symbols: []CoChangedSymbol{}, Reason: h.Reason}
	if h.Reason != "" || t.Path == "" {
		return out, nil
	}
	def := t.Kind == string(fact.Method) || t.Kind == string(fact.Function)
	out.Basis = "file"
	var files, defs []cochange.Pair
	if def {
		out.With, files, defs = h.WithDef(cochange.Key(t.Path, t.Name))
		out.Basis = "definition"
	}
	if out.With == 0 {
		out.With, files, defs = h.WithFile(t.Path)
		out.Basis = "file"
	}
	for _, p := range files {
		if len(out.Files) == coMaxFiles {
			break
		}
		if p.Support < coMinSupport || p.Confidence < coMinConfidence || p.Key == t.Path {
			continue
		}
		if _, err := os.Stat(filepath.Join(s.root, filepath.FromSlash(p.Key))); err != nil {
			continue // gone since
		}
		out.Files = append(out.Files, CoChangedFile{Path: p.Key, Support: p.Support, Confidence: round3(p.Confidence), Commits: short(p.Commits)})
	}
	inFile := map[string][]fact.Node{}
	for _, p := range defs {
		if len(out.Symbols) == coMaxSymbols {
			break
		}
		if p.Support < coMinSupport || p.Confidence < coMinConfidence {
			continue
		}
		path, name, _ := strings.Cut(p.Key, "#")
		nodes, ok := inFile[path]
		if !ok {
			if nodes, err = snap.graph.NodesInFile(ctx, path); err != nil {
				return nil, storeError(err)
			}
			inFile[path] = nodes
		}
		for _, n := range nodes {
			if n.ID == t.ID || !strings.EqualFold(n.Name, name) || (n.Kind != fact.Method && n.Kind != fact.Function) {
				continue
			}
			out.Symbols = append(out.Symbols, CoChangedSymbol{Symbol: toSymbol(n, fact.Node{}), Support: p.Support,
				Confidence: round3(p.Confidence), Commits: short(p.Commits)})
		}
	}
	// fill the containers the answers show
	ids := make([]string, len(out.Symbols))
	for i, c := range out.Symbols {
		ids[i] = c.ID
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	for i := range out.Symbols {
		if sym := syms[out.Symbols[i].ID]; sym != nil {
			out.Symbols[i].Symbol = *sym
		}
	}
	return out, nil
}

func short(hashes []string) []string {
	out := make([]string, len(hashes))
	for i, h := range hashes {
		out[i] = h[:min(len(h), 12)]
	}
	return out
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
