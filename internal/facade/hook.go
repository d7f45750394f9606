// This file defines the two operations agents' hooks run, as typed results
// a caller renders: SessionStart (the current revision, its age, a git HEAD
// that moved since indexing, and the drift that still applies after
// detecting what changed) and PostEdit (each edited file checked against
// the index and recorded in the drift ledger, with the definitions the edit
// touched and their stated callers). `ragraf hook` renders them within its
// byte budgets.

package facade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
)

const (
	postEditMaxFiles = 5 // edited files checked at most
	postEditCallers  = 4 // touched definitions whose callers are listed
)

// SessionStartArgs are the inputs of SessionStart.
type SessionStartArgs struct {
	Now time.Time // for the revision's age; zero: time.Now()
}

// HeadMove is how git HEAD differs from the commit the index was built at.
type HeadMove struct {
	Head     string // HEAD's commit now
	Branch   string // "" when HEAD is detached
	Ancestor bool   // the indexed commit is an ancestor of Head (pull or commits)
	Commits  int    // commits from the indexed one to Head when Ancestor, else 0
}

// SessionStartResult is what a session starts with.
type SessionStartResult struct {
	NotIndexed bool          // the project has no index yet; nothing else is set
	Rev        string        // the current revision
	CreatedAt  string        // when it was built (RFC 3339), "" when unknown
	Age        time.Duration // since CreatedAt, when AgeKnown
	AgeKnown   bool
	GitHead    string    // the commit it was built at, "" outside git
	HeadMoved  *HeadMove // nil when HEAD did not move or git cannot tell

	// DriftErr is set when the drift check failed or did not finish in
	// time (TimedOut); the fields below are then unset.
	DriftErr *Error
	TimedOut bool
	// ReadOnly: the ledger cannot be written, so what changed now is not
	// recorded and Entries are not filtered by what changed.
	ReadOnly      bool
	Entries       []control.Entry // unacknowledged entries that still apply
	Gone          int             // unacknowledged entries whose files match the index again
	LedgerEntries int             // entries in the ledger, acknowledged or not
	IndexRev      string          // the revision the drift answer was read from
	Envelope      *Envelope       // the drift answer (unacknowledged entries, unfiltered)
}

// SessionStart compares the working tree with the current revision,
// records what changed under method hook:session-start, and returns the
// revision, its age, a moved git HEAD and the unacknowledged drift that
// still applies. Failures of the drift check are part of the result.
func (s *Service) SessionStart(ctx context.Context, args SessionStartArgs) (SessionStartResult, error) {
	var r SessionStartResult
	name, err := s.layout.CurrentRev()
	if errors.Is(err, rev.ErrNotIndexed) {
		r.NotIndexed = true
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Rev = name
	var info rev.Info
	if b, err := os.ReadFile(filepath.Join(s.layout.Rev(name), rev.RevJSON)); err == nil {
		_ = json.Unmarshal(b, &info)
	}
	r.CreatedAt, r.GitHead = info.CreatedAt, info.GitHead
	if t, err := time.Parse(time.RFC3339, info.CreatedAt); err == nil {
		now := args.Now
		if now.IsZero() {
			now = time.Now()
		}
		r.Age, r.AgeKnown = now.Sub(t), true
	}
	r.HeadMoved = headMoved(ctx, s.root, info.GitHead)

	driftFailed := func(err error) (SessionStartResult, error) {
		r.DriftErr, r.TimedOut = AsError(err), ctx.Err() != nil
		return r, nil
	}
	var changed map[string]bool // the paths that differ from the index now
	if denv, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "hook:session-start"}); err != nil {
		var fe *Error
		if !errors.As(err, &fe) || fe.Code != ErrReadOnly {
			return driftFailed(err)
		}
		r.ReadOnly = true
	} else if res, ok := denv.Result.(DriftDetectResult); ok {
		changed = map[string]bool{}
		for _, p := range res.Changed {
			changed[p] = true
		}
	}
	env, err := s.Drift(ctx, DriftArgs{Unacked: true, Limit: 1000})
	if err != nil {
		return driftFailed(err)
	}
	r.Envelope, r.IndexRev, r.LedgerEntries = env, env.IndexRev, env.Drift.Entries
	r.Entries = env.Result.(DriftResult).Entries
	if changed != nil {
		kept := r.Entries[:0:0]
		for _, e := range r.Entries {
			if Applies(e, changed) {
				kept = append(kept, e)
			}
		}
		r.Gone = len(r.Entries) - len(kept)
		r.Entries = kept
	}
	return r, nil
}

// headMoved says how git HEAD differs from the commit indexed; nil when it
// did not move or git cannot tell.
func headMoved(ctx context.Context, root, indexed string) *HeadMove {
	if indexed == "" {
		return nil
	}
	head, err := gitOut(ctx, root, "rev-parse", "HEAD")
	if err != nil || head == indexed {
		return nil
	}
	m := &HeadMove{Head: head}
	if branch, _ := gitOut(ctx, root, "rev-parse", "--abbrev-ref", "HEAD"); branch != "HEAD" {
		m.Branch = branch
	}
	if _, err := gitOut(ctx, root, "merge-base", "--is-ancestor", indexed, head); err == nil {
		m.Ancestor = true
		n, _ := gitOut(ctx, root, "rev-list", "--count", indexed+".."+head)
		m.Commits, _ = strconv.Atoi(n)
	}
	return m
}

