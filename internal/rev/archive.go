// This file archives a revision's drift ledger when `reindex --commit`
// publishes the next one (FT-32, FT-33): the entries and their
// acknowledgements are copied into drift_archive, and a report for a person,
// .ragraf/archive/rev-A..rev-B.md with the same content as .json, says what
// changed in the knowledge. publish.go calls archive before rotating, while
// the parent revision is still on disk. Nothing is removed from the ledger:
// the new revision's active ledger is empty because entries are keyed by
// revision.

package rev

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// Report is the archive report of one reindex.
type Report struct {
	From            string          `json:"from"`
	To              string          `json:"to"`
	CreatedAt       string          `json:"created_at"`
	Ledger          LedgerCounts    `json:"ledger"`
	Files           []FileChange    `json:"files"`
	Symbols         SymbolChanges   `json:"symbols"`
	Stale           StaleSummary    `json:"stale"`
	SliceBoundaries []control.Entry `json:"slice_boundaries"`
	SchemaChanges   []control.Entry `json:"schema_changes"`
	Notes           []control.Entry `json:"notes"`
	Acks            []AckLine       `json:"acknowledgements"`
}

// LedgerCounts sums up the archived ledger.
type LedgerCounts struct {
	Entries  int            `json:"entries"`
	Unacked  int            `json:"unacked"`
	ByKind   map[string]int `json:"by_kind"`
	ByMethod map[string]int `json:"by_method"`
}

// FileChange is one file that differs between the two revisions.
type FileChange struct {
	Path    string   `json:"path"`
	Change  string   `json:"change"` // added | removed | modified | renamed
	OldPath string   `json:"old_path,omitempty"`
	Entries []string `json:"entries"` // ledger entries that recorded it
	Lines   [][2]int `json:"lines"`   // changed ranges in the old revision, from the ledger
}

// SymbolChanges lists declarations added, removed, or with a new signature.
type SymbolChanges struct {
	Added     []SymbolChange `json:"added"`
	Removed   []SymbolChange `json:"removed"`
	Signature []SymbolChange `json:"signature_changed"`
}

