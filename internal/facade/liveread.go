// This file defines the live_read operation: the working-tree file as it is
// now, with the hunks that differ from the indexed snapshot marked. Its
// provenance is "mixed": the text is live, the hunk boundaries compare it
// with the index (FT-31). It also holds the guard of every operation that
// serves file contents (live_read, code): a path the index excludes is
// refused with E_EXCLUDED, and served text is prepared as the index prepares
// it (normalised, secrets redacted), FT-39.

package facade

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/secrets"
)

// LiveReadArgs names the file and optionally a line range of the current file.
type LiveReadArgs struct {
	Path      string `json:"path" jsonschema:"file path relative to the project root, e.g. src/Cart.php"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line of the current file to return (default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to return (inclusive, default start_line+399)"`
	Output
}

// Hunk is a changed region: lines Line..EndLine of the current file replace
// IndexedLine..IndexedEndLine of the snapshot. An empty range (end < start)
// means pure insertion or deletion.
type Hunk struct {
	Line           int `json:"line"`
	EndLine        int `json:"end_line"`
	IndexedLine    int `json:"indexed_line"`
	IndexedEndLine int `json:"indexed_end_line"`
}

// LiveReadResult is the current text and how it differs from the index.
type LiveReadResult struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	EndLine   int    `json:"end_line"`
	Lines     int    `json:"lines"` // of the current file
	Text      string `json:"text"`
	Indexed   bool   `json:"indexed"` // the revision holds a snapshot of this file
	Changed   bool   `json:"changed"`
	Hunks     []Hunk `json:"hunks"`
	FileState string `json:"file_state"` // unchanged | modified | added | deleted
}

