// This file defines the ledger operations: drift (list), drift_detect,
// drift_record and drift_ack, the only operations that write, and only to
// control.sqlite (FT-35). Every detector's findings are recorded here.
// Stale warnings on other answers are in stale.go; the detectors in
// internal/drift; the ledger tables in internal/store/control/ledger.go.

package facade

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/store/control"
)

// DriftArgs filters the active ledger.
type DriftArgs struct {
	Path    string `json:"path,omitempty" jsonschema:"only entries for this project-relative path"`
	Kind    string `json:"kind,omitempty" jsonschema:"only entries of this kind: add, modify, delete, rename, slice_boundary, schema_change, note"`
	Unacked bool   `json:"unacked,omitempty" jsonschema:"only entries without an acknowledgement"`
	EntryID string `json:"entry_id,omitempty" jsonschema:"list this entry's acknowledgements, paged by limit and cursor (other answers carry an entry's latest 3 and acks_total)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"page size (default 100, max 1000)"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"limits.cursor of the last answer"`
	Output
}

// DriftResult lists one page of the active revision's ledger entries, oldest
// first (in the order they were recorded: entries recorded after the first
// page was cut come at the end).
type DriftResult struct {
	Rev     string          `json:"rev"`
	Entries []control.Entry `json:"entries"`
}

// DriftDetectArgs names the detector to run.
type DriftDetectArgs struct {
	Method string   `json:"method" jsonschema:"compare, git-diff, hook:session-start, hook:post-edit or db-schema-diff"`
	Paths  []string `json:"paths,omitempty" jsonschema:"check only these files (compare, hook:post-edit; required by hook:post-edit), e.g. [\"src/Cart.php\"]"`
	Output
}

// DriftDetectResult is what a detector found and what it added to the ledger.
type DriftDetectResult struct {
	Rev     string          `json:"rev"`
	Method  string          `json:"method"`
	Found   int             `json:"found"` // deltas seen now, recorded before or not
	Added   []control.Entry `json:"added"` // entries new to the ledger
	Changed []string        `json:"changed_paths"`
}

// DriftRecordArgs is a manual ledger entry.
type DriftRecordArgs struct {
	Path string `json:"path" jsonschema:"project-relative path the entry is about"`
	Kind string `json:"kind,omitempty" jsonschema:"entry kind (default note): add, modify, delete, rename, slice_boundary, schema_change, note"`
	Note string `json:"note,omitempty" jsonschema:"free text kept with the entry, at most 4096 bytes"`
	Output
}

// DriftAckArgs acknowledges an entry.
type DriftAckArgs struct {
	EntryID string `json:"entry_id" jsonschema:"id of the drift entry, e.g. d-1a2b3c4d5e6f7a8b"`
	Note    string `json:"note,omitempty" jsonschema:"why it is acknowledged, at most 4096 bytes"`
	Output
}

// DriftEntryResult is one entry with its acknowledgements.
type DriftEntryResult struct {
	Entry control.Entry `json:"entry"`
	Added bool          `json:"added"` // false when the same entry was already recorded
}

// configOrDefault loads the project's config, or the defaults when it has none
// (a config error also falls back: drift must not fail an answer over it).
func (s *Service) configOrDefault() config.Config {
	cfg, err := config.Load(s.cfgPath)
	if err != nil {
		return config.Default()
	}
	return cfg
}

