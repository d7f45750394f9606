// This file splits a documentation file into sections and chunks; mention.go
// finds the names sections use.

package docs

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// Options configures extraction.
type Options struct {
	// ChunkTokens is the budget of one chunk, counted as len(text)/4.
	ChunkTokens int
	// TablePrefixes mark backticked names as tables (e.g. "wp_").
	TablePrefixes []string
}

// DefaultOptions returns the options Extract uses.
func DefaultOptions() Options { return Options{ChunkTokens: 512} }

// Mention is a name used in a section.
type Mention struct {
	SectionID string // doc_section id, or the doc id for text before the first heading
	Text      string
	Kind      string // "symbol", "path", "table"
	Line      int
}

// Result is what one documentation file yields.
type Result struct {
	Nodes    []fact.Node
	Edges    []fact.Edge
	Chunks   []fact.TextChunk
	Mentions []Mention
}

// Extract reads a Markdown or reStructuredText file with DefaultOptions.
func Extract(path string, src []byte) Result { return ExtractWith(path, src, DefaultOptions()) }

type heading struct {
	start, end int // lines of the heading itself (setext/rst span two or three)
	level      int
	text       string
}

// ExtractWith reads a Markdown or reStructuredText file (by extension).
func ExtractWith(path string, src []byte, opts Options) Result {
	if opts.ChunkTokens <= 0 {
		opts.ChunkTokens = DefaultOptions().ChunkTokens
	}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var hs []heading
	var code []bool
	lang := "markdown"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".rst", ".rest":
		lang = "rst"
		hs, code = rstHeadings(lines)
	default:
		hs, code = mdHeadings(lines)
	}
	return build(path, lang, lines, hs, code, opts)
}

var (
	atx      = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fenceRe  = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	setext1  = regexp.MustCompile(`^ {0,3}=+[ \t]*$`)
	setext2  = regexp.MustCompile(`^ {0,3}-+[ \t]*$`)
	listItem = regexp.MustCompile(`^ {0,3}([-*+>]|\d+[.)])( |$)`)
)

