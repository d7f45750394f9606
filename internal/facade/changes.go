// This file defines the changes operation: the declarations a change set
// touches, adds and deletes, with what they reach. The change set is the
// working tree against the revision's snapshots (by default), or two git
// commits (base..head; a missing head is the working tree), read by shelling
// out to git as the git-diff detector does (internal/drift/git.go). Changed
// line ranges are mapped onto declarations on both sides; the declarations
// of a side the revision does not hold are extracted with the PHP extractor,
// as the slice-boundary detector does (internal/drift/slice.go). What each
// declaration reaches comes from the impact walk (impact.go, reach in
// context.go).

package facade

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/secrets"
)

// ChangesArgs selects the change set.
type ChangesArgs struct {
	Base  string `json:"base,omitempty" jsonschema:"commit to compare from (default: the indexed revision, or its git HEAD with head)"`
	Head  string `json:"head,omitempty" jsonschema:"commit to compare to; default: the working tree"`
	Depth int    `json:"depth,omitempty" jsonschema:"how many edges impact follows back (1-5, default 3)"`
	Page
	Output
}

// ChangedFile is one file of the change set. NowLine is its first changed
// line on the head side (0 when deleted).
type ChangedFile struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	Change  string `json:"change"` // modified | added | deleted | renamed
	NowLine int    `json:"now_line,omitempty"`
	Changed int    `json:"changed"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
}

// ChangeImpact counts the definitions that reach a changed one backwards:
// over chains of stated edges, and over the others.
type ChangeImpact struct {
	Stated  int `json:"stated"`
	Derived int `json:"derived"`
}

// ChangedSymbol is one declaration changed, added or deleted. With an id it
// is the revision's node, and line and end_line are its lines as indexed;
// now_line and now_end_line are its lines on the head side (the working tree
// or the head commit) and base_line and base_end_line on the base commit,
// given where the index does not already say them.
type ChangedSymbol struct {
	Change      string        `json:"change"` // changed | added | deleted
	ID          string        `json:"id,omitempty"`
	Kind        string        `json:"kind"`
	QName       string        `json:"qname"`
	Signature   string        `json:"signature,omitempty"`
	Path        string        `json:"path"`
	Line        int           `json:"line,omitempty"`
	EndLine     int           `json:"end_line,omitempty"`
	NowLine     int           `json:"now_line,omitempty"`
	NowEndLine  int           `json:"now_end_line,omitempty"`
	BaseLine    int           `json:"base_line,omitempty"`
	BaseEndLine int           `json:"base_end_line,omitempty"`
	Impact      *ChangeImpact `json:"impact,omitempty"` // for declarations the revision holds
	Stale       *StaleMark    `json:"stale,omitempty"`
}

// at is the line the symbol is ordered by.
func (c ChangedSymbol) at() int {
	switch {
	case c.Line > 0:
		return c.Line
	case c.NowLine > 0:
		return c.NowLine
	}
	return c.BaseLine
}

// ChangesResult is one page of changed symbols (ordered by path and line)
// with the files of the change set and what all of its indexed declarations
// reach: entry points, tables and test files. Files, entry points, tables
// and tests show their first limit items; the totals count each whole list.
type ChangesResult struct {
	Base             string          `json:"base"` // the revision, or a commit hash
	Head             string          `json:"head"` // working_tree, or a commit hash
	Depth            int             `json:"depth"`
	Files            []ChangedFile   `json:"files"`
	FilesTotal       int             `json:"files_total"`
	Symbols          []ChangedSymbol `json:"symbols"`
	SymbolsTotal     int             `json:"symbols_total"`
	EntryPoints      []ReachItem     `json:"entry_points"`
	EntryPointsTotal int             `json:"entry_points_total"`
	Tables           []ReachItem     `json:"tables"`
	TablesTotal      int             `json:"tables_total"`
	Tests            []ReachFile     `json:"tests"`
	TestsTotal       int             `json:"tests_total"`
}

// sides of a change set
const (
	sideIndex = "index" // the revision's snapshots
	sideBase  = "base"  // a commit
	sideHead  = "head"  // a commit, or the working tree
)

// fileChange is one file with both sides' content (nil for a side where
// it does not exist) and, when the old side is the revision, its nodes.
type fileChange struct {
	path, oldPath string
	old, cur      []byte
	hasOld        bool
	hasCur        bool
	oldNodes      []fact.Node // the old side's declarations, when known without extraction
}

// gitRefRE is what a commit argument may look like: no option, no space.
var gitRefRE = regexp.MustCompile(`^[A-Za-z0-9_./~^@{}+-]{1,200}$`)

// Changes lists the declarations of a change set with what they reach.
func (s *Service) Changes(ctx context.Context, args ChangesArgs) (*Envelope, error) {
	const op = "changes"
	for _, f := range []struct{ name, v string }{{"base", args.Base}, {"head", args.Head}} {
		if f.v != "" && (!gitRefRE.MatchString(f.v) || strings.HasPrefix(f.v, "-")) {
			return nil, badInput("%s %q is not a commit name (a hash, branch, tag or HEAD~n)", f.name, f.v)
		}
	}
	depth, err := checkRange("depth", args.Depth, 3, 1, 5)
	if err != nil {
		return nil, err
	}
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	cfg := s.configOrDefault()
	res := ChangesResult{Depth: depth, Files: []ChangedFile{}, Symbols: []ChangedSymbol{}, EntryPoints: []ReachItem{}, Tables: []ReachItem{}, Tests: []ReachFile{}}
	var files []fileChange
	oldSide := sideIndex
	if args.Base == "" && args.Head == "" {
		res.Base, res.Head = snap.name, "working_tree"
		if files, err = s.workingChanges(ctx, snap, cfg); err != nil {
			return nil, err
		}
	} else {
		base := args.Base
		if base == "" {
			if base = snap.info.GitHead; base == "" {
				return nil, badInput("the revision records no git HEAD (the project was not a git repository when indexed): pass base")
			}
		}
		oldSide = sideBase
		if res.Base, err = s.commit(ctx, "base", base); err != nil {
			return nil, err
		}
		res.Head = "working_tree"
		if args.Head != "" {
			if res.Head, err = s.commit(ctx, "head", args.Head); err != nil {
				return nil, err
			}
		}
		if files, err = s.commitChanges(ctx, snap, cfg, res.Base, args.Head != "", res.Head); err != nil {
			return nil, err
		}
	}
	syms, fileRows, err := s.changedSymbols(ctx, snap, files, oldSide)
	if err != nil {
		return nil, err
	}
	res.FilesTotal, res.SymbolsTotal = len(fileRows), len(syms)
	res.Files = window(fileRows, pg.limit, 0)
	res.Symbols = pageOf(pg, syms)
	// what the whole change set reaches; deleting a type breaks the users
	// of its members too
	var start []string
	seen := map[string]bool{}
	for _, c := range syms {
		if c.ID == "" || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		start = append(start, c.ID)
		if c.Change == "deleted" && fact.NodeKind(c.Kind).IsType() {
			desc, err := s.descendants(ctx, snap, c.ID)
			if err != nil {
				return nil, err
			}
			start = append(start, desc...)
		}
	}
	r, err := s.reach(ctx, snap, start, depth, withTables)
	if err != nil {
		return nil, err
	}
	ep, tb, tests := r.entryPoints(), r.tables(), r.tests()
	res.EntryPointsTotal, res.TablesTotal, res.TestsTotal = len(ep), len(tb), len(tests)
	if res.EntryPoints, err = s.reachItems(ctx, snap, window(ep, pg.limit, 0), reachedItems); err != nil {
		return nil, err
	}
	if res.Tables, err = s.reachItems(ctx, snap, window(tb, pg.limit, 0), reachedItems); err != nil {
		return nil, err
	}
	res.Tests = window(tests, pg.limit, 0)
	// each shown symbol's own impact, over one shared edge cache
	cache := map[string][]fact.Edge{}
	for i := range res.Symbols {
		c := &res.Symbols[i]
		if c.ID == "" {
			continue
		}
		st := []string{c.ID}
		if c.Change == "deleted" && fact.NodeKind(c.Kind).IsType() {
			desc, err := s.descendants(ctx, snap, c.ID)
			if err != nil {
				return nil, err
			}
			st = append(st, desc...)
		}
		all, err := s.closure(ctx, snap, st, impactKinds, depth, anyEdges, cache)
		if err != nil {
			return nil, err
		}
		hard, err := s.closure(ctx, snap, st, impactKinds, depth, statedEdges, cache)
		if err != nil {
			return nil, err
		}
		c.Impact = &ChangeImpact{Stated: len(hard), Derived: len(all) - len(hard)}
	}
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Symbols), len(syms))
	if len(syms) == 0 && len(fileRows) == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "drift", Args: map[string]any{}, Why: "the ledger's entries for this revision, including changes outside declarations"})
	}
	c.cite(res.paths()...)
	return c.done(env.Result)
}

// commit resolves a commit name to its hash.
func (s *Service) commit(ctx context.Context, field, ref string) (string, error) {
	out, err := s.git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", badInput("%s %q does not name a commit of the project's git repository", field, ref)
	}
	return strings.TrimSpace(string(out)), nil
}

// git runs git in the project and returns its standard output.
func (s *Service) git(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", s.root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// workingChanges is the working tree against the revision, as the compare
// detector sees it.
func (s *Service) workingChanges(ctx context.Context, snap *snapshot, cfg config.Config) ([]fileChange, error) {
	deltas, err := drift.Compare(ctx, driftSource(snap), s.root, cfg)
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: "comparing the working tree: " + err.Error()}
	}
	var out []fileChange
	for _, d := range deltas {
		fc := fileChange{path: d.Path}
		old := d.Path
		switch d.Kind {
		case drift.KindModify:
		case drift.KindAdd:
			old = ""
		case drift.KindDelete:
		case drift.KindRename:
			fc.oldPath, old = d.OldPath, d.OldPath
		default:
			continue // slice boundaries and schema changes come with their modify
		}
		if old != "" {
			b, ok, err := snap.graph.Snapshot(ctx, old)
			if err != nil {
				return nil, storeError(err)
			}
			nodes, err := snap.graph.NodesInFile(ctx, old)
			if err != nil {
				return nil, storeError(err)
			}
			fc.old, fc.hasOld, fc.oldNodes = b, ok, declarations(nodes)
			if !ok {
				fc.hasOld = len(nodes) > 0
			}
		}
		if d.Kind != drift.KindDelete {
			c, err := corpus.NewTree(s.root, cfg.MaxFileSize).Read(ctx, d.Path)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue // gone again since compare ran, or no longer readable as the index reads it
			}
			if c.Binary {
				continue
			}
			fc.cur, _ = secrets.Redact(c.Data)
			fc.hasCur = true
		}
		out = append(out, fc)
	}
	return out, nil
}

// commitChanges is base against head (or the working tree when !withHead).
func (s *Service) commitChanges(ctx context.Context, snap *snapshot, cfg config.Config, base string, withHead bool, head string) ([]fileChange, error) {
	diff := []string{"diff", "--name-only", "--no-renames", "-z", base}
	if withHead {
		diff = append(diff, head)
	}
	changed, err := s.git(ctx, append(diff, "--")...)
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: err.Error()}
	}
	lists := [][]byte{changed}
	if !withHead {
		untracked, err := s.git(ctx, "ls-files", "--others", "--exclude-standard", "-z")
		if err != nil {
			return nil, &Error{Code: ErrInternal, Message: err.Error()}
		}
		lists = append(lists, untracked)
	}
	rules := corpus.NewRules(s.root, cfg)
	set := map[string]bool{}
	for _, l := range lists {
		for _, p := range bytes.Split(l, []byte{0}) {
			path := string(p)
			if path == "" || !slices.Contains(cfg.Languages, corpus.DetectLang(path)) || rules.Excluded(path) != "" {
				continue
			}
			set[path] = true
		}
	}
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, nil
	}
	var reqs []string
	for _, p := range paths {
		reqs = append(reqs, base+":"+p)
		if withHead {
			reqs = append(reqs, head+":"+p)
		}
	}
	blobs, err := s.catFiles(ctx, reqs)
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: err.Error()}
	}
	var out []fileChange
	for i, p := range paths {
		fc := fileChange{path: p}
		per := 1
		if withHead {
			per = 2
		}
		if b := blobs[i*per]; b != nil {
			fc.old, fc.hasOld = prepare(b), true
		}
		if withHead {
			if b := blobs[i*per+1]; b != nil {
				fc.cur, fc.hasCur = prepare(b), true
			}
		} else if c, err := corpus.NewTree(s.root, cfg.MaxFileSize).Read(ctx, p); err == nil && !c.Binary {
			fc.cur, _ = secrets.Redact(c.Data)
			fc.hasCur = true
		}
		if fc.hasOld || fc.hasCur {
			// the revision's nodes stand for the old side when it is the
			// content the revision indexed
			if idx, ok, err := snap.graph.File(ctx, p); err != nil {
				return nil, storeError(err)
			} else if ok && fc.hasOld && idx.Hash == corpus.NewContent(blobs[i*per]).Hash {
				nodes, err := snap.graph.NodesInFile(ctx, p)
				if err != nil {
					return nil, storeError(err)
				}
				fc.oldNodes = declarations(nodes)
			}
			out = append(out, fc)
		}
	}
	return out, nil
}

// prepare turns a blob into text as the index reads it: normalised, with
// secrets redacted; a binary blob has no text.
func prepare(raw []byte) []byte {
	c := corpus.NewContent(raw)
	if c.Binary {
		return nil
	}
	b, _ := secrets.Redact(c.Data)
	return b
}

// catFiles reads "<commit>:<path>" objects with one git cat-file --batch;
// a missing object is nil.
func (s *Service) catFiles(ctx context.Context, reqs []string) ([][]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", s.root, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(reqs, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	rd := bufio.NewReader(stdout)
	out := make([][]byte, len(reqs))
	var readErr error
	for i := range reqs {
		header, err := rd.ReadString('\n')
		if err != nil {
			readErr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			continue // "<name> missing" (or ambiguous)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			readErr = fmt.Errorf("git cat-file: bad header %q", header)
			break
		}
		body := make([]byte, n+1) // with the newline after the object
		if _, err := io.ReadFull(rd, body); err != nil {
			readErr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		if f[1] == "blob" {
			out[i] = body[:n]
		}
	}
	if readErr != nil {
		_ = cmd.Process.Kill()
	}
	werr := cmd.Wait()
	if readErr != nil {
		return nil, readErr
	}
	if werr != nil {
		return nil, fmt.Errorf("git cat-file: %v: %s", werr, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// declKinds are the kinds of node a change is reported for.
var declKinds = map[fact.NodeKind]bool{fact.Class: true, fact.Interface: true, fact.Trait: true, fact.Enum: true,
	fact.Function: true, fact.Method: true, fact.Property: true, fact.Constant: true}

// declarations keeps the declaration nodes, in line order.
func declarations(nodes []fact.Node) []fact.Node {
	var out []fact.Node
	for _, n := range nodes {
		if declKinds[n.Kind] {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].StartLine != out[j].StartLine {
			return out[i].StartLine < out[j].StartLine
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// declKeys names each declaration by kind and qualified name, with an
// ordinal for a name declared twice in one file (conditional declarations).
func declKeys(nodes []fact.Node) map[string]fact.Node {
	out := make(map[string]fact.Node, len(nodes))
	seen := map[string]int{}
	for _, n := range nodes {
		k := string(n.Kind) + " " + n.QName
		out[k+"#"+strconv.Itoa(seen[k])] = n
		seen[k]++
	}
	return out
}

// innermost is the key of the smallest declaration holding line, or "".
func innermost(keys map[string]fact.Node, line int) string {
	best, size := "", 0
	for k, n := range keys {
		if n.StartLine <= line && line <= n.EndLine {
			if sz := n.EndLine - n.StartLine; best == "" || sz < size || (sz == size && k < best) {
				best, size = k, sz
			}
		}
	}
	return best
}

// extractor extracts declarations of files on demand; it is opened on first use.
type extractor struct {
	x *php.Extractor
}

func (e *extractor) decls(ctx context.Context, path string, src []byte) ([]fact.Node, bool, error) {
	if corpus.DetectLang(path) != php.Lang {
		return nil, false, nil
	}
	if e.x == nil {
		x, err := php.New()
		if err != nil {
			return nil, false, err
		}
		e.x = x
	}
	res, err := e.x.File(ctx, path, src)
	if err != nil {
		return nil, false, err
	}
	return declarations(res.Nodes), true, nil
}

func (e *extractor) close() {
	if e.x != nil {
		e.x.Close()
	}
}

// changedSymbols maps each file's changed lines onto the declarations of
// both sides and names the revision's node for each; symbols are ordered by
// path and line.
func (s *Service) changedSymbols(ctx context.Context, snap *snapshot, files []fileChange, oldSide string) ([]ChangedSymbol, []ChangedFile, error) {
	ex := &extractor{}
	defer ex.close()
	var syms []ChangedSymbol
	var rows []ChangedFile
	for _, fc := range files {
		oldPath := fc.path
		if fc.oldPath != "" {
			oldPath = fc.oldPath
		}
		// the old side's declarations: the revision's, or extracted
		oldDecls, oldKnown := fc.oldNodes, fc.oldNodes != nil || (fc.hasOld && oldSide == sideIndex)
		if !oldKnown && fc.hasOld {
			d, ok, err := ex.decls(ctx, oldPath, fc.old)
			if err != nil {
				return nil, nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("extracting %s: %v", oldPath, err)}
			}
			oldDecls, oldKnown = d, ok
		}
		var curDecls []fact.Node
		curKnown := false
		if fc.hasCur {
			d, ok, err := ex.decls(ctx, fc.path, fc.cur)
			if err != nil {
				return nil, nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("extracting %s: %v", fc.path, err)}
			}
			curDecls, curKnown = d, ok
		}
		oldK, curK := declKeys(oldDecls), declKeys(curDecls)
		// the revision's declarations of either path, to name nodes
		revOld, err := s.revDecls(ctx, snap, oldPath)
		if err != nil {
			return nil, nil, err
		}
		revCur := revOld
		if fc.path != oldPath {
			if revCur, err = s.revDecls(ctx, snap, fc.path); err != nil {
				return nil, nil, err
			}
		}
		touchedOld, touchedCur := map[string]bool{}, map[string]bool{}
		row := ChangedFile{Path: fc.path, OldPath: fc.oldPath}
		switch {
		case !fc.hasOld:
			row.Change = "added"
		case !fc.hasCur:
			row.Change, row.Path, row.OldPath = "deleted", oldPath, ""
		case fc.oldPath != "":
			row.Change = "renamed"
		default:
			row.Change = "modified"
		}
		a, b := splitLines(string(fc.old)), splitLines(string(fc.cur))
		first := 0
		for _, e := range lcs.DiffLines(a, b) {
			for l := e.Start + 1; l <= e.End; l++ {
				if k := innermost(oldK, l); k != "" {
					touchedOld[k] = true
				}
			}
			for l := e.ReplStart + 1; l <= e.ReplEnd; l++ {
				if k := innermost(curK, l); k != "" {
					touchedCur[k] = true
				}
			}
			at := e.ReplStart + 1
			if !fc.hasCur {
				at = e.Start + 1
			}
			if first == 0 || at < first {
				first = at
			}
		}
		if fc.hasCur {
			row.NowLine = max(first, 1)
		}
		// add cites n, a declaration of side, as the revision's node when
		// rev holds it
		add := func(change, k string, n fact.Node, side string, rev map[string]fact.Node) *ChangedSymbol {
			cs := ChangedSymbol{Change: change, Kind: string(n.Kind), QName: n.QName, Signature: oneLine(n.Signature), Path: n.Path}
			if cs.Path == "" {
				cs.Path = fc.path
			}
			switch side {
			case sideIndex:
				cs.Line, cs.EndLine = n.StartLine, n.EndLine
			case sideBase:
				cs.BaseLine, cs.BaseEndLine = n.StartLine, n.EndLine
			default:
				cs.NowLine, cs.NowEndLine = n.StartLine, n.EndLine
			}
			if r, ok := rev[k]; ok {
				cs.ID, cs.Path, cs.Line, cs.EndLine = r.ID, r.Path, r.StartLine, r.EndLine
				cs.BaseLine, cs.BaseEndLine = 0, 0
				if cs.Signature == "" {
					cs.Signature = oneLine(r.Signature)
				}
			}
			if cs.NowLine == cs.Line && cs.NowEndLine == cs.EndLine && cs.ID != "" {
				cs.NowLine, cs.NowEndLine = 0, 0 // the index says it already
			}
			syms = append(syms, cs)
			return &syms[len(syms)-1]
		}
		for _, k := range sortedKeys(oldK) {
			n := oldK[k]
			cur, inCur := curK[k]
			switch {
			case curKnown && !inCur, !fc.hasCur:
				add("deleted", k, n, oldSide, revOld)
				row.Deleted++
			case inCur && (touchedOld[k] || touchedCur[k]):
				cs := add("changed", k, cur, sideHead, revOld)
				if cs.ID == "" && oldSide == sideBase {
					cs.BaseLine, cs.BaseEndLine = n.StartLine, n.EndLine
				}
				row.Changed++
			case !curKnown && touchedOld[k]:
				add("changed", k, n, oldSide, revOld) // the head side cannot be read as declarations
				row.Changed++
			}
		}
		for _, k := range sortedKeys(curK) {
			if _, inOld := oldK[k]; inOld && oldKnown {
				continue
			}
			if !oldKnown && fc.hasOld {
				continue // the old side cannot be read as declarations: nothing is known to be new
			}
			add("added", k, curK[k], sideHead, revCur)
			row.Added++
		}
		rows = append(rows, row)
	}
	sort.SliceStable(syms, func(i, j int) bool {
		a, b := syms[i], syms[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.at() != b.at() {
			return a.at() < b.at()
		}
		if a.Change != b.Change {
			return a.Change < b.Change
		}
		return a.QName < b.QName
	})
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return syms, rows, nil
}

// revDecls are the revision's declarations of path by key.
func (s *Service) revDecls(ctx context.Context, snap *snapshot, path string) (map[string]fact.Node, error) {
	nodes, err := snap.graph.NodesInFile(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	return declKeys(declarations(nodes)), nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// paths are the files the answer cites as indexed: symbols the revision
// holds and what they reach (a file only in the working tree or a commit
// has nothing indexed to go stale).
func (r ChangesResult) paths() []string {
	var ps []string
	for _, f := range r.Files {
		ps = append(ps, f.Path)
		if f.OldPath != "" {
			ps = append(ps, f.OldPath)
		}
	}
	for _, c := range r.Symbols {
		if c.ID != "" {
			ps = append(ps, c.Path)
		}
	}
	for _, it := range slices.Concat(r.EntryPoints, r.Tables) {
		if !strings.HasPrefix(it.Path, "db:") {
			ps = append(ps, it.Path)
		}
		for _, st := range it.chain {
			ps = append(ps, st.Path)
		}
	}
	for _, t := range r.Tests {
		ps = append(ps, t.Path)
	}
	return ps
}

// mark sets the stale marks of the facts the revision holds.
func (r ChangesResult) mark(v *StaleView) ChangesResult {
	for i := range r.Symbols {
		c := &r.Symbols[i]
		if c.ID != "" {
			c.Stale = v.At(c.Path, c.Line, c.EndLine)
		}
	}
	for _, l := range [][]ReachItem{r.EntryPoints, r.Tables} {
		for i := range l {
			it := &l[i]
			it.Stale = v.Chain(chainSteps(Symbol{Path: it.Path, Line: it.Line}, it.chain)...)
		}
	}
	for i := range r.Tests {
		t := &r.Tests[i]
		t.Stale = v.At(t.Path, t.Line, t.Line)
	}
	return r
}