// LiveRead returns the current file with the changes since indexing marked.
func (s *Service) LiveRead(ctx context.Context, args LiveReadArgs) (*Envelope, error) {
	const op = "live_read"
	path, err := s.cleanPath("path", args.Path)
	if err != nil {
		return nil, err
	}
	if args.StartLine < 0 || args.EndLine < 0 || (args.EndLine != 0 && args.EndLine < args.StartLine) {
		return nil, badInput("start_line and end_line must be positive with start_line <= end_line")
	}
	if err := s.checkExcluded(path); err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	env.Provenance = "mixed"
	res := LiveReadResult{Path: path, Hunks: []Hunk{}}
	old, indexed, err := snap.graph.Snapshot(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	res.Indexed = indexed
	cur, err := s.readLive(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		res.FileState = "deleted"
		res.Changed = indexed
		env.Result = res
		env.NotFound = true
		if indexed {
			env.Suggest = append(env.Suggest, Suggestion{Op: "code", Args: map[string]any{"path": path}, Why: "the file as indexed"})
		} else {
			env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": lastName(path)}, Why: "lexical search over names, signatures and comments"})
		}
		c.cite([]string{path}...)
		return c.done(env.Result)
	}
	if err != nil {
		return nil, err
	}
	lines := splitLines(cur)
	res.Lines = len(lines)
	start, end := max(args.StartLine, 1), args.EndLine
	if end == 0 {
		end = start + 399
	}
	end = min(end, len(lines), start+maxCodeLines-1)
	if start <= end {
		res.Line, res.EndLine = start, end
		res.Text = strings.Join(lines[start-1:end], "")
	}
	switch {
	case !indexed:
		res.FileState, res.Changed = "added", true
	case string(old) == cur:
		res.FileState = "unchanged"
	default:
		res.FileState, res.Changed = "modified", true
		res.Hunks = hunks(string(old), cur)
	}
	env.Result = res
	env.Limits = Limits{Limit: maxCodeLines, Returned: max(res.EndLine-res.Line+1, 0), Total: max(len(lines)-start+1, 0)}
	env.Limits.Truncated = env.Limits.Returned < env.Limits.Total
	c.cite([]string{path}...)
	return c.done(env.Result)
}

// fileState says how the working-tree file stands against the revision
// (unchanged, modified, deleted or unreadable) by the rule every answer
// applies: its content prepared as the index prepares it (normalised,
// redacted) against the indexed snapshot, so a CRLF or BOM conversion
// alone is no change.
func (s *Service) fileState(ctx context.Context, snap *snapshot, path string) string {
	old, ok, err := snap.graph.Snapshot(ctx, path)
	if err != nil {
		return "unreadable"
	}
	if !ok {
		// no text kept (a binary file): the raw bytes' hash decides
		f, indexed, err := snap.graph.File(ctx, path)
		if err != nil || !indexed || f.Hash == "" {
			return "unreadable"
		}
		h, err := corpus.NewTree(s.root, maxLiveBytes).Hash(ctx, path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "deleted"
		case err != nil:
			return "unreadable"
		case h == f.Hash:
			return "unchanged"
		}
		return "modified"
	}
	cur, err := s.readLive(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "deleted"
	case err != nil:
		return "unreadable"
	case cur == string(old):
		return "unchanged"
	}
	return "modified"
}

// readLive reads the working-tree file at rel as the index would store it:
// BOM dropped, CRLF turned into LF, secrets redacted; the line numbers are
// those of the file.
func (s *Service) readLive(ctx context.Context, rel string) (string, error) {
	raw, err := s.openInProject(ctx, rel)
	if err != nil {
		return "", err
	}
	data, _ := secrets.Redact(corpus.NewContent(raw).Data)
	return string(data), nil
}

// checkExcluded refuses a path the index excludes (mandatory excludes,
// secrets_exclude, exclude, .gitignore, include), and a path whose symlinks
// lead to one, with E_EXCLUDED naming the rule. The rules are the project's
// current config, applied by corpus.Rules exactly as the walk of an index
// applies them.
func (s *Service) checkExcluded(rel string) error {
	if why := s.excludedBy(rel); why != "" {
		return &Error{Code: ErrExcluded, Message: fmt.Sprintf("path %q %s", rel, why)}
	}
	return nil
}

// excludedBy says why rel is excluded, as the rest of a sentence starting
// with the path ("" when it is not).
func (s *Service) excludedBy(rel string) string {
	cfg, err := config.Load(s.cfgPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && s.cfgPath == s.layout.Config():
		cfg = config.Default()
	case err != nil:
		return fmt.Sprintf("is not served: the project's excludes cannot be read until its config loads (%v)", err)
	}
	rules := corpus.NewRules(s.root, cfg)
	if why := rules.Excluded(rel); why != "" {
		return fmt.Sprintf("is excluded from the index by %s; its content is not served", why)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(s.root, filepath.FromSlash(rel)))
	if err != nil {
		return "" // nothing to follow: the read reports a missing file
	}
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return ""
	}
	target, err := filepath.Rel(root, real)
	if err != nil || target == ".." || strings.HasPrefix(target, ".."+string(os.PathSeparator)) || filepath.IsAbs(target) {
		return "" // outside the project: the read refuses it
	}
	if target = filepath.ToSlash(target); target != rel {
		if why := rules.Excluded(target); why != "" {
			return fmt.Sprintf("leads to %q, which is excluded from the index by %s; its content is not served", target, why)
		}
	}
	return ""
}

// NotIndexed says why a reindex would not add the project-relative file rel
// to the index ("" when it would): an exclude rule, a language the project
// does not index, a file that is not regular, leads out of the project or is
// over max_file_size.
func (s *Service) NotIndexed(ctx context.Context, rel string) string {
	if why := s.excludedBy(rel); why != "" {
		return "it " + strings.TrimSuffix(why, "; its content is not served")
	}
	cfg := s.configOrDefault()
	if lang := corpus.DetectLang(rel); lang == "" || !slices.Contains(cfg.Languages, lang) {
		return "the project does not index its language (languages in project.yaml)"
	}
	_, err := corpus.NewTree(s.root, cfg.MaxFileSize).Stat(rel)
	if why := corpus.Unreadable(err); why != "" {
		return why
	}
	return ""
}

// hunks lists the changed regions between the indexed and the current text,
// line by line and without context lines: a hunk starts at its first changed
// line.
func hunks(old, cur string) []Hunk {
	edits := lcs.DiffLines(splitLines(old), splitLines(cur))
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	out := []Hunk{}
	for _, e := range edits {
		if n := len(out); n > 0 && out[n-1].IndexedEndLine == e.Start && out[n-1].EndLine == e.ReplStart {
			out[n-1].IndexedEndLine, out[n-1].EndLine = e.End, e.ReplEnd // adjacent: one region
			continue
		}
		out = append(out, Hunk{Line: e.ReplStart + 1, EndLine: e.ReplEnd, IndexedLine: e.Start + 1, IndexedEndLine: e.End})
	}
	return out
}
