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
// record.go keeps .ragraf/agents.json with the spans of each file ragraf
// edited (never the file's other bytes) and the hashes before and after, so
// a second install changes nothing and Uninstall restores the original
// bytes, skipping files edited since. paths.go confines every path, from a
// target or from the record, to the project.
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

// NextSteps are what the user does, per target, before the agent uses
// what install wrote: approvals and trust that no file can grant.
func NextSteps(root string, targets []string) []string {
	steps := map[string]string{
		"claude": "Claude Code: start `claude` here and approve the project MCP server \"ragraf\" when asked (later: /mcp); the hooks apply from the next session",
		"codex": fmt.Sprintf("Codex: it reads .codex/config.toml and .codex/hooks.json only in a trusted project: trust this folder when `codex` asks, "+
			"or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml", root),
		"cursor":   "Cursor: enable the \"ragraf\" server when Cursor offers it (Settings, MCP)",
		"gemini":   "Gemini CLI: with folder trust on, trust this folder when `gemini` asks, or it ignores .gemini/settings.json; /mcp lists the server",
		"vscode":   "VS Code: open .vscode/mcp.json and start the \"ragraf\" server, trusting it when asked",
		"opencode": "opencode: the server starts with the next `opencode` session",
	}
	var out []string
	for _, t := range targets {
		if s, ok := steps[t]; ok {
			out = append(out, s)
		}
	}
	return out
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
	note    func(string)      // tells the user something the install cannot fix
	alias   func(string) bool // reports whether another project path is this very file (a symlink)
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
	path    string   // the project path the first edit names (the record's key)
	loc     location // where it lives (a symlink's target)
	targets []string
	exists  bool
	before  []byte
	after   []byte
	mode    os.FileMode
	ent     *recordEntry // the record entry after the install
}