// mdHeadings finds Markdown headings; code marks lines inside fenced code.
func mdHeadings(lines []string) ([]heading, []bool) {
	var hs []heading
	code := make([]bool, len(lines))
	fence := ""
	for i, l := range lines {
		if fence != "" {
			code[i] = true
			t := strings.TrimLeft(l, " ")
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		t := strings.TrimLeft(l, " ")
		if t == "" || !strings.ContainsRune("`~#=-", rune(t[0])) {
			continue
		}
		if m := fenceRe.FindStringSubmatch(l); m != nil {
			fence = m[1]
			code[i] = true
			continue
		}
		if m := atx.FindStringSubmatch(l); m != nil {
			hs = append(hs, heading{start: i + 1, end: i + 1, level: len(m[1]), text: strings.TrimSpace(m[2])})
			continue
		}
		if i > 0 && (setext1.MatchString(l) || setext2.MatchString(l)) {
			prev := lines[i-1]
			if strings.TrimSpace(prev) == "" || code[i-1] || listItem.MatchString(prev) || atx.MatchString(prev) ||
				strings.HasPrefix(prev, "    ") || (len(hs) > 0 && hs[len(hs)-1].end == i) {
				continue
			}
			// The paragraph must be one line: the line before it is blank or the start.
			if i > 1 && strings.TrimSpace(lines[i-2]) != "" && !code[i-2] {
				continue
			}
			level := 1
			if setext2.MatchString(l) {
				level = 2
			}
			hs = append(hs, heading{start: i, end: i + 1, level: level, text: strings.TrimSpace(prev)})
		}
	}
	return hs, code
}

// rstHeadings finds reStructuredText titles: a text line with an underline
// (and optionally an overline) of one punctuation character at least as long.
// Levels follow the order in which adornment styles first appear.
func rstHeadings(lines []string) ([]heading, []bool) {
	var hs []heading
	code := make([]bool, len(lines))
	styles := map[string]int{}
	for i := 0; i+1 < len(lines); i++ {
		title := strings.TrimRight(lines[i], " \t")
		under := strings.TrimRight(lines[i+1], " \t")
		if strings.TrimSpace(title) == "" || !adornment(under) || len([]rune(under)) < len([]rune(strings.TrimSpace(title))) || adornment(title) {
			continue
		}
		start, style := i+1, under[:1]
		if i > 0 && strings.TrimRight(lines[i-1], " \t") == under {
			start, style = i, under[:1]+"o"
		} else if strings.HasPrefix(title, " ") {
			continue
		}
		if _, ok := styles[style]; !ok {
			styles[style] = len(styles) + 1
		}
		hs = append(hs, heading{start: start, end: i + 2, level: styles[style], text: strings.TrimSpace(title)})
		i++
	}
	return hs, code
}

func adornment(s string) bool {
	if len(s) < 2 {
		return false
	}
	c := s[0]
	if !strings.ContainsRune("=-~`:'\"^_*+#<>.", rune(c)) {
		return false
	}
	return strings.Trim(s, string(c)) == ""
}

type section struct {
	id      string
	h       heading
	endLine int
	parent  int // index of the enclosing section, -1 for the doc
	bodyEnd int // last line before the first child heading
}

func build(path, lang string, lines []string, hs []heading, code []bool, opts Options) Result {
	var r Result
	n := len(lines)
	docID := fact.NodeID(fact.Doc, path, path, 0)
	r.Nodes = append(r.Nodes, fact.Node{
		ID: docID, Kind: fact.Doc, Name: filepath.Base(path), QName: path, Path: path,
		StartLine: 1, EndLine: max(n, 1), Lang: lang,
	})
	secs := make([]section, len(hs))
	var stack []int
	seen := map[string]int{}
	for i, h := range hs {
		for len(stack) > 0 && hs[stack[len(stack)-1]].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		secs[i] = section{h: h, parent: parent, endLine: n, bodyEnd: n}
		qname := qnameOf(secs, hs, i, path)
		secs[i].id = fact.NodeID(fact.DocSection, qname, path, seen[qname])
		seen[qname]++
		stack = append(stack, i)
	}
	for i := range secs {
		for j := i + 1; j < len(secs); j++ {
			if hs[j].level <= hs[i].level {
				secs[i].endLine = hs[j].start - 1
				break
			}
		}
		secs[i].bodyEnd = secs[i].endLine
		if i+1 < len(secs) && hs[i+1].start-1 < secs[i].bodyEnd {
			secs[i].bodyEnd = hs[i+1].start - 1
		}
	}
	for i, s := range secs {
		parentID := docID
		if s.parent >= 0 {
			parentID = secs[s.parent].id
		}
		r.Nodes = append(r.Nodes, fact.Node{
			ID: s.id, Kind: fact.DocSection, Name: s.h.text, QName: qnameOf(secs, hs, i, path), Path: path,
			StartLine: s.h.start, EndLine: max(s.endLine, s.h.end), Lang: lang, Parent: parentID,
			Props: map[string]string{"level": itoa(s.h.level)},
		})
		r.Edges = append(r.Edges, fact.Edge{
			ID: fact.EdgeID(fact.Contains, parentID, s.id, path, s.h.start), Kind: fact.Contains,
			From: parentID, To: s.id, Provenance: fact.Stated, Confidence: 1,
			EvidencePath: path, EvidenceLine: s.h.start, Sources: []string{"docs"},
		})
	}
	// Chunks and mentions cover each section's own lines; the preamble belongs to the doc.
	first := n + 1
	if len(hs) > 0 {
		first = hs[0].start
	}
	r.addBody(path, docID, lines, code, 1, first-1, opts)
	for _, s := range secs {
		r.addBody(path, s.id, lines, code, s.h.start, s.bodyEnd, opts)
	}
	return r
}

func qnameOf(secs []section, hs []heading, i int, path string) string {
	var parts []string
	for j := i; j >= 0; j = secs[j].parent {
		parts = append(parts, hs[j].text)
	}
	q := path + "#"
	for k := len(parts) - 1; k >= 0; k-- {
		q += "/" + parts[k]
	}
	return q
}

// addBody emits the chunks of lines from..to (1-based, inclusive) and their mentions.
func (r *Result) addBody(path, nodeID string, lines []string, code []bool, from, to int, opts Options) {
	if from > to {
		return
	}
	budget := opts.ChunkTokens * 4
	start, size := from, 0
	flush := func(end int) {
		text := strings.Join(lines[start-1:end], "\n")
		if strings.TrimSpace(text) != "" {
			r.Chunks = append(r.Chunks, fact.TextChunk{
				ID: fact.ChunkID("doc_section", path, start, 0, nodeID), NodeID: nodeID, Kind: "doc_section",
				Path: path, StartLine: start, EndLine: end, Text: text,
			})
		}
		start, size = end+1, 0
	}
	for ln := from; ln <= to; ln++ {
		l := len(lines[ln-1]) + 1
		if size > 0 && size+l > budget {
			flush(ln - 1)
		}
		size += l
		if !code[ln-1] {
			r.Mentions = append(r.Mentions, mentions(nodeID, lines[ln-1], ln, opts)...)
		}
	}
	if start <= to {
		flush(to)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