// record appends the deltas found by method as ledger entries, and the edges
// they make stale; it returns the entries that were new.
func (s *Service) record(ctx context.Context, ctl *control.Store, snap *snapshot, method string, ds []drift.Delta) ([]control.Entry, error) {
	if method != drift.MethodManual {
		ds = s.withoutAgentFiles(ds)
	}
	if len(ds) == 0 {
		return nil, nil
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	entries := make([]control.Entry, len(ds))
	for i, d := range ds {
		entries[i] = control.Entry{Revision: snap.name, Method: method, Kind: d.Kind, Path: d.Path, OldPath: d.OldPath,
			Lines: d.Lines, Nodes: d.Nodes, Note: d.Note, ContentHash: d.ContentHash, DetectedAt: now, DedupKey: d.DedupKey}
	}
	added, err := ctl.AppendEntries(ctx, entries)
	if err != nil {
		return nil, storeError(err)
	}
	var stale []control.StaleEdge
	for _, e := range added {
		if e.Kind == drift.KindNote {
			continue
		}
		p := e.Path
		if e.OldPath != "" {
			p = e.OldPath
		}
		hits, err := snap.graph.AffectedEdges(ctx, p, e.Lines, e.Nodes)
		if err != nil {
			return nil, storeError(err)
		}
		for _, h := range hits {
			stale = append(stale, control.StaleEdge{Revision: snap.name, EdgeID: h.EdgeID, EntryID: e.ID, Reason: h.Reason, RecordedAt: now})
		}
	}
	if err := ctl.AppendStaleEdges(ctx, stale); err != nil {
		return nil, storeError(err)
	}
	return added, nil
}

// Drift lists the active revision's ledger.
func (s *Service) Drift(ctx context.Context, args DriftArgs) (*Envelope, error) {
	pg, err := paging("drift", args.Limit, args.Cursor, 100, 1000, args)
	if err != nil {
		return nil, err
	}
	if args.Kind != "" && !slices.Contains(drift.Kinds, args.Kind) {
		return nil, badInput("unknown kind %q: want one of %s", args.Kind, strings.Join(drift.Kinds, ", "))
	}
	if args.Path != "" {
		p, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		args.Path = p
	}
	c, err := s.begin(ctx, "drift", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	if args.EntryID != "" {
		return driftAcks(c, ctl, args.EntryID)
	}
	all, err := ctl.Entries(ctx, control.Filter{Revision: snap.name, Path: args.Path, Kind: args.Kind, Unacked: args.Unacked})
	if err != nil {
		return nil, storeError(err)
	}
	env := c.env
	shown := latestAcks(pageOf(pg, all))
	env.Result = DriftResult{Rev: snap.name, Entries: nz(shown)}
	env.Limits = pg.limits(snap, len(shown), len(all))
	env.NotFound = len(all) == 0
	c.cite(entryPaths(shown)...)
	return c.done(env.Result)
}

// shownAcks is how many acknowledgements an entry carries in a list: the
// latest; drift with entry_id pages through all of them.
const shownAcks = 3

// maxAcks bounds the acknowledgements of one entry: with notes of at most
// maxNoteBytes, an entry costs a bounded amount to store and to page.
const maxAcks = 100

// latestAcks keeps the latest shownAcks acknowledgements of each entry,
// with acks_total saying how many there are.
func latestAcks(es []control.Entry) []control.Entry {
	for i := range es {
		if n := len(es[i].Acks); n > shownAcks {
			es[i].AcksTotal = n
			es[i].Acks = es[i].Acks[n-shownAcks:]
		}
	}
	return es
}

// driftAcks is drift with entry_id: the entry, its acknowledgements paged.
func driftAcks(c *reply, ctl *control.Store, id string) (*Envelope, error) {
	got, err := ctl.Entries(c.ctx, control.Filter{IDs: []string{id}})
	if err != nil {
		return nil, storeError(err)
	}
	if len(got) != 1 {
		return nil, &Error{Code: ErrUnknownID, Message: fmt.Sprintf("no drift entry %q; list entries with the drift operation", id)}
	}
	e := got[0]
	all := e.Acks
	e.Acks, e.AcksTotal = nz(pageOf(c.pg, all)), len(all)
	c.page(len(e.Acks), len(all))
	c.cite(entryPaths(got)...)
	return c.done(DriftResult{Rev: c.snap.name, Entries: []control.Entry{e}})
}

func entryPaths(es []control.Entry) []string {
	var out []string
	for _, e := range es {
		if e.Kind != drift.KindSchemaChange {
			out = append(out, e.Path)
		}
	}
	return out
}

// DriftDetect runs one detector and records what it finds.
func (s *Service) DriftDetect(ctx context.Context, args DriftDetectArgs) (*Envelope, error) {
	if args.Method == "" {
		args.Method = drift.MethodCompare
	}
	if !slices.Contains(drift.Methods, args.Method) || args.Method == drift.MethodManual {
		return nil, badInput("unknown method %q: want compare, git-diff, hook:session-start, hook:post-edit or db-schema-diff", args.Method)
	}
	if args.Method == drift.MethodPostEdit && len(args.Paths) == 0 {
		return nil, badInput("method hook:post-edit takes paths: the files the edit wrote")
	}
	if len(args.Paths) > 0 && args.Method != drift.MethodPostEdit && args.Method != drift.MethodCompare {
		return nil, badInput("paths go with method compare or hook:post-edit, not %s", args.Method)
	}
	if len(args.Paths) > 100 {
		return nil, badInput("paths holds %d files; at most 100", len(args.Paths))
	}
	var paths []string
	for _, p := range args.Paths {
		c, err := s.cleanPath("paths", p)
		if err != nil {
			return nil, err
		}
		paths = append(paths, c)
	}
	c, err := s.begin(ctx, "drift_detect", pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	src, cfg := driftSource(snap), s.configOrDefault()
	var ds []drift.Delta
	switch {
	case len(paths) > 0:
		// the same deltas compare finds for these files, checked alone
		ck := s.checker(snap)
		for _, p := range paths {
			pds, _, cerr := ck.Check(ctx, p)
			if cerr != nil {
				err = cerr
				break
			}
			ds = append(ds, pds...)
		}
	case args.Method == drift.MethodCompare || args.Method == drift.MethodSessionStart:
		ds, err = drift.Compare(ctx, src, s.root, cfg)
	case args.Method == drift.MethodGitDiff:
		ds, err = drift.GitDiff(ctx, src, s.root, cfg)
		if errors.Is(err, drift.ErrNoGitHead) {
			return nil, badInput("%v; use method compare", err)
		}
	case args.Method == drift.MethodDBSchemaDiff:
		ds, err = drift.DBSchemaDiff(ctx, src, s.root, cfg)
		if errors.Is(err, drift.ErrDBSource) {
			return nil, badInput("%v", err)
		}
	}
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("running %s: %v", args.Method, err)}
	}
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	added, err := s.record(ctx, ctl, snap, args.Method, ds)
	if err != nil {
		return nil, err
	}
	res := DriftDetectResult{Rev: snap.name, Method: args.Method, Found: len(ds), Added: nz(added), Changed: []string{}}
	for _, d := range ds {
		if n := len(res.Changed); n == 0 || res.Changed[n-1] != d.Path {
			res.Changed = append(res.Changed, d.Path)
		}
	}
	env := c.env
	env.Result = res
	env.Limits = Limits{Limit: len(added), Returned: len(added), Total: len(added)}
	c.cite(filePaths(res.Changed)...)
	return c.done(env.Result)
}

// Applies reports whether entry e still describes the working tree, given
// the paths a compare has just found changed: a manual entry and a live
// database's always do; a file's only while the file (or, for a rename, its
// new path) differs from the revision. After switching back to the indexed
// branch no file entry applies.
func Applies(e control.Entry, changed map[string]bool) bool {
	return e.Method == drift.MethodManual || e.Method == drift.MethodDBSchemaDiff || strings.HasPrefix(e.Path, "db:") ||
		changed[e.Path]
}

// filePaths drops the "db:" paths of live databases, which no file check
// can answer.
func filePaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if !strings.HasPrefix(p, "db:") {
			out = append(out, p)
		}
	}
	return out
}

