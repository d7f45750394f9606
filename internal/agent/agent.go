// Package agent wires ragraf into coding agents' project configuration:
// Install merges the MCP server entry, hooks, instructions and the skill each
// agent reads into the project's files, and Uninstall puts them back.
//
// # Targets
//
// One file per target (claude.go, codex.go, cursor.go, gemini.go, vscode.go,
// opencode.go) lists the files that target wants as edits: functions from a
// file's current bytes to the wanted bytes. shared.go holds what every target
// writes (the AGENTS.md block and the Agent Skills skill).
//
// # Rules
//
// Edits are structural and textual at once: jsonc.go patches JSON-with-
// comments by byte spans and toml.go replaces one TOML table's region, so
// other tools' entries, comments, key order and CRLF line endings stay as they
// were. An entry named ragraf that ragraf did not write, or a file that does
// not parse, stops the install unless Force is set; nothing is written then.
// record.go keeps .ragraf/agents.json with each file's original bytes and the
// hash of what ragraf left, so a second install changes nothing and Uninstall
// restores the original bytes, skipping files edited since.
package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Targets lists the agents Install knows, in a fixed order.
var Targets = []string{"claude", "codex", "cursor", "gemini", "vscode", "opencode"}

// Options configures Install and Uninstall.
type Options struct {
	Root    string   // the project directory
	Targets []string // names from Targets
	DryRun  bool     // compute and report, write nothing
	Force   bool     // overwrite a ragraf entry ragraf did not write; replace unparseable files' entries
	Command string   // the ragraf executable agents run (default "ragraf")
	Now     func() time.Time
}

