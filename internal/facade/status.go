// This file defines the status operation: coverage of the current revision
// (FT-11). The CLI's `ragraf status` and the MCP tool ragraf_status render it.

package facade

import (
	"context"
	"github.com/ragraf/ragraf/internal/bilingual"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/store/control"
)

// StatusArgs takes no input; unknown fields are refused by the transports.
type StatusArgs struct {
	// Examples caps the lists of skipped, failed and conflicting items (default 20).
	Examples int `json:"examples,omitempty" jsonschema:"how many examples to list per category (default 20, max 500)"`
	Output
}

// StatusResult is the coverage report.
type StatusResult struct {
	Rev        string                    `json:"rev"`
	Serving    Warming                   `json:"serving"` // whether rev's caches are built, and a newer revision warming (warm.go)
	CreatedAt  string                    `json:"created_at"`
	CorpusHash string                    `json:"corpus_hash"`
	GitHead    string                    `json:"git_head"`
	Files      FileCoverage              `json:"files"`
	Nodes      map[string]int            `json:"nodes"`      // by kind
	Edges      map[string]map[string]int `json:"edges"`      // kind -> provenance -> count
	Unresolved map[string]int            `json:"unresolved"` // by reference kind
	Chunks     map[string]int            `json:"chunks"`     // by kind
	Conflicts  ConflictList              `json:"conflicts"`
	Duplicates DuplicateList             `json:"duplicates"`
	History    []control.Rev             `json:"history"`
	Domain     *DomainStatus             `json:"domain,omitempty"` // schema.go
	Russian    bilingual.Dictionary      `json:"russian"`          // what translates questions in Russian (bilingual.go)
}

// FileCoverage counts files by status and language; their sum is the corpus.
type FileCoverage struct {
	Total      int                       `json:"total"`
	ByStatus   map[string]int            `json:"by_status"`
	ByLanguage map[string]map[string]int `json:"by_language"` // language -> status -> count
	Skipped    []FileIssue               `json:"skipped"`     // examples with reasons
	Partial    []FileIssue               `json:"partial"`
	Failed     []FileIssue               `json:"failed"`
	Reasons    map[string]int            `json:"skip_reasons"` // reason class -> count
}

// FileIssue is one file that was not fully parsed, and why.
type FileIssue struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// ConflictList is qualified names declared more than once.
type ConflictList struct {
	Total int        `json:"total"`
	Items []Conflict `json:"items"`
}

// Conflict is one qualified name with each declaration site.
type Conflict struct {
	Kind  string   `json:"kind"`
	QName string   `json:"qname"`
	Sites []string `json:"sites"` // path:line
}

// DuplicateList is groups of files with identical content.
type DuplicateList struct {
	Total  int        `json:"total"`
	Groups [][]string `json:"groups"`
}

// Status reports the coverage of the current revision.
func (s *Service) Status(ctx context.Context, args StatusArgs) (*Envelope, error) {
	if args.Examples == 0 {
		args.Examples = 20
	}
	if args.Examples < 0 || args.Examples > 500 {
		return nil, badInput("examples must be between 1 and 500, got %d", args.Examples)
	}
	c, err := s.begin(ctx, "status", pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	// the counts are the revision's, computed once (revcache.go); the
	// history is read each time
	res, err := cached(ctx, snap, "status/"+strconv.Itoa(args.Examples), func(ctx context.Context) (StatusResult, error) {
		return revisionStatus(ctx, snap, args.Examples)
	})
	if err != nil {
		return nil, err
	}
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	if res.History, err = ctl.Revs(ctx); err != nil {
		return nil, storeError(err)
	}
	res.Serving = s.warming(snap)
	env := c.env
	env.Result = res
	env.Limits = Limits{Limit: args.Examples, Returned: 1, Total: 1}
	if err := s.finish(ctx, env, snap, nil); err != nil {
		return nil, err
	}
	return env, nil
}

// revisionStatus is the part of status that depends on the revision alone.
func revisionStatus(ctx context.Context, snap *snapshot, examples int) (StatusResult, error) {
	args := StatusArgs{Examples: examples}
	g := snap.graph
	res := StatusResult{
		Rev: snap.name, CreatedAt: snap.info.CreatedAt, CorpusHash: snap.info.CorpusHash, GitHead: snap.info.GitHead,
		Files: FileCoverage{ByStatus: map[string]int{}, ByLanguage: map[string]map[string]int{}, Reasons: map[string]int{}, Skipped: []FileIssue{}, Partial: []FileIssue{}, Failed: []FileIssue{}},
		Nodes: map[string]int{}, Edges: map[string]map[string]int{}, Unresolved: map[string]int{},
	}
	files, err := g.Files(ctx)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	for _, f := range files {
		res.Files.Total++
		res.Files.ByStatus[f.Status]++
		lang := f.Lang
		if lang == "" {
			lang = "unknown"
		}
		if res.Files.ByLanguage[lang] == nil {
			res.Files.ByLanguage[lang] = map[string]int{}
		}
		res.Files.ByLanguage[lang][f.Status]++
		issue := FileIssue{Path: f.Path, Line: 1, Reason: f.Reason}
		switch f.Status {
		case "skipped":
			res.Files.Reasons[reasonClass(f.Reason)]++
			if len(res.Files.Skipped) < args.Examples {
				res.Files.Skipped = append(res.Files.Skipped, issue)
			}
		case "partial":
			if len(res.Files.Partial) < args.Examples {
				res.Files.Partial = append(res.Files.Partial, issue)
			}
		case "failed":
			if len(res.Files.Failed) < args.Examples {
				res.Files.Failed = append(res.Files.Failed, issue)
			}
		}
	}
	nc, err := g.NodeCounts(ctx)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	for _, c := range nc {
		res.Nodes[c.Key] = c.Count
	}
	ec, err := g.EdgeCounts(ctx)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	for _, c := range ec {
		kind, prov := splitKey(c.Key)
		if res.Edges[kind] == nil {
			res.Edges[kind] = map[string]int{}
		}
		res.Edges[kind][prov] = c.Count
	}
	uc, err := g.UnresolvedCounts(ctx)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	for _, c := range uc {
		res.Unresolved[c.Key] = c.Count
	}
	if res.Chunks, err = snap.lex.ChunkCount(ctx); err != nil {
		return StatusResult{}, storeError(err)
	}
	conflicts, total, err := g.Conflicts(ctx, args.Examples)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	res.Conflicts = ConflictList{Total: total, Items: []Conflict{}}
	for _, c := range conflicts {
		res.Conflicts.Items = append(res.Conflicts.Items, Conflict{Kind: c.Kind, QName: c.QName, Sites: c.Sites})
	}
	dups, dtotal, err := g.Duplicates(ctx, args.Examples)
	if err != nil {
		return StatusResult{}, storeError(err)
	}
	res.Duplicates = DuplicateList{Total: dtotal, Groups: dups}
	if res.Duplicates.Groups == nil {
		res.Duplicates.Groups = [][]string{}
	}
	res.Domain = domainStatus(ctx, snap)
	res.Russian = Lexicon().Info()
	return res, nil
}

func splitKey(k string) (string, string) {
	for i := len(k) - 1; i >= 0; i-- {
		if k[i] == '/' {
			return k[:i], k[i+1:]
		}
	}
	return k, ""
}

// reasonClass groups skip reasons by what precedes their detail:
// "oversize (3 MB > 2 MB)" -> "oversize", "language not indexed: js" ->
// "language not indexed".
func reasonClass(r string) string {
	if i := strings.IndexAny(r, ":("); i >= 0 {
		r = r[:i]
	}
	return strings.TrimSpace(r)
}