// DriftRecord appends a manual entry.
func (s *Service) DriftRecord(ctx context.Context, args DriftRecordArgs) (*Envelope, error) {
	if args.Kind == "" {
		args.Kind = drift.KindNote
	}
	if !slices.Contains(drift.Kinds, args.Kind) {
		return nil, badInput("unknown kind %q: want one of %s", args.Kind, strings.Join(drift.Kinds, ", "))
	}
	if args.Path == "" {
		return nil, badInput("path is required")
	}
	if err := checkNote(args.Note); err != nil {
		return nil, err
	}
	p, err := s.cleanPath("path", args.Path) // as strictly as the read operations (validate.go)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "drift_record", pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	d := drift.Delta{Kind: args.Kind, Path: p, Lines: [][2]int{}, Nodes: []string{}, Note: args.Note,
		DedupKey: drift.ManualKey(snap.name, args.Kind, p, args.Note)}
	added, err := s.record(ctx, ctl, snap, drift.MethodManual, []drift.Delta{d})
	if err != nil {
		return nil, err
	}
	got, err := ctl.Entries(ctx, control.Filter{IDs: []string{control.EntryID(d.DedupKey)}})
	if err != nil || len(got) != 1 {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading back the recorded entry: %v", err)}
	}
	env := c.env
	env.Result = DriftEntryResult{Entry: latestAcks(got)[0], Added: len(added) == 1}
	env.Limits = Limits{Limit: 1, Returned: 1, Total: 1}
	c.cite([]string{p}...)
	return c.done(env.Result)
}

