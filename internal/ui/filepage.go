// This file fills the file page: the file as indexed with its outline, and
// the current file with the hunks that drifted (what live_read knows).

package ui

import (
	"net/http"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/facade"
)

// fileLines is the most the page shows of a file: code's maximum.
const fileLines = 2000

// codeLine is one numbered line; Mark says it drifted (class "drift") or
// starts a stale outline item.
type codeLine struct {
	N    int
	Text string
	Mark bool
}

type fileData struct {
	Env       pageEnv
	Path      string
	Outline   facade.OutlineResult
	Indexed   []codeLine
	Truncated bool
	Live      facade.LiveReadResult
	Current   []codeLine
	Stale     int // outline items with a stale mark
}

func (s *Server) file(r *http.Request) (any, error) {
	p := r.URL.Query().Get("path")
	if p == "" {
		return nil, &facade.Error{Code: facade.ErrBadInput, Message: "path= (a file relative to the project root) is required"}
	}
	d := fileData{Path: p}
	var code facade.CodeResult
	var codeEnv *facade.Envelope
	g, ctx := errgroup.WithContext(r.Context())
	g.Go(func() (err error) {
		_, d.Outline, err = call[facade.OutlineResult](ctx, s, "outline", facade.OutlineArgs{Path: p})
		return err
	})
	g.Go(func() (err error) {
		codeEnv, code, err = call[facade.CodeResult](ctx, s, "code", facade.CodeArgs{Path: p, StartLine: 1, EndLine: fileLines})
		return err
	})
	g.Go(func() (err error) {
		_, d.Live, err = call[facade.LiveReadResult](ctx, s, "live_read", facade.LiveReadArgs{Path: p, StartLine: 1, EndLine: fileLines})
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	d.Env, d.Truncated = envOf(codeEnv), codeEnv.Limits.Truncated
	var oldMarked, newMarked []int
	for _, h := range d.Live.Hunks {
		oldMarked = append(oldMarked, h.IndexedLine, h.IndexedEndLine)
		newMarked = append(newMarked, h.Line, h.EndLine)
	}
	d.Indexed = numbered(code.Text, code.Line, oldMarked)
	if d.Live.Changed && d.Live.FileState != "deleted" {
		d.Current = numbered(d.Live.Text, d.Live.Line, newMarked)
	}
	d.Stale = countStale(d.Outline.Symbols)
	return d, nil
}

// numbered splits text into lines numbered from first, marking those inside
// the start,end pairs of ranges.
func numbered(text string, first int, ranges []int) []codeLine {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]codeLine, len(lines))
	for i, l := range lines {
		n := first + i
		mark := false
		for j := 0; j+1 < len(ranges); j += 2 {
			if n >= ranges[j] && n <= ranges[j+1] {
				mark = true
				break
			}
		}
		out[i] = codeLine{N: n, Text: strings.TrimRight(l, "\r\n"), Mark: mark}
	}
	return out
}

func countStale(items []facade.OutlineItem) int {
	n := 0
	for _, it := range items {
		if it.Stale != nil {
			n++
		}
		n += countStale(it.Children)
	}
	return n
}