// Install merges the targets' files into the project. Nothing is written
// unless every file can be: a conflict, a path leading out of the project or
// an invalid record stops it first.
func Install(opts Options) (*Report, error) {
	opts.SetDefaults()
	rec, err := loadRecord(opts.Root)
	if err != nil {
		return nil, err
	}
	byReal := map[string]*planned{}
	var order []string
	var problems, notes []string
	realOf := func(p string) string {
		if loc, err := resolveFile(opts.Root, p); err == nil {
			return loc.rel
		}
		return ""
	}
	for _, t := range opts.Targets {
		es, err := edits(t)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			loc, err := resolveFile(opts.Root, e.path)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			p := byReal[loc.rel]
			if p == nil {
				p = &planned{path: e.path, loc: loc, mode: 0o644}
				b, err := readRegular(loc.path)
				if err != nil {
					return nil, err
				}
				if b != nil {
					p.exists, p.before = true, b
					if st, err := os.Stat(loc.path); err == nil {
						p.mode = st.Mode().Perm()
					}
				}
				p.after = p.before
				byReal[loc.rel] = p
				order = append(order, loc.rel)
			}
			if !slices.Contains(p.targets, t) {
				p.targets = append(p.targets, t)
			}
			ctx := editCtx{owned: rec.Files[p.path] != nil, force: opts.Force, command: opts.Command,
				note:  func(n string) { notes = append(notes, e.path+": "+n) },
				alias: func(other string) bool { return other != e.path && realOf(other) == loc.rel }}
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
	slices.SortFunc(order, func(a, b string) int { return strings.Compare(byReal[a].path, byReal[b].path) })
	now := opts.Now().UTC().Format(time.RFC3339)
	// every record entry is computed before the first write
	for _, r := range order {
		p := byReal[r]
		if p.ent, err = plannedEntry(rec.Files[p.path], p, now); err != nil {
			return nil, fmt.Errorf("%s: %w; nothing was written", p.path, err)
		}
	}
	rep := &Report{Notes: slices.Compact(notes)}
	for _, r := range order {
		p := byReal[r]
		a := Action{Path: p.path, Before: p.before, After: p.after}
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
		if a.Op != "unchanged" {
			err := os.MkdirAll(filepath.Dir(p.loc.path), 0o755)
			if err == nil {
				err = writeAtomic(p.loc.path, p.after, p.mode)
			}
			if err != nil {
				// what was written so far stays undoable
				if serr := rec.save(opts.Root); serr != nil {
					return nil, errors.Join(err, serr)
				}
				return nil, err
			}
		}
		if p.ent != nil {
			for _, t := range p.targets {
				p.ent.addTarget(t)
			}
			rec.Files[p.path] = p.ent
		}
	}
	if !opts.DryRun {
		if err := rec.save(opts.Root); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// plannedEntry is the record entry of p after its install: a new one for a
// file ragraf writes first, ragraf's own entry with the undo recomputed
// from the original bytes when ragraf's bytes are still there, or the old
// entry as it was when the file was edited since (uninstall then names it
// instead of restoring bytes that would lose the edit). nil: nothing to
// record.
func plannedEntry(ent *recordEntry, p *planned, now string) (*recordEntry, error) {
	unchanged := p.exists && string(p.before) == string(p.after)
	switch {
	case ent == nil && unchanged:
		return nil, nil
	case ent == nil || !p.exists:
		n := &recordEntry{Created: !p.exists, AfterSHA: sum(p.after), InstalledAt: now}
		if ent != nil {
			n.Targets = slices.Clone(ent.Targets)
		}
		if !p.exists {
			n.Dirs = p.loc.createdDirs(p.path)
			return n, nil
		}
		var err error
		n.BeforeSHA = sum(p.before)
		n.Undo, err = undoSpans(p.before, p.after)
		return n, err
	case ent.AfterSHA == "" || ent.AfterSHA != sum(p.before) || unchanged:
		return ent, nil
	}
	n := *ent
	n.AfterSHA = sum(p.after)
	if ent.Created {
		return &n, nil
	}
	orig, err := ent.original(p.before)
	if err != nil {
		return nil, err
	}
	n.Before = nil
	n.Undo, err = undoSpans(orig, p.after)
	return &n, err
}

// undoStep is one file of an uninstall.
type undoStep struct {
	path string
	ent  *recordEntry
	loc  location
	keep []string // the targets that still want the file
	data []byte   // for restore: the original bytes
	dirs []location
}

// Uninstall undoes the targets' installs: each file no other installed
// target still wants goes back to its original bytes (deleted, with the
// directories made for it, when ragraf created it), unless it changed since
// ragraf wrote it; such files are skipped, named, and stay in the record.
// Every path and every undo is checked before the first write: a record
// that leads out of the project, or whose undo does not give the original
// bytes back, stops it with nothing written.
func Uninstall(opts Options) (*Report, error) {
	opts.SetDefaults()
	rec, err := loadRecord(opts.Root)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	var steps []undoStep
	for _, path := range slicesSortedKeys(rec.Files) {
		ent := rec.Files[path]
		st := undoStep{path: path, ent: ent}
		st.keep = slices.DeleteFunc(slices.Clone(ent.Targets), func(t string) bool { return slices.Contains(opts.Targets, t) })
		if len(st.keep) == len(ent.Targets) {
			continue
		}
		if st.loc, err = resolveFile(opts.Root, path); err != nil {
			return nil, err
		}
		cur, err := readRegular(st.loc.path)
		if err != nil {
			return nil, err
		}
		a := Action{Path: path, Before: cur}
		switch {
		case len(st.keep) > 0:
			a.Op, a.After = "unchanged", cur
		case cur == nil:
			a.Op, a.Reason = "skip", "the file was removed since ragraf wrote it"
		case ent.AfterSHA == "" || sum(cur) != ent.AfterSHA:
			a.Op, a.Reason, a.After = "skip", "the file was edited since ragraf wrote it; left as it is (its record is kept)", cur
		case ent.Created:
			a.Op = "delete"
			for _, d := range ent.Dirs {
				loc, err := resolve(opts.Root, d)
				if err != nil {
					return nil, err
				}
				st.dirs = append(st.dirs, loc)
			}
		default:
			if st.data, err = ent.original(cur); err != nil {
				return nil, fmt.Errorf("%s: %s: %w; nothing was written", recordPath(opts.Root), path, err)
			}
			a.Op, a.After = "restore", st.data
		}
		rep.Actions = append(rep.Actions, a)
		steps = append(steps, st)
	}
	if opts.DryRun {
		return rep, nil
	}
	var dirs []location
	for i, st := range steps {
		switch op := rep.Actions[i].Op; {
		case op == "unchanged":
			st.ent.Targets = st.keep
			continue
		case op == "skip" && rep.Actions[i].After != nil:
			continue // edited: still ragraf's entries in it, still tracked
		case op == "delete":
			if err := os.Remove(st.loc.path); err != nil {
				return nil, err
			}
			dirs = append(dirs, st.dirs...)
		case op == "restore":
			mode := os.FileMode(0o644)
			if fi, err := os.Stat(st.loc.path); err == nil {
				mode = fi.Mode().Perm()
			}
			if err := writeAtomic(st.loc.path, st.data, mode); err != nil {
				return nil, err
			}
		}
		delete(rec.Files, st.path)
	}
	// deepest first, after every file is gone: a directory two files shared empties only then
	slices.SortFunc(dirs, func(a, b location) int { return strings.Count(b.rel, "/") - strings.Count(a.rel, "/") })
	for _, d := range dirs {
		if fi, err := os.Lstat(d.path); err == nil && fi.IsDir() {
			_ = os.Remove(d.path) // only empty directories go
		}
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