// SymbolChange is one declaration.
type SymbolChange struct {
	Kind   string `json:"kind"`
	QName  string `json:"qname"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	OldSig string `json:"old_signature,omitempty"`
	NewSig string `json:"new_signature,omitempty"`
}

// StaleSummary is what was stale in the old revision while the tree drifted.
type StaleSummary struct {
	Edges    int            `json:"edges"`
	ByReason map[string]int `json:"edges_by_reason"`
	Symbols  []StaleSymbol  `json:"symbols"` // facts that answers flagged as stale
}

// StaleSymbol is a declaration of the old revision a ledger entry touched.
type StaleSymbol struct {
	Kind    string   `json:"kind"`
	QName   string   `json:"qname"`
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	Entries []string `json:"entries"`
}

// AckLine is one acknowledgement with its entry.
type AckLine struct {
	EntryID string `json:"entry_id"`
	Kind    string `json:"kind"`
	Path    string `json:"path"`
	Note    string `json:"note"`
	AckedAt string `json:"acked_at"`
}

// ReportName is the base name of the report of the reindex from -> to.
func ReportName(from, to string) string { return from + ".." + to }

func archive(ctx context.Context, l Layout, ctl *control.Store, parent string, info Info, now time.Time) error {
	rep, err := buildReport(ctx, l, ctl, parent, info.Rev, now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.Archive(), 0o755); err != nil {
		return err
	}
	base := filepath.Join(l.Archive(), ReportName(parent, info.Rev))
	js, _ := json.MarshalIndent(rep, "", "  ")
	if err := writeAtomic(base+".json", append(js, '\n')); err != nil {
		return err
	}
	if err := writeAtomic(base+".md", []byte(rep.Markdown())); err != nil {
		return err
	}
	_, err = ctl.AppendArchive(ctx, parent, info.Rev, filepath.ToSlash(filepath.Join("archive", ReportName(parent, info.Rev)+".md")), now)
	return err
}

func buildReport(ctx context.Context, l Layout, ctl *control.Store, from, to string, now time.Time) (Report, error) {
	rep := Report{From: from, To: to, CreatedAt: now.UTC().Format(time.RFC3339),
		Ledger: LedgerCounts{ByKind: map[string]int{}, ByMethod: map[string]int{}},
		Files:  []FileChange{}, Symbols: SymbolChanges{Added: []SymbolChange{}, Removed: []SymbolChange{}, Signature: []SymbolChange{}},
		Stale:           StaleSummary{ByReason: map[string]int{}, Symbols: []StaleSymbol{}},
		SliceBoundaries: []control.Entry{}, SchemaChanges: []control.Entry{}, Notes: []control.Entry{}, Acks: []AckLine{}}
	entries, err := ctl.Entries(ctx, control.Filter{Revision: from})
	if err != nil {
		return rep, err
	}
	oldG, err := graph.Open(ctx, filepath.Join(l.Rev(from), GraphDB))
	if err != nil {
		return rep, err
	}
	defer oldG.Close()
	newG, err := graph.Open(ctx, filepath.Join(l.Rev(to), GraphDB))
	if err != nil {
		return rep, err
	}
	defer newG.Close()

	// the ledger
	byPath := map[string][]control.Entry{}
	touched := map[string][]string{} // node id -> entry ids
	for _, e := range entries {
		rep.Ledger.Entries++
		rep.Ledger.ByKind[e.Kind]++
		rep.Ledger.ByMethod[e.Method]++
		if len(e.Acks) == 0 {
			rep.Ledger.Unacked++
		}
		for _, a := range e.Acks {
			rep.Acks = append(rep.Acks, AckLine{EntryID: e.ID, Kind: e.Kind, Path: e.Path, Note: a.Note, AckedAt: a.AckedAt})
		}
		switch e.Kind {
		case "slice_boundary":
			rep.SliceBoundaries = append(rep.SliceBoundaries, e)
		case "schema_change":
			rep.SchemaChanges = append(rep.SchemaChanges, e)
		case "note":
			rep.Notes = append(rep.Notes, e)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
		if e.OldPath != "" {
			byPath[e.OldPath] = append(byPath[e.OldPath], e)
		}
		for _, id := range e.Nodes {
			touched[id] = append(touched[id], e.ID)
		}
	}

	// files, from the two revisions' file tables
	oldFiles, err := oldG.Files(ctx)
	if err != nil {
		return rep, err
	}
	newFiles, err := newG.Files(ctx)
	if err != nil {
		return rep, err
	}
	oldBy := map[string]graph.File{}
	for _, f := range oldFiles {
		oldBy[f.Path] = f
	}
	newBy := map[string]graph.File{}
	for _, f := range newFiles {
		newBy[f.Path] = f
	}
	renamedFrom := map[string]string{} // new path -> old path
	for _, e := range entries {
		if e.Kind == "rename" {
			if _, still := newBy[e.OldPath]; still {
				continue // the old path came back: not a rename after all
			}
			renamedFrom[e.Path] = e.OldPath
		}
	}
	var changed []string
	for _, f := range newFiles {
		o, ok := oldBy[f.Path]
		switch {
		case !ok:
			changed = append(changed, f.Path)
		case o.Hash != f.Hash:
			changed = append(changed, f.Path)
		}
	}
	for _, f := range oldFiles {
		if _, ok := newBy[f.Path]; !ok {
			changed = append(changed, f.Path)
		}
	}
	sort.Strings(changed)
	renamedOld := map[string]bool{}
	for _, o := range renamedFrom {
		renamedOld[o] = true
	}
	for _, p := range changed {
		fc := FileChange{Path: p, Entries: []string{}, Lines: [][2]int{}}
		_, inOld := oldBy[p]
		_, inNew := newBy[p]
		switch {
		case renamedFrom[p] != "":
			fc.Change, fc.OldPath = "renamed", renamedFrom[p]
		case renamedOld[p]:
			continue // reported under its new path
		case !inOld:
			fc.Change = "added"
		case !inNew:
			fc.Change = "removed"
		default:
			fc.Change = "modified"
		}
		for _, e := range byPath[p] {
			fc.Entries = append(fc.Entries, e.ID)
			if e.Kind == "modify" || e.Kind == "rename" {
				fc.Lines = e.Lines // the latest delta against the old revision
			}
		}
		rep.Files = append(rep.Files, fc)
	}

	// symbols of the changed files
	for _, fc := range rep.Files {
		oldPath := fc.Path
		if fc.OldPath != "" {
			oldPath = fc.OldPath
		}
		var before, after []fact.Node
		if fc.Change != "added" {
			if before, err = oldG.NodesInFile(ctx, oldPath); err != nil {
				return rep, err
			}
		}
		if fc.Change != "removed" {
			if after, err = newG.NodesInFile(ctx, fc.Path); err != nil {
				return rep, err
			}
		}
		diffSymbols(&rep.Symbols, before, after)
	}

	// what went stale
	stale, err := ctl.StaleEdges(ctx, from)
	if err != nil {
		return rep, err
	}
	seenEdge := map[string]bool{}
	for _, e := range stale {
		if !seenEdge[e.EdgeID] {
			seenEdge[e.EdgeID] = true
			rep.Stale.Edges++
			rep.Stale.ByReason[e.Reason]++
		}
	}
	ids := make([]string, 0, len(touched))
	for id := range touched {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		n, ok, err := oldG.Node(ctx, id)
		if err != nil {
			return rep, err
		}
		if !ok || n.Kind == fact.File || n.Kind == fact.Namespace {
			continue
		}
		rep.Stale.Symbols = append(rep.Stale.Symbols, StaleSymbol{Kind: string(n.Kind), QName: n.QName, Path: n.Path, Line: n.StartLine, Entries: touched[id]})
	}
	sort.SliceStable(rep.Stale.Symbols, func(i, j int) bool {
		a, b := rep.Stale.Symbols[i], rep.Stale.Symbols[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	return rep, nil
}

// diffSymbols compares a file's declarations before and after by kind and
// qualified name.
func diffSymbols(out *SymbolChanges, before, after []fact.Node) {
	key := func(n fact.Node) string { return string(n.Kind) + " " + n.QName }
	old := map[string]fact.Node{}
	for _, n := range before {
		if n.Kind != fact.File {
			old[key(n)] = n
		}
	}
	now := map[string]bool{}
	for _, n := range after {
		if n.Kind == fact.File {
			continue
		}
		now[key(n)] = true
		o, ok := old[key(n)]
		switch {
		case !ok:
			out.Added = append(out.Added, SymbolChange{Kind: string(n.Kind), QName: n.QName, Path: n.Path, Line: n.StartLine, NewSig: n.Signature})
		case o.Signature != n.Signature:
			out.Signature = append(out.Signature, SymbolChange{Kind: string(n.Kind), QName: n.QName, Path: n.Path, Line: n.StartLine, OldSig: o.Signature, NewSig: n.Signature})
		}
	}
	for _, n := range before {
		if n.Kind != fact.File && !now[key(n)] {
			out.Removed = append(out.Removed, SymbolChange{Kind: string(n.Kind), QName: n.QName, Path: n.Path, Line: n.StartLine, OldSig: n.Signature})
		}
	}
}

// Markdown renders the report for a person.
func (r Report) Markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Knowledge changes %s → %s\n\n", r.From, r.To)
	w("Reindexed at %s. The drift ledger of %s had %d entries (%d unacknowledged)", r.CreatedAt, r.From, r.Ledger.Entries, r.Ledger.Unacked)
	if len(r.Ledger.ByMethod) > 0 {
		w(", detected by %s", countList(r.Ledger.ByMethod))
	}
	w(".\n\n## Changes by file\n\n")
	if len(r.Files) == 0 {
		w("No file changed.\n")
	}
	for _, f := range r.Files {
		line := fmt.Sprintf("- `%s`: %s", f.Path, f.Change)
		if f.OldPath != "" {
			line += fmt.Sprintf(" from `%s`", f.OldPath)
		}
		if len(f.Lines) > 0 {
			line += ", lines " + rangeList(f.Lines) + " of " + r.From
		}
		if len(f.Entries) > 0 {
			line += " (" + strings.Join(f.Entries, ", ") + ")"
		} else {
			line += " (not in the ledger)"
		}
		w("%s\n", line)
	}
	w("\n## Symbols\n\n")
	if len(r.Symbols.Added)+len(r.Symbols.Removed)+len(r.Symbols.Signature) == 0 {
		w("No declaration added, removed or changed its signature.\n")
	}
	for _, s := range r.Symbols.Added {
		w("- added %s `%s` at %s:%d\n", s.Kind, s.QName, s.Path, s.Line)
	}
	for _, s := range r.Symbols.Removed {
		w("- removed %s `%s` (was at %s:%d)\n", s.Kind, s.QName, s.Path, s.Line)
	}
	for _, s := range r.Symbols.Signature {
		w("- signature of %s `%s` at %s:%d: `%s` → `%s`\n", s.Kind, s.QName, s.Path, s.Line, s.OldSig, s.NewSig)
	}
	w("\n## What went stale\n\n")
	w("%d edges of %s were recorded stale", r.Stale.Edges, r.From)
	if len(r.Stale.ByReason) > 0 {
		w(" (%s)", countList(r.Stale.ByReason))
	}
	w(". Answers citing these declarations carried stale warnings until this reindex:\n\n")
	if len(r.Stale.Symbols) == 0 {
		w("- none\n")
	}
	for _, s := range r.Stale.Symbols {
		w("- %s `%s` at %s:%d (%s)\n", s.Kind, s.QName, s.Path, s.Line, strings.Join(s.Entries, ", "))
	}
	w("\n## Slice boundaries\n\n")
	entryList(&b, r.SliceBoundaries)
	w("\n## Schema changes\n\n")
	entryList(&b, r.SchemaChanges)
	w("\n## Notes\n\n")
	entryList(&b, r.Notes)
	w("\n## Acknowledgements\n\n")
	if len(r.Acks) == 0 {
		w("- none\n")
	}
	for _, a := range r.Acks {
		w("- %s (%s `%s`) at %s: %s\n", a.EntryID, a.Kind, a.Path, a.AckedAt, a.Note)
	}
	return b.String()
}

func entryList(b *strings.Builder, es []control.Entry) {
	if len(es) == 0 {
		b.WriteString("- none\n")
	}
	for _, e := range es {
		fmt.Fprintf(b, "- %s `%s`", e.ID, e.Path)
		if len(e.Lines) > 0 {
			fmt.Fprintf(b, " lines %s", rangeList(e.Lines))
		}
		if e.Note != "" {
			fmt.Fprintf(b, ": %s", e.Note)
		}
		b.WriteString("\n")
	}
}

func rangeList(rs [][2]int) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		if r[0] == r[1] {
			parts[i] = fmt.Sprint(r[0])
		} else {
			parts[i] = fmt.Sprintf("%d-%d", r[0], r[1])
		}
	}
	return strings.Join(parts, ", ")
}

func countList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
