// This file adds the application's domain to a build: the live database
// schemas named in project.yaml (database.sources), crontab files, and the
// links resolve.Domain makes (queries, references_table, handles,
// documented_by). build.go calls addDomain once per PHP file and linkDomain
// once after resolution.

package rev

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/dbschema"
	"github.com/ragraf/ragraf/internal/extract/routes"
	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/resolve"
	"github.com/ragraf/ragraf/internal/secrets"
)

// MetaDBSources is the graph meta key listing the live databases read at
// index time and their outcome (JSON list of DBSourceStatus).
const MetaDBSources = "db_sources"

// DBSourceStatus is the outcome of reading one live database.
type DBSourceStatus struct {
	Name   string `json:"name"`
	Driver string `json:"driver"`
	Path   string `json:"path"` // "db:<driver>/<database>", the path of its table nodes
	Tables int    `json:"tables"`
	Error  string `json:"error,omitempty"`
}

// dbReadTimeout bounds reading one live schema: an unreachable server must
// not hold up the build.
const dbReadTimeout = 20 * time.Second

// addDomain adds the domain facts of one PHP file to its result.
func (r *fileResult) addDomain(d lang.Domain) {
	r.nodes = append(r.nodes, d.Nodes...)
	r.edges = append(r.edges, d.Edges...)
	r.refs = append(r.refs, d.Refs...)
}

// linkDomain reads the live schemas and crontab files and links the domain
// references and mentions. It returns nodes with the live tables and cron
// jobs added, and the edges, unresolved references and meta it found. It
// only reads nodes and refs, so it runs beside resolve.Resolve.
func linkDomain(ctx context.Context, opts Options, results []fileResult, nodes []fact.Node, refs []fact.Ref) ([]fact.Node, resolve.Output) {
	nodes = slices.Clip(nodes) // appends copy, never write into the caller's array
	out := &resolve.Output{}
	var extraRefs []fact.Ref
	for i := range results {
		p := results[i].row.Path
		if !routes.IsCrontab(p) || results[i].row.Status == string(corpus.Failed) {
			continue
		}
		data := results[i].snapshot
		if data == nil {
			c, err := corpus.Read(filepath.Join(opts.Root, filepath.FromSlash(p)))
			if err != nil || c.Binary {
				continue
			}
			data, _ = secrets.Redact(c.Data)
		}
		n, rf := routes.Facts(p, routes.Parse(data))
		fileID := fact.FileNodeID(p)
		for _, x := range n {
			x.Parent = fileID
			nodes = append(nodes, x)
			out.Edges = append(out.Edges, fact.Edge{
				ID: fact.EdgeID(fact.Contains, fileID, x.ID, p, x.StartLine), Kind: fact.Contains,
				From: fileID, To: x.ID, Provenance: fact.Stated, Confidence: 1,
				EvidencePath: p, EvidenceLine: x.StartLine, Sources: []string{"crontab"},
			})
		}
		extraRefs = append(extraRefs, rf...)
	}
	var statuses []DBSourceStatus
	for _, src := range opts.Config.Database.Sources {
		n, e, st := readLiveSchema(ctx, opts, src.Name, src.Driver, src.DSN, src.PasswordEnv)
		nodes = append(nodes, n...)
		out.Edges = append(out.Edges, e...)
		statuses = append(statuses, st)
	}
	var mentions []resolve.MentionAt
	for i := range results {
		for _, m := range results[i].mentions {
			mentions = append(mentions, resolve.MentionAt{Path: results[i].row.Path, Mention: m})
		}
	}
	out.Meta = map[string]string{}
	if statuses == nil {
		statuses = []DBSourceStatus{}
	}
	if b, err := json.Marshal(statuses); err == nil {
		out.Meta[MetaDBSources] = string(b)
	}
	dom, err := resolve.Domain(ctx, resolve.DomainInput{
		Nodes: nodes, Refs: append(slices.Clip(refs), extraRefs...), Mentions: mentions,
		TablePrefixes: opts.Config.Database.TablePrefixes,
	})
	if err != nil {
		opts.Logger.Error("linking the domain", "err", err)
		return nodes, *out
	}
	nodes = append(nodes, dom.Nodes...)
	out.Edges = append(out.Edges, dom.Edges...)
	// one statement naming a table twice (select and update) is one
	// unresolved row: the build's dedupUnresolved keeps one
	out.Unresolved = append(out.Unresolved, dom.Unresolved...)
	for k, v := range dom.Meta {
		out.Meta[k] = v
	}
	return nodes, *out
}

// readLiveSchema reads one configured database. The password comes from the
// environment variable named by passwordEnv; it is never stored or logged,
// and errors are scrubbed of it by dbschema.Open.
func readLiveSchema(ctx context.Context, opts Options, name, driver, dsn, passwordEnv string) ([]fact.Node, []fact.Edge, DBSourceStatus) {
	database := dbschema.DatabaseName(driver, dsn)
	if name == "" {
		name = database
	}
	st := DBSourceStatus{Name: name, Driver: driver, Path: "db:" + driver + "/" + database}
	password := ""
	if passwordEnv != "" {
		password = os.Getenv(passwordEnv)
	}
	if driver == "sqlite" || driver == "sqlite3" {
		if !filepath.IsAbs(dsn) && !strings.HasPrefix(dsn, "file:") {
			dsn = filepath.Join(opts.Root, dsn)
		}
	}
	rctx, cancel := context.WithTimeout(ctx, dbReadTimeout)
	defer cancel()
	db, err := dbschema.Open(rctx, driver, dsn, password)
	if err != nil {
		st.Error = err.Error()
		opts.Logger.Warn("live database not read", "source", name, "err", st.Error)
		return nil, nil, st
	}
	defer db.Close()
	s, err := dbschema.Read(rctx, db, driver, database)
	if err != nil {
		st.Error = err.Error()
		opts.Logger.Warn("live database not read", "source", name, "err", st.Error)
		return nil, nil, st
	}
	st.Tables = len(s.Tables)
	nodes, edges := liveFacts(s)
	return nodes, edges, st
}

// liveFacts turns a live schema into nodes; tables have no file, so they
// hang below no node and their path is the source's "db:" path.
func liveFacts(s sqlschema.Schema) ([]fact.Node, []fact.Edge) {
	nodes, edges := s.Facts()
	for i := range nodes {
		if nodes[i].StartLine == 0 {
			nodes[i].StartLine, nodes[i].EndLine = 1, 1
		}
	}
	return nodes, edges
}
