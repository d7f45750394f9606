// This file runs a build: walk the corpus, extract every file in parallel,
// resolve, and write the store files of a new revision into a temporary
// directory. publish.go turns that directory into the current revision.

package rev

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/all"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/resolve"
	"github.com/ragraf/ragraf/internal/secrets"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
	"github.com/ragraf/ragraf/internal/version"
)

// Options configures a build.
type Options struct {
	Root        string        // project directory
	Config      config.Config // the loaded project.yaml
	Parallelism int           // extraction workers; 0 means GOMAXPROCS
	// Progress, when set, is called from worker goroutines as files finish.
	Progress func(done, total int)
	Logger   *slog.Logger
	// Now gives the time recorded in rev.json and rev_history; tests fix it.
	Now func() time.Time
	// BeforePublish, when set, runs once the new revision is written and
	// before it is published; an error abandons the build. reindex runs the
	// drift detection of the parent revision meanwhile and waits for it here,
	// so the ledger is complete before the archive.
	BeforePublish func() error
	// Full writes the stores from scratch even when the parent revision's
	// could be updated (incremental.go); tests compare the two.
	Full bool
	// Hook, when set, is called as the build passes each stage: "parsing
	// PATH" (a file's parse starts; from the extraction's workers at once),
	// "extracted", "resolved", "summarised" (data-flow summaries made),
	// "trained" (the static model's vectors made, beside the store
	// writes), "written" (store files complete in tmp), "renamed"
	// (directory in revs/), "recorded" (rev_history row appended),
	// "published" (CURRENT switched). Crash and interrupt tests stop the
	// process there.
	Hook func(stage string)
	// NoEmbed skips running the sentence model (`index --no-embed`): the
	// revision gets only the vectors the vector cache already has (none
	// for the static model, which is then not trained).
	NoEmbed bool
	// ORTLib is the ONNX Runtime library a sentence model loads ("": search
	// $RAGRAF_ORT_LIB, the system and the cache).
	ORTLib string
	// EmbedProgress, when set, is called as texts are embedded.
	EmbedProgress func(done, total int)
	// Archive, set by `reindex --commit`, archives the parent revision's
	// drift ledger with a report once the new revision is published
	// (archive.go).
	Archive bool
	// ReuseModel, set by `reindex --commit`, lets the static model embed
	// the changed texts with the parent revision's word vectors instead of
	// training again, when few changed (staticmodel.go).
	ReuseModel bool
}