// SetDefaults fills the zero fields.
func (o *Options) SetDefaults() {
	if o.Command == "" {
		o.Command = "ragraf"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Action is what happened, or would happen, to one file.
type Action struct {
	Path   string // slash path relative to the project
	Op     string // create, modify, unchanged, delete, restore, skip
	Reason string // for skip: why the file was left as it is
	Before []byte // the bytes before (nil: absent)
	After  []byte // the bytes after (nil: absent)
}

// Report lists the actions of one Install or Uninstall, in path order.
type Report struct {
	Actions []Action
	Notes   []string // things the user should know, e.g. a setting that keeps a hook from running
}

// Changed counts the actions that change a file.
func (r *Report) Changed() int {
	n := 0
	for _, a := range r.Actions {
		if a.Op != "unchanged" && a.Op != "skip" {
			n++
		}
	}
	return n
}

// ConflictError lists the files an install refused to touch.
type ConflictError struct {
	Problems []string // "path: reason"
}

func (e *ConflictError) Error() string {
	return "not installed, nothing was written:\n  " + strings.Join(e.Problems, "\n  ") +
		"\n(--force overwrites the ragraf entries named above)"
}

// ErrUnknownTarget is returned for a target name Install does not know.
var ErrUnknownTarget = errors.New("unknown target")

// edit is one file a target wants: cur is its current content (exists false
// when absent); owned says ragraf's record claims the file, so an entry named
// ragraf in it is ragraf's own.
type edit struct {
	path string
	fn   func(cur []byte, exists bool, ctx editCtx) ([]byte, error)
}

// editCtx is what an edit may consult.
type editCtx struct {
	owned   bool
	force   bool
	command string
	note    func(string) // tells the user something the install cannot fix
}

// foreignError says the file holds a ragraf entry ragraf did not write.
type foreignError struct{ what string }

func (e *foreignError) Error() string {
	return e.what + " exists and was not written by ragraf agent install"
}

// claim refuses to replace an existing, different ragraf entry unless ragraf
// owns the file or force is set.
func (c editCtx) claim(what string) error {
	if c.owned || c.force {
		return nil
	}
	return &foreignError{what}
}

// edits returns the files target t wants.
func edits(t string) ([]edit, error) {
	var own []edit
	switch t {
	case "claude":
		own = claudeEdits()
	case "codex":
		own = codexEdits()
	case "cursor":
		own = cursorEdits()
	case "gemini":
		own = geminiEdits()
	case "vscode":
		own = vscodeEdits()
	case "opencode":
		own = opencodeEdits()
	default:
		return nil, fmt.Errorf("%w %q: want one of %s or all", ErrUnknownTarget, t, strings.Join(Targets, ", "))
	}
	return append(own, sharedEdits()...), nil
}

// ExpandTargets resolves "all" and removes duplicates, keeping Targets' order.
func ExpandTargets(names []string) ([]string, error) {
	want := map[string]bool{}
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			p = strings.TrimSpace(strings.ToLower(p))
			switch {
			case p == "":
			case p == "all":
				for _, t := range Targets {
					want[t] = true
				}
			case slices.Contains(Targets, p):
				want[p] = true
			default:
				return nil, fmt.Errorf("%w %q: want one of %s or all", ErrUnknownTarget, p, strings.Join(Targets, ", "))
			}
		}
	}
	var out []string
	for _, t := range Targets {
		if want[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no target: want one of %s or all", strings.Join(Targets, ", "))
	}
	return out, nil
}

// planned is one file's install.
type planned struct {
	path    string
	targets []string
	exists  bool
	before  []byte
	after   []byte
	mode    os.FileMode
}

// Install merges the targets' files into the project.
func Install(opts Options) (*Report, error) {
	opts.SetDefaults()
	rec, err := loadRecord(opts.Root)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*planned{}
	var order []string
	var problems, notes []string
	for _, t := range opts.Targets {
		es, err := edits(t)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			p := byPath[e.path]
			if p == nil {
				p = &planned{path: e.path, mode: 0o644}
				abs := filepath.Join(opts.Root, filepath.FromSlash(e.path))
				b, err := os.ReadFile(abs)
				switch {
				case err == nil:
					p.exists, p.before = true, b
					if st, err := os.Stat(abs); err == nil {
						p.mode = st.Mode().Perm()
					}
				case errors.Is(err, os.ErrNotExist):
				default:
					return nil, err
				}
				p.after = p.before
				byPath[e.path] = p
				order = append(order, e.path)
			}
			if !slices.Contains(p.targets, t) {
				p.targets = append(p.targets, t)
			}
			ctx := editCtx{owned: rec.Files[e.path] != nil, force: opts.Force, command: opts.Command,
				note: func(n string) { notes = append(notes, e.path+": "+n) }}
			out, err := e.fn(p.after, p.exists || p.after != nil, ctx)
			if err != nil {
				problems = append(problems, e.path+": "+err.Error())
				continue
			}
			p.after = out
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, &ConflictError{Problems: slices.Compact(problems)}
	}
	slices.Sort(order)
	rep := &Report{Notes: slices.Compact(notes)}
	now := opts.Now().UTC().Format(time.RFC3339)
	for _, path := range order {
		p := byPath[path]
		a := Action{Path: path, Before: p.before, After: p.after}
		switch {
		case p.exists && string(p.before) == string(p.after):
			a.Op = "unchanged"
		case !p.exists:
			a.Op = "create"
		default:
			a.Op = "modify"
		}
		rep.Actions = append(rep.Actions, a)
		if opts.DryRun {
			continue
		}
		ent := rec.Files[path]
		if a.Op != "unchanged" {
			abs := filepath.Join(opts.Root, filepath.FromSlash(path))
			dirs, err := mkdirs(opts.Root, filepath.Dir(abs))
			if err == nil {
				err = writeAtomic(abs, p.after, p.mode)
			}
			if err != nil {
				// what was written so far stays undoable
				if serr := rec.save(opts.Root); serr != nil {
					return nil, errors.Join(err, serr)
				}
				return nil, err
			}
			switch {
			case ent == nil:
				ent = &recordEntry{Created: !p.exists, Dirs: dirs, AfterSHA: sum(p.after), InstalledAt: now}
				if p.exists {
					ent.Before, ent.BeforeSHA = p.before, sum(p.before)
				}
				rec.Files[path] = ent
			case ent.AfterSHA == sum(p.before):
				ent.AfterSHA = sum(p.after) // ragraf's own bytes, updated
			}
			// a file edited since the last install keeps its old hash: uninstall then names it instead of
			// restoring bytes that would lose the edit
		}
		if ent != nil {
			for _, t := range p.targets {
				ent.addTarget(t)
			}
		}
	}
	if !opts.DryRun {
		if err := rec.save(opts.Root); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// Uninstall undoes the targets' installs: each file no other installed
// target still wants goes back to its original bytes (deleted, with the
// directories made for it, when ragraf created it), unless it changed since
// ragraf wrote it; such files are skipped and named.
func Uninstall(opts Options) (*Report, error) {
	opts.SetDefaults()
	rec, err := loadRecord(opts.Root)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	var dirs []string
	for _, path := range slicesSortedKeys(rec.Files) {
		ent := rec.Files[path]
		keep := slices.DeleteFunc(slices.Clone(ent.Targets), func(t string) bool { return slices.Contains(opts.Targets, t) })
		if len(keep) == len(ent.Targets) {
			continue
		}
		abs := filepath.Join(opts.Root, filepath.FromSlash(path))
		cur, rerr := os.ReadFile(abs)
		a := Action{Path: path}
		if rerr == nil {
			a.Before = cur
		}
		switch {
		case len(keep) > 0:
			a.Op, a.After = "unchanged", cur
		case rerr != nil && errors.Is(rerr, os.ErrNotExist):
			a.Op, a.Reason = "skip", "the file was removed since ragraf wrote it"
		case rerr != nil:
			return nil, rerr
		case sum(cur) != ent.AfterSHA:
			a.Op, a.Reason, a.After = "skip", "the file was edited since ragraf wrote it; left as it is", cur
		case ent.Created:
			a.Op = "delete"
		default:
			a.Op, a.After = "restore", ent.Before
		}
		rep.Actions = append(rep.Actions, a)
		if opts.DryRun {
			continue
		}
		if len(keep) > 0 {
			ent.Targets = keep
			continue
		}
		switch a.Op {
		case "delete":
			if err := os.Remove(abs); err != nil {
				return nil, err
			}
			dirs = append(dirs, ent.Dirs...)
		case "restore":
			mode := os.FileMode(0o644)
			if st, err := os.Stat(abs); err == nil {
				mode = st.Mode().Perm()
			}
			if err := writeAtomic(abs, ent.Before, mode); err != nil {
				return nil, err
			}
		}
		delete(rec.Files, path)
	}
	if opts.DryRun {
		return rep, nil
	}
	// deepest first, after every file is gone: a directory two files shared empties only then
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range dirs {
		_ = os.Remove(filepath.Join(opts.Root, filepath.FromSlash(d))) // only empty directories go
	}
	if err := rec.save(opts.Root); err != nil {
		return nil, err
	}
	if len(rec.Files) == 0 {
		_ = os.Remove(filepath.Dir(recordPath(opts.Root))) // .ragraf, if agents.json was all it held
	}
	return rep, nil
}

func slicesSortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