func gitOut(ctx context.Context, root string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...).Output()
	return strings.TrimSpace(string(out)), err
}

// PostEditArgs are the inputs of PostEdit.
type PostEditArgs struct {
	Paths []string // the edited files: absolute, or relative to Cwd
	Cwd   string   // the agent's directory; "" is the project root
}

// PostEditResult is what the edits changed, file by file.
type PostEditResult struct {
	NotIndexed bool           // the project has no index yet: nothing was checked
	Files      []PostEditFile // in the order given; files outside the project are left out
	More       int            // edited files beyond the first five, not checked
}

// PostEditFile is one edited file compared with the index.
type PostEditFile struct {
	Path     string // relative to the project root, slash-separated
	IndexRev string
	// NotIndexable is why a reindex will not add a file the index lacks
	// ("" when it will, or when the index has it).
	NotIndexable string
	New          bool   // not in the revision: a new file, recorded by a compare
	NotRecorded  string // why the change is not in the drift ledger; "" when it is (or there is none)
	Kind         string // the change (modify, delete, …); "" when the file matches the index
	Lines        [][2]int
	Touched      []TouchedDef // the innermost definitions whose lines changed
}

// TouchedDef is a definition an edit changed, with the functions that call
// it (for the first four touched functions and methods).
type TouchedDef struct {
	OutlineItem
	Callers     []Call // stated callers, five at most
	MoreCallers bool   // there are more than Callers
}

// PostEdit checks each edited file against the index under method
// hook:post-edit (so the edit is in the ledger, deduplicated like every
// detection) and returns the change and the definitions it touched.
func (s *Service) PostEdit(ctx context.Context, args PostEditArgs) (PostEditResult, error) {
	var r PostEditResult
	if _, err := s.layout.CurrentRev(); err != nil {
		r.NotIndexed = true
		return r, nil
	}
	for i, p := range args.Paths {
		if i == postEditMaxFiles {
			r.More = len(args.Paths) - i
			break
		}
		abs := p
		if !filepath.IsAbs(abs) {
			base := args.Cwd
			if base == "" {
				base = s.root
			}
			abs = filepath.Join(base, p)
		}
		rel, err := filepath.Rel(s.root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // outside the project
		}
		if f, ok := s.postEditFile(ctx, filepath.ToSlash(rel)); ok {
			r.Files = append(r.Files, f)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return r, nil
}

// postEditFile checks one edited file; false when the outline failed for
// another reason than the file's absence.
func (s *Service) postEditFile(ctx context.Context, rel string) (PostEditFile, bool) {
	f := PostEditFile{Path: rel}
	// the edit goes into the ledger as the hook's, deduplicated with what any
	// other detector saw of the same change
	_, derr := s.DriftDetect(ctx, DriftDetectArgs{Method: "hook:post-edit", Paths: []string{rel}})
	env, err := s.Outline(ctx, OutlineArgs{Path: rel})
	if err != nil || env.NotFound {
		if err != nil {
			if fe := AsError(err); fe.Code != ErrUnknownID && fe.Code != ErrBadInput {
				return f, false
			}
		}
		if why := s.NotIndexed(ctx, rel); why != "" {
			f.NotIndexable = why
			return f, true
		}
		// not in the revision: a new file; compare records it (an add) with whatever else drifted
		f.New = true
		if _, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "compare"}); err != nil {
			f.NotRecorded = notRecorded(err)
		}
		return f, true
	}
	f.IndexRev = env.IndexRev
	res, _ := env.Result.(OutlineResult)
	for _, w := range env.StaleWarnings {
		if w.Path == rel {
			f.Kind, f.Lines = w.Kind, nil
			for i := 0; i+1 < len(w.Lines); i += 2 {
				f.Lines = append(f.Lines, [2]int{w.Lines[i], w.Lines[i+1]})
			}
		}
	}
	if f.Kind == "" {
		return f, true
	}
	if derr != nil {
		f.NotRecorded = notRecorded(derr)
	}
	for i, it := range touchedItems(res.Symbols) {
		t := TouchedDef{OutlineItem: it}
		if i < postEditCallers && (it.Kind == "function" || it.Kind == "method") {
			if cenv, err := s.Callers(ctx, CallersArgs{Target: Target{ID: it.ID}, Page: Page{Limit: 5}}); err == nil {
				if cr, ok := cenv.Result.(CallsResult); ok {
					t.Callers = cr.Stated
					t.MoreCallers = cenv.Limits.Total > len(cr.Stated)+len(cr.Derived) || cenv.Limits.Truncated
				}
			}
		}
		f.Touched = append(f.Touched, t)
	}
	return f, true
}

// notRecorded says why a ledger write failed.
func notRecorded(err error) string {
	fe := AsError(err)
	if fe.Code == ErrReadOnly {
		return "the ledger cannot be written (a read-only file system or a full disk)"
	}
	return fmt.Sprintf("%s %s", fe.Code, fe.Message)
}

// touchedItems are the innermost definitions with a stale mark.
func touchedItems(items []OutlineItem) []OutlineItem {
	var out []OutlineItem
	for _, it := range items {
		inner := touchedItems(it.Children)
		switch {
		case len(inner) > 0:
			out = append(out, inner...)
		case it.Stale != nil:
			out = append(out, it)
		}
	}
	return out
}