// SetDefaults fills zero fields.
func (o *Options) SetDefaults() {
	if o.Parallelism <= 0 {
		o.Parallelism = runtime.GOMAXPROCS(0)
		// a file's extraction may hold up to max_file_memory_mb: under a
		// tight budget, fewer files are parsed at once
		if b, f := o.Config.MaxMemoryMB, o.Config.MaxFileMemoryMB; b > 0 && f > 0 {
			o.Parallelism = max(1, min(o.Parallelism, b/int(f)))
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Progress == nil {
		o.Progress = func(int, int) {}
	}
	if o.Hook == nil {
		o.Hook = func(string) {}
	}
	if o.EmbedProgress == nil {
		o.EmbedProgress = func(int, int) {}
	}
}

// Capability says what the revision can answer (the envelope's capability).
type Capability struct {
	Level    string `json:"level"` // full | degraded
	Dataflow bool   `json:"dataflow"`
	Vectors  bool   `json:"vectors"`
	// VectorModel names the model the vectors come from, e.g. static:project.
	VectorModel string `json:"vector_model,omitempty"`
	// VectorsDone is the share of texts with a vector when it is below 1
	// (vectors partial: embedding skipped or the model could not run).
	VectorsDone float64 `json:"vectors_done,omitempty"`
	Reason      string  `json:"reason,omitempty"`
}

// Info is rev.json: what a revision is and how it was built.
type Info struct {
	Rev           string         `json:"rev"`
	CreatedAt     string         `json:"created_at"`
	CorpusHash    string         `json:"corpus_hash"`
	ConfigHash    string         `json:"config_hash"`
	GitHead       string         `json:"git_head"`
	RagrafVersion string         `json:"ragraf_version"`
	ParentRev     string         `json:"parent_rev"`
	Capability    Capability     `json:"capability"`
	Files         map[string]int `json:"files"` // by status
	FilesTotal    int            `json:"files_total"`
	Nodes         int            `json:"nodes"`
	Edges         int            `json:"edges"`
	Chunks        int            `json:"chunks"`
	Unresolved    int            `json:"unresolved"`
	Reused        int            `json:"reused"` // files whose extraction came from the cache
	Vectors       *VectorStats   `json:"vectors,omitempty"`
	// Summaries counts the data-flow summaries made and reused
	// (dfsummary.go); nil without data flow.
	Summaries *SummaryInfo `json:"dataflow_summaries,omitempty"`
}

// fileResult is what one corpus file yields. cache.go stores every field:
// a new field goes into cacheEntry too.
type fileResult struct {
	row      graph.File
	nodes    []fact.Node
	edges    []fact.Edge
	chunks   []fact.TextChunk
	refs     []fact.Ref
	mentions []docs.Mention // names in documentation, linked by resolve
	snapshot []byte         // indexed content, secrets redacted; nil when not kept
	dataflow []byte         // the file lowered for slice and flow (dataflow.Encode); nil when none
}

// extractAll reads and extracts every pending file with opts.Parallelism
// workers, each with its own parser. Results land by index: no locks, and the
// output order is the corpus order whatever the parallelism.
func extractAll(ctx context.Context, opts Options, cache extractCache, files []corpus.File) ([]fileResult, int, error) {
	results := make([]fileResult, len(files))
	var done, reused atomic.Int64
	next := make(chan int)
	g, gctx := errgroup.WithContext(ctx)
	// largest files first, so no worker is left with a big file at the end
	// while the others idle; results still land by corpus index
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return files[order[a]].Size > files[order[b]].Size })
	g.Go(func() error {
		defer close(next)
		for _, i := range order {
			select {
			case next <- i:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for w := 0; w < opts.Parallelism; w++ {
		g.Go(func() error {
			parsers := map[string]lang.Parser{} // by language, made on first use
			defer func() {
				for _, p := range parsers {
					p.Close()
				}
			}()
			for i := range next {
				p, err := parserFor(opts, parsers, files[i])
				if err != nil {
					return err
				}
				r, hit, err := extractCached(gctx, opts, cache, files[i], p)
				if err != nil {
					return err
				}
				if hit {
					reused.Add(1)
				}
				results[i] = r
				opts.Progress(int(done.Add(1)), len(files))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	return results, int(reused.Load()), nil
}

// resolveByLang resolves the references of each language with its resolver
// (package resolve dispatches by language), in language order; refs are the
// results' references in result order.
func resolveByLang(ctx context.Context, results []fileResult, nodes []fact.Node, refs []fact.Ref) (resolve.Output, error) {
	// count first: one language (the usual case) resolves refs as they
	// are, several get one exactly sized slice each instead of growing
	// copies of the whole corpus's references
	counts := map[string]int{}
	for i := range results {
		if n := len(results[i].refs); n > 0 {
			counts[results[i].row.Lang] += n
		}
	}
	if len(counts) <= 1 {
		// one language: its references are refs, in the same order
		l := php.Lang
		for k := range counts {
			l = k
		}
		return resolve.Resolve(ctx, resolve.Input{Lang: l, Nodes: nodes, Refs: refs})
	}
	var outs []resolve.Output
	for _, l := range slices.Sorted(maps.Keys(counts)) {
		langRefs := make([]fact.Ref, 0, counts[l])
		for i := range results {
			if results[i].row.Lang == l {
				langRefs = append(langRefs, results[i].refs...)
			}
		}
		o, err := resolve.Resolve(ctx, resolve.Input{Lang: l, Nodes: nodes, Refs: langRefs})
		if err != nil {
			return resolve.Output{}, err
		}
		outs = append(outs, o)
	}
	return resolve.Merge(outs...)
}

// frontEnds are the language front ends a build extracts with.
var frontEnds = all.Registry()

// parserFor returns the worker's parser for f's language, making it on first
// use; nil when the file is not pending or its language has no front end.
func parserFor(opts Options, parsers map[string]lang.Parser, f corpus.File) (lang.Parser, error) {
	if f.Status != corpus.Pending {
		return nil, nil
	}
	if p, ok := parsers[f.Lang]; ok {
		return p, nil
	}
	fe, ok := frontEnds[f.Lang]
	if !ok {
		return nil, nil
	}
	p, err := fe.New(frontEndOptions(opts.Config))
	if err != nil {
		return nil, err
	}
	parsers[f.Lang] = p
	return p, nil
}

// frontEndOptions are the settings of cfg a front end reads.
func frontEndOptions(cfg config.Config) lang.Options {
	return lang.Options{
		ChunkTokens: cfg.ChunkBudget, TablePrefixes: cfg.Database.TablePrefixes,
		MaxFileWork: cfg.MaxFileWork, MaxFileBytes: cfg.MaxFileMemoryMB << 20,
		Dataflow: cfg.DataFlow.Enabled, DataflowLines: cfg.DataFlow.MaxFunctionLines,
	}
}

// extractOne reads, redacts and extracts one file. A file that cannot be read
// or that makes an extractor fail becomes a `failed` row; it never disappears.
func extractOne(ctx context.Context, opts Options, f corpus.File, p lang.Parser) (res fileResult, err error) {
	res.row = graph.File{Path: f.Path, Lang: f.Lang, Status: string(f.Status), Reason: f.Reason, Size: f.Size, MTime: f.ModTime}
	if f.Status == corpus.Skipped {
		return res, nil
	}
	content, rerr := corpus.Read(filepath.Join(opts.Root, filepath.FromSlash(f.Path)))
	if rerr != nil {
		res.row.Status, res.row.Reason = string(corpus.Failed), "unreadable: "+rerr.Error()
		return res, nil
	}
	res.row.Hash, res.row.Lines = content.Hash, content.Lines
	if content.Binary {
		res.row.Status, res.row.Reason = string(corpus.Skipped), "binary"
		return res, nil
	}
	data, _ := secrets.Redact(content.Data)
	res.snapshot = data
	res.nodes = append(res.nodes, fileNode(f, content.Lines))
	res.row.Status = string(corpus.Parsed)
	defer func() {
		// an extractor bug loses one file, not the build
		if p := recover(); p != nil {
			opts.Logger.Error("internal error in extractor", "path", f.Path, "panic", fmt.Sprint(p))
			res.nodes = res.nodes[:1]
			res.edges, res.chunks, res.dataflow = nil, nil, nil
			res.row.Status, res.row.Reason = string(corpus.Failed), fmt.Sprintf("internal error in %s extractor", f.Lang)
			err = nil
		}
	}()
	if p == nil {
		// a language with no front end keeps its file row and snapshot
		return res, nil
	}
	opts.Hook("parsing " + f.Path)
	r, xerr := p.File(ctx, f.Path, data)
	if xerr != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.row.Status, res.row.Reason = string(corpus.Failed), xerr.Error()
		return res, nil
	}
	res.adopt(r.Nodes, r.Edges)
	res.chunks = append(res.chunks, r.Chunks...)
	res.refs = append(res.refs, r.Refs...)
	res.mentions = append(res.mentions, r.Mentions...)
	if r.Dataflow != nil {
		res.dataflow = dataflow.Encode(r.Dataflow)
	}
	res.addDomain(r.Domain)
	if r.Partial {
		res.row.Status, res.row.Reason = string(corpus.Partial), r.Reason
	}
	if reason := res.uniqueIDs(); reason != "" {
		res.row.Reason = joinReason(res.row.Reason, reason)
		res.row.Status = string(corpus.Partial)
	}
	return res, nil
}

// joinReason adds reason b to a file row's reason a.
func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// adopt adds an extractor's nodes and edges, hanging its top-level nodes
// (those without a parent) below the file node with a contains edge.
func (r *fileResult) adopt(nodes []fact.Node, edges []fact.Edge) {
	fileID := r.nodes[0].ID
	for _, n := range nodes {
		if n.Parent == "" {
			n.Parent = fileID
			edges = append(edges, fact.Edge{
				ID: fact.EdgeID(fact.Contains, fileID, n.ID, n.Path, n.StartLine), Kind: fact.Contains,
				From: fileID, To: n.ID, Provenance: fact.Stated, Confidence: 1,
				EvidencePath: n.Path, EvidenceLine: n.StartLine, Sources: []string{"corpus"},
			})
		}
		r.nodes = append(r.nodes, n)
	}
	r.edges = append(r.edges, edges...)
}

// fileNode is the node that stands for a file; declarations hang below it.
func fileNode(f corpus.File, lines int) fact.Node {
	return fact.Node{
		ID: fact.FileNodeID(f.Path), Kind: fact.File, Name: path.Base(f.Path), QName: f.Path,
		Path: f.Path, StartLine: 1, EndLine: max(lines, 1), Lang: f.Lang,
	}
}

// corpusHash fingerprints the corpus: every path with its content hash and
// status, in path order.
func corpusHash(rows []graph.File) string {
	h := sha256.New()
	for _, r := range rows {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", r.Path, r.Hash, r.Status)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gitHead returns the HEAD commit of the project's git repository, or "".
func gitHead(ctx context.Context, root string) string {
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		return ""
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// write runs the pipeline and writes the store files into dir.
func write(ctx context.Context, opts Options, dir string, info *Info) error {
	walkStart := time.Now()
	vb := newVectorBuild(opts, dir, info)
	// the history is mined beside the build (cochange.go)
	mined := make(chan error, 1)
	go func() { mined <- mineHistory(ctx, opts, dir, info) }()
	defer func() {
		if err := <-mined; err != nil {
			opts.Logger.Warn("writing co-change history", "err", err.Error())
		}
	}()
	// read the extraction cache while the tree is walked
	cached := make(chan extractCache, 1)
	go func() { cached <- loadCache(opts) }()
	files, err := corpus.Walk(ctx, corpus.Options{Root: opts.Root, Config: opts.Config})
	if err != nil {
		return fmt.Errorf("walking %s: %w", opts.Root, err)
	}
	opts.Logger.Info("corpus walked", "files", len(files), "ms", time.Since(walkStart).Milliseconds())
	results, reused, err := extractAll(ctx, opts, <-cached, files)
	if err != nil {
		return err
	}
	info.Reused = reused
	opts.Logger.Info("extracted", "files", len(files), "reused", reused, "ms", time.Since(walkStart).Milliseconds())
	var nn, ne, nc, nr int
	for i := range results {
		r := &results[i]
		nn, ne, nc, nr = nn+len(r.nodes), ne+len(r.edges), nc+len(r.chunks), nr+len(r.refs)
	}
	rows := make([]graph.File, 0, len(results))
	nodes := make([]fact.Node, 0, nn)
	edges := make([]fact.Edge, 0, ne)
	chunks := make([]fact.TextChunk, 0, nc)
	refs := make([]fact.Ref, 0, nr)
	for i := range results {
		r := &results[i]
		rows = append(rows, r.row)
		// each result's facts are then read from the corpus-wide slice
		// instead of a second copy: nothing below writes into these arrays
		// (dropRepeated and applyRouteImports copy before they change one)
		r.nodes = appendShared(&nodes, r.nodes)
		r.edges = appendShared(&edges, r.edges)
		r.chunks = appendShared(&chunks, r.chunks)
		r.refs = appendShared(&refs, r.refs)
	}
	// the next build reads the cache; write it while the stores are written
	saved := make(chan error, 1)
	go func() { saved <- saveCache(opts, results) }()
	defer func() {
		if err := <-saved; err != nil {
			opts.Logger.Warn("writing extraction cache", "err", err.Error())
		}
	}()
	opts.Hook("extracted")
	nodes = uniqueNodes(nodes, opts.Logger)
	// routing configuration changes extracted routes and declares its own:
	// before anything is written
	rc := readRouteConfig(opts.Root, rows, opts.Logger.Warn)
	sc := readServiceConfig(opts.Root, rows, opts.Logger.Warn)
	nodes = slices.Concat(applyRouteImports(nodes, rc.imports), rc.nodes, sc.nodes)
	edges = slices.Concat(edges, rc.edges, sc.edges)
	chunks = uniqueChunks(chunks, opts.Logger)
	snapshots := make(map[string][]byte, len(results))
	for i := range results {
		if results[i].snapshot != nil {
			snapshots[results[i].row.Path] = results[i].snapshot
		}
	}
	snapshot := func(p string) []byte { return snapshots[p] }
	irs := make(map[string][]byte, len(results))
	for i := range results {
		if results[i].dataflow != nil {
			irs[results[i].row.Path] = results[i].dataflow
		}
	}
	ir := func(p string) []byte { return irs[p] }
	// Without a parent to update, the stores are written from scratch: start
	// with what extraction alone gives while resolution runs (fullWrite).
	var early *fullWrite
	if opts.Full || info.ParentRev == "" {
		early = startFullWrite(ctx, vb, dir, rows, snapshot, ir, chunks, nodes)
		defer early.abandon()
	}
	// the domain is linked beside the resolution: both only read nodes and refs
	var domNodes []fact.Node
	var dom resolve.Output
	linked := make(chan struct{})
	go func() {
		defer close(linked)
		domNodes, dom = linkDomain(ctx, opts, results, nodes, slices.Concat(refs, rc.refs, sc.refs))
	}()
	resolved, err := resolveByLang(ctx, results, nodes, refs)
	<-linked
	if err != nil {
		return err
	}
	nodes = uniqueNodes(domNodes, opts.Logger) // what the domain added follows the extracted nodes
	resolved.Unresolved = append(resolved.Unresolved, dom.Unresolved...)
	maps.Copy(resolved.Meta, dom.Meta)
	edges = dedupEdges(slices.Concat(edges, resolved.Edges, dom.Edges))
	edges = append(edges, bindingCalls(nodes, edges, append(sc.bindings, codeBindings(refs)...))...)
	resolved.Unresolved = dedupUnresolved(resolved.Unresolved)
	info.Unresolved = len(resolved.Unresolved)
	opts.Logger.Info("resolved", "edges", len(edges), "unresolved", len(resolved.Unresolved), "ms", time.Since(walkStart).Milliseconds())
	opts.Hook("resolved")

	info.CorpusHash = corpusHash(rows)
	info.Capability = capability(rows, opts.Config)
	info.Files = map[string]int{}
	for _, r := range rows {
		info.Files[r.Status]++
	}
	info.FilesTotal, info.Nodes, info.Edges, info.Chunks = len(rows), len(nodes), len(edges), len(chunks)

	sums, sinfo, err := summaries(ctx, opts, irs, nodes, edges, parentGraphPath(opts.Root, info.ParentRev))
	if err != nil {
		return err
	}
	info.Summaries = sinfo
	opts.Hook("summarised")
	var summary func(string) []byte
	if sums != nil {
		summary = func(p string) []byte { return sums[p] }
	}
	gc := graph.Content{
		Files: rows, Snapshot: snapshot, Dataflow: ir, Summary: summary,
		Nodes: nodes, Edges: edges, Unresolved: resolved.Unresolved, Meta: resolved.Meta,
	}
	// row fingerprints: what changed since the parent, and kept for the next
	// build; computed while the parent's files are copied or the stores written
	dch := make(chan *rowDigests, 1)
	go func() { dch <- contentDigests(gc, chunks) }()
	digests := sync.OnceValue(func() *rowDigests { return <-dch })
	if early != nil {
		err = early.finish(&gc)
	} else if !updateStores(ctx, opts, vb, dir, info.ParentRev, gc, chunks, digests) {
		err = writeStores(ctx, vb, dir, gc, chunks)
	}
	if err != nil {
		digests()
		return err
	}
	vb.apply(&info.Capability, info)
	if err := writeDigests(dir, digests()); err != nil {
		return fmt.Errorf("writing row digests: %w", err)
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, RevJSON), append(b, '\n'), 0o644)
}

// writeStores writes both stores in full.
func writeStores(ctx context.Context, vb *vectorBuild, dir string, gc graph.Content, chunks []fact.TextChunk) error {
	return startFullWrite(ctx, vb, dir, gc.Files, gc.Snapshot, gc.Dataflow, chunks, gc.Nodes).finish(&gc)
}

// fullWrite writes both stores from scratch, one goroutine per file: they are
// independent. The graph's starts while resolution runs, with the rows
// extraction alone gives (file rows, snapshots, the extracted nodes and their
// indexes, committed so the kernel writes them out meanwhile), then waits for
// finish to hand over the rest. The lexvec file waits for the hand-over too:
// written during resolution it would take a core from it, and resolution is
// on the way to the graph's edges; written after it, it runs beside the rest
// of the graph, and the two files take about as long.
type fullWrite struct {
	ready chan struct{} // closed by finish or abandon
	gc    *graph.Content
	g     errgroup.Group
	once  sync.Once
	vb    *vectorBuild
}

// errAbandoned ends a full write whose build failed before finish.
var errAbandoned = errors.New("store write abandoned")

func startFullWrite(ctx context.Context, vb *vectorBuild, dir string, files []graph.File, snapshot, ir func(string) []byte, chunks []fact.TextChunk, nodes []fact.Node) *fullWrite {
	w := &fullWrite{ready: make(chan struct{}), vb: vb}
	w.g.Go(func() error {
		gw, err := graph.Create(ctx, filepath.Join(dir, GraphDB))
		if err != nil {
			return err
		}
		if err := w.graph(ctx, gw, filepath.Join(dir, GraphDB), files, snapshot, ir, nodes); err != nil {
			gw.Abort()
			return err
		}
		if err := gw.Close(ctx); err != nil {
			return err
		}
		return syncFile(filepath.Join(dir, GraphDB))
	})
	w.g.Go(func() error {
		lw, err := lexvec.Create(ctx, filepath.Join(dir, LexvecDB))
		if err != nil {
			return err
		}
		if err := w.lexvec(ctx, lw, chunks); err != nil {
			lw.Abort()
			return err
		}
		if err := lw.Close(ctx); err != nil {
			return err
		}
		return syncFile(filepath.Join(dir, LexvecDB)) // while the graph is still written
	})
	return w
}

// content waits for finish and returns what it handed over; nil when the
// write was abandoned.
func (w *fullWrite) content() *graph.Content {
	<-w.ready
	return w.gc
}

func (w *fullWrite) graph(ctx context.Context, gw *graph.Writer, path string, files []graph.File, snapshot, ir func(string) []byte, nodes []fact.Node) error {
	if err := gw.Files(ctx, files); err != nil {
		return err
	}
	if err := gw.Snapshots(ctx, files, snapshot); err != nil {
		return err
	}
	if err := gw.Dataflow(ctx, files, ir); err != nil {
		return err
	}
	if err := gw.Nodes(ctx, nodes); err != nil {
		return err
	}
	if err := gw.IndexNodes(ctx); err != nil {
		return err
	}
	if err := gw.Commit(ctx); err != nil {
		return err
	}
	if f, err := os.Open(path); err == nil {
		startWriteback(f)
		f.Close()
	}
	gc := w.content()
	if gc == nil {
		return errAbandoned
	}
	if len(gc.Nodes) < len(nodes) {
		return fmt.Errorf("store write: %d nodes handed over, %d written before", len(gc.Nodes), len(nodes))
	}
	if gc.Summary != nil {
		if err := gw.Summaries(ctx, files, gc.Summary); err != nil {
			return err
		}
	}
	if err := gw.Nodes(ctx, gc.Nodes[len(nodes):]); err != nil {
		return err
	}
	if err := gw.Edges(ctx, gc.Edges); err != nil {
		return err
	}
	if err := gw.Unresolved(ctx, gc.Unresolved); err != nil {
		return err
	}
	return gw.Meta(ctx, gc.Meta)
}

func (w *fullWrite) lexvec(ctx context.Context, lw *lexvec.Writer, chunks []fact.TextChunk) error {
	gc := w.content()
	if gc == nil {
		return errAbandoned
	}
	if err := lw.Chunks(ctx, chunks); err != nil {
		return err
	}
	if err := lw.Symbols(ctx, gc.Nodes); err != nil {
		return err
	}
	vec, err := w.vb.vectors(ctx, gc.Nodes, chunks)
	if err != nil {
		return err
	}
	return lw.Vectors(ctx, vec)
}

// finish hands over the content resolution completed and waits for both
// stores. gc.Files and gc.Snapshot must be those the write started with, and
// gc.Nodes must begin with its nodes.
func (w *fullWrite) finish(gc *graph.Content) error {
	w.once.Do(func() { w.gc = gc; close(w.ready) })
	return w.g.Wait()
}

// abandon stops a write that finish never completed and removes nothing:
// the build directory goes with the failed build. Harmless after finish.
func (w *fullWrite) abandon() {
	w.once.Do(func() { close(w.ready) })
	_ = w.g.Wait()
}

// appendShared appends part to *all, whose capacity holds it, and returns
// part's place in *all: the caller drops its own array for that view.
func appendShared[T any](all *[]T, part []T) []T {
	if len(part) == 0 {
		return part
	}
	lo := len(*all)
	*all = append(*all, part...)
	return (*all)[lo:len(*all):len(*all)]
}

// dedupEdges drops edges with a repeated id (the same relation seen twice at
// the same place), keeping the first. The order stays the input's, which is
// deterministic; writers sort by id themselves.
func dedupEdges(edges []fact.Edge) []fact.Edge {
	return dropRepeated(edges, func(e *fact.Edge) string { return e.ID }, nil)
}

// dedupUnresolved drops unresolved references with a repeated id (one use
// reported by two resolution passes), keeping the first, sorted by id.
func dedupUnresolved(us []fact.Unresolved) []fact.Unresolved {
	slices.SortStableFunc(us, func(a, b fact.Unresolved) int { return strings.Compare(a.ID, b.ID) })
	out := us[:0]
	for _, u := range us {
		if len(out) > 0 && out[len(out)-1].ID == u.ID {
			continue
		}
		out = append(out, u)
	}
	return out
}

// capability says what a revision of the files rows can answer. Level is
// about the data-flow engine (ARCHITECTURE.md §7, §11): "full" when slice
// and flow can run on the revision, which they can for any revision with PHP
// files, since they lower the indexed snapshots on demand; vectors are
// reported on their own and never lower the level: a build trains the static
// model (internal/embed) when embeddings.model asks for it. dataflow.enabled
// false makes it "degraded" with that reason (FT-12). rows nil is a revision
// not yet built.
func capability(rows []graph.File, cfg config.Config) Capability {
	c := Capability{Level: "degraded", Reason: "data-flow engine covers PHP only and the revision has no PHP file; "}
	for _, r := range rows {
		if r.Lang == php.Lang {
			c = Capability{Level: "full", Dataflow: true}
			break
		}
	}
	if !cfg.DataFlow.Enabled {
		c = Capability{Level: "degraded", Reason: "data-flow engine disabled (dataflow.enabled: false in the project's config); "}
	}
	switch m := cfg.Embeddings.Model; {
	case m == config.StaticModel:
		c.Vectors, c.VectorModel = true, embed.ModelID
		c.Reason += "vectors come from the static model trained on the project (" + embed.ModelID + "); no ONNX sentence model is configured"
	case !cfg.Embeddings.None():
		c.Reason += vectorReasonMark + "not computed yet (sentence model " + m + ")"
	default:
		c.Reason += "no embedding model configured (embeddings.model: " + config.NoModel + "; \"" + config.StaticModel + "\", the default, trains one on the project): search is lexical"
	}
	return c
}

func ragrafVersion() string { return version.Version }