// DriftAck acknowledges an entry; the entry stays unchanged (FT-36).
func (s *Service) DriftAck(ctx context.Context, args DriftAckArgs) (*Envelope, error) {
	if args.EntryID == "" {
		return nil, badInput("entry_id is required")
	}
	if err := checkNote(args.Note); err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "drift_ack", pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	if had, err := ctl.Entries(ctx, control.Filter{IDs: []string{args.EntryID}}); err != nil {
		return nil, storeError(err)
	} else if len(had) == 1 && len(had[0].Acks) >= maxAcks {
		return nil, badInput("entry %s already has %d acknowledgements, at most %d; list them with drift entry_id", args.EntryID, len(had[0].Acks), maxAcks)
	}
	if _, err := ctl.AppendAck(ctx, args.EntryID, args.Note, time.Now()); err != nil {
		if errors.Is(err, control.ErrUnknownEntry) {
			return nil, &Error{Code: ErrUnknownID, Message: fmt.Sprintf("no drift entry %q; list entries with the drift operation", args.EntryID)}
		}
		return nil, storeError(err)
	}
	got, err := ctl.Entries(ctx, control.Filter{IDs: []string{args.EntryID}})
	if err != nil || len(got) != 1 {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading back entry %s: %v", args.EntryID, err)}
	}
	env := c.env
	env.Result = DriftEntryResult{Entry: latestAcks(got)[0], Added: false}
	env.Limits = Limits{Limit: 1, Returned: 1, Total: 1}
	return c.done(env.Result)
}

// maxNoteBytes bounds a ledger note: every drift answer carries its notes.
const maxNoteBytes = 4096

func checkNote(note string) error {
	if len(note) > maxNoteBytes {
		return badInput("note is %d bytes, at most %d: keep the note short and put details in a file", len(note), maxNoteBytes)
	}
	return nil
}

// DriftOps lists the ledger operations in the form of Ops, for transports
// that serve them beside the read operations (they write, so they are kept
// apart from Ops and its read-only guarantees).
func DriftOps() []Op {
	return []Op{
		op[DriftArgs, DriftResult]("drift", (*Service).Drift),
		op[DriftDetectArgs, DriftDetectResult]("drift_detect", (*Service).DriftDetect),
		op[DriftRecordArgs, DriftEntryResult]("drift_record", (*Service).DriftRecord),
		op[DriftAckArgs, DriftEntryResult]("drift_ack", (*Service).DriftAck),
	}
}

// CallDrift runs the ledger operation name with JSON arguments, decoded as
// strictly as Call decodes the read operations'.
func (s *Service) CallDrift(ctx context.Context, name string, args []byte) (*Envelope, error) {
	for _, o := range DriftOps() {
		if o.Name == name {
			return o.run(ctx, s, args)
		}
	}
	var names []string
	for _, o := range append(Ops(), DriftOps()...) {
		names = append(names, o.Name)
	}
	return nil, &Error{Code: ErrUnknownOp, Message: fmt.Sprintf("unknown operation %q; the operations are %s", name, strings.Join(names, ", "))}
}
