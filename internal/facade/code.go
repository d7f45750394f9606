// This file defines the code operation: source text as indexed in this
// revision (the graph store keeps a snapshot of every parsed file), with a
// stale flag when the working-tree file no longer matches it. A path the
// project now excludes is refused as live_read refuses it, and the snapshot
// is redacted again on the way out, so a revision built by an older redactor
// serves what the current one would have stored.

package facade

import (
	"context"
	"strings"

	"github.com/ragraf/ragraf/internal/secrets"
)

// CodeArgs names a definition, or a file and optionally a line range.
type CodeArgs struct {
	ID        string `json:"id,omitempty" jsonschema:"node id: returns that definition's lines"`
	QName     string `json:"qname,omitempty" jsonschema:"a name (add, Cart::add), qualified name or path:line instead of id"`
	Near      string `json:"near,omitempty" jsonschema:"your file: picks among same-named definitions"`
	Path      string `json:"path,omitempty" jsonschema:"file path relative to the project root, instead of id"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line with path (1-based, default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line with path (inclusive, default start_line+399)"`
	Output
}

// CodeResult is indexed source text.
type CodeResult struct {
	Path      string  `json:"path"`
	Line      int     `json:"line"`
	EndLine   int     `json:"end_line"`
	Text      string  `json:"text"`
	Symbol    *Symbol `json:"symbol,omitempty"`
	Stale     bool    `json:"stale"`
	FileState string  `json:"file_state"` // unchanged | modified | deleted | unreadable
}

// maxCodeLines bounds one code answer.
const maxCodeLines = 2000

// Code returns source text as indexed.
func (s *Service) Code(ctx context.Context, args CodeArgs) (*Envelope, error) {
	const op = "code"
	if (args.ID != "" || args.QName != "") == (args.Path != "") {
		return nil, badInput("pass id, qname or path")
	}
	if args.Path == "" {
		if err := (Target{ID: args.ID, QName: args.QName, Near: args.Near}).check(); err != nil {
			return nil, err
		}
		if args.StartLine != 0 || args.EndLine != 0 {
			return nil, badInput("start_line and end_line go with path")
		}
	}
	var path string
	if args.Path != "" {
		p, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		path = p
		if args.StartLine < 0 || args.EndLine < 0 || (args.EndLine != 0 && args.EndLine < args.StartLine) {
			return nil, badInput("start_line and end_line must be positive with start_line <= end_line")
		}
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	res := CodeResult{}
	start, end := args.StartLine, args.EndLine
	if path == "" {
		t, ok, err := c.target(Target{ID: args.ID, QName: args.QName, Near: args.Near})
		if err != nil || !ok {
			return c.fail(res, err)
		}
		res.Symbol = &t
		path, start, end = t.Path, t.Line, t.EndLine
	}
	res.Path = path
	if err := s.checkExcluded(path); err != nil {
		return nil, err
	}
	content, ok, err := snap.graph.Snapshot(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok {
		env.Result = res
		notFoundPath(env, path)
		return c.done(env.Result)
	}
	content, _ = secrets.Redact(content)
	lines := splitLines(string(content))
	if start == 0 {
		start = 1
	}
	if end == 0 {
		end = start + 399
	}
	total := end - start + 1
	end = min(end, len(lines), start+maxCodeLines-1)
	if start > len(lines) {
		return nil, badInput("start_line %d is past the end of %s (%d lines as indexed)", start, path, len(lines))
	}
	res.Line, res.EndLine = start, end
	res.Text = strings.Join(lines[start-1:end], "")
	res.FileState = s.fileState(ctx, snap, path)
	res.Stale = res.FileState != "unchanged"
	env.Result = res
	env.Limits = Limits{Limit: maxCodeLines, Returned: end - start + 1, Total: min(total, len(lines)-start+1)}
	env.Limits.Truncated = env.Limits.Returned < env.Limits.Total
	c.cite([]string{path}...)
	return c.done(env.Result)
}

// splitLines splits text into lines that keep their newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
