// This file defines the schema_change deltas (FT-30): DBSchemaDiff reads each
// live database of project.yaml's database.sources again and compares it
// with the schema the revision recorded for it at index time
// (rev/domain.go); schemaChanges compares the old and new schema of a
// modified .sql file or PHP migration for modified (detect.go).

package drift

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/dbschema"
	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
)

// metaDBSources is the graph meta key rev writes the live sources' outcome
// under (rev.MetaDBSources; repeated so drift does not import rev).
const metaDBSources = "db_sources"

// ErrDBSource is returned (wrapped) when db-schema-diff cannot compare: no
// source is configured, or the revision did not read one at index time.
var ErrDBSource = errors.New("no database schema to compare")

// dbReadTimeout bounds reading one live schema.
const dbReadTimeout = 20 * time.Second

// SourcePath is the path a live database's table nodes carry:
// "db:<driver>/<database>".
func SourcePath(driver, dsn string) string {
	return "db:" + driver + "/" + dbschema.DatabaseName(driver, dsn)
}

// DBSchemaDiff compares every configured live database with the revision's
// schema facts for it and returns one schema_change delta per table or
// column that appeared, disappeared or changed type, sorted by path and
// note. A source the revision did not read at index time is an error wrapping
// ErrDBSource: compared with no tables it would report every table as added.
// The password comes from the source's password_env variable only.
func DBSchemaDiff(ctx context.Context, src Source, root string, cfg config.Config) ([]Delta, error) {
	read := map[string]string{} // path -> index-time error
	if src.Meta != nil {
		raw, err := src.Meta(ctx, metaDBSources)
		if err != nil {
			return nil, err
		}
		var sts []struct {
			Path  string `json:"path"`
			Error string `json:"error"`
		}
		if raw != "" {
			if err := json.Unmarshal([]byte(raw), &sts); err != nil {
				return nil, fmt.Errorf("reading %s meta: %w", metaDBSources, err)
			}
		}
		for _, st := range sts {
			read[st.Path] = st.Error
		}
	}
	if len(cfg.Database.Sources) == 0 {
		return nil, fmt.Errorf("%w: project.yaml names no database.sources", ErrDBSource)
	}
	var out []Delta
	for _, ds := range cfg.Database.Sources {
		path := SourcePath(ds.Driver, ds.DSN)
		name := ds.Name
		if name == "" {
			name = path
		}
		if msg, ok := read[path]; src.Meta != nil && (!ok || msg != "") {
			return nil, fmt.Errorf("%w: database source %s was not read when revision %s was built; reindex first", ErrDBSource, name, src.Rev)
		}
		live, err := readLive(ctx, root, ds)
		if err != nil {
			return nil, fmt.Errorf("database source %s: %w", name, err)
		}
		nodes, err := src.Nodes(ctx, path)
		if err != nil {
			return nil, err
		}
		old := SchemaFromNodes(nodes)
		out = append(out, changeDeltas(src.Rev, path, nodes, sqlschema.Diff(old, live))...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Note < out[j].Note
	})
	return out, nil
}

// readLive reads one configured database the way the index does.
func readLive(ctx context.Context, root string, ds config.DBSource) (sqlschema.Schema, error) {
	password := ""
	if ds.PasswordEnv != "" {
		password = os.Getenv(ds.PasswordEnv)
	}
	dsn := ds.DSN
	if (ds.Driver == "sqlite" || ds.Driver == "sqlite3") && !filepath.IsAbs(dsn) && !strings.HasPrefix(dsn, "file:") {
		dsn = filepath.Join(root, dsn)
	}
	rctx, cancel := context.WithTimeout(ctx, dbReadTimeout)
	defer cancel()
	db, err := dbschema.Open(rctx, ds.Driver, dsn, password)
	if err != nil {
		return sqlschema.Schema{}, err
	}
	defer db.Close()
	return dbschema.Read(rctx, db, ds.Driver, dbschema.DatabaseName(ds.Driver, ds.DSN))
}

// SchemaFromNodes rebuilds a schema from table and column nodes (columns
// hang below their table by Parent). Tables of the same name are merged.
func SchemaFromNodes(nodes []fact.Node) sqlschema.Schema {
	byID := map[string]string{} // table node id -> name
	tables := map[string]*sqlschema.Table{}
	var order []string
	for _, n := range nodes {
		if n.Kind != fact.Table {
			continue
		}
		byID[n.ID] = n.Name
		if tables[n.Name] == nil {
			tables[n.Name] = &sqlschema.Table{Name: n.Name, Source: n.Props["source"], Path: n.Path, Line: n.StartLine,
				Partial: n.Props[sqlschema.PropPartial] == "true"}
			order = append(order, n.Name)
		}
	}
	for _, n := range nodes {
		name, ok := byID[n.Parent]
		if n.Kind != fact.Column || !ok {
			continue
		}
		t := tables[name]
		if t.Column(n.Name) != nil {
			continue
		}
		var def *string
		if d, ok := n.Props["default"]; ok {
			def = &d
		}
		t.Columns = append(t.Columns, sqlschema.Column{Name: n.Name, Type: n.Props["type"],
			Nullable: n.Props["nullable"] == "true", Default: def, Key: n.Props["key"], Line: n.StartLine})
	}
	var s sqlschema.Schema
	sort.Strings(order)
	for _, name := range order {
		s.Tables = append(s.Tables, *tables[name])
	}
	return s
}

// changeDeltas turns schema changes of path into schema_change deltas. The
// nodes of the old side that a change removes or retypes are the delta's
// nodes, so edges that reach them are marked stale; an addition names no node.
func changeDeltas(rev, path string, oldNodes []fact.Node, cs []sqlschema.Change) []Delta {
	ids := map[string]string{} // "table" or "table.column" -> node id
	for _, n := range oldNodes {
		switch n.Kind {
		case fact.Table:
			ids[n.Name] = n.ID
		case fact.Column:
			ids[n.QName] = n.ID
		}
	}
	out := make([]Delta, 0, len(cs))
	for _, c := range cs {
		var note string
		nodes := []string{}
		switch c.Kind {
		case sqlschema.TableAdded:
			note = "table " + c.Table + " added"
		case sqlschema.TableRemoved:
			note = "table " + c.Table + " removed"
			if id := ids[c.Table]; id != "" {
				nodes = append(nodes, id)
			}
		case sqlschema.ColumnAdded:
			note = fmt.Sprintf("column %s.%s added (%s)", c.Table, c.Column, c.New)
		case sqlschema.ColumnRemoved:
			note = fmt.Sprintf("column %s.%s removed (%s)", c.Table, c.Column, c.Old)
		case sqlschema.ColumnTypeChanged:
			note = fmt.Sprintf("column %s.%s changed type (%s -> %s)", c.Table, c.Column, c.Old, c.New)
		case sqlschema.ColumnNullChanged:
			note = fmt.Sprintf("column %s.%s changed nullability (%s -> %s)", c.Table, c.Column, c.Old, c.New)
		case sqlschema.DefaultChanged:
			note = fmt.Sprintf("column %s.%s changed default (%s -> %s)", c.Table, c.Column, c.Old, c.New)
		case sqlschema.KeyChanged:
			note = fmt.Sprintf("column %s.%s changed key (%s -> %s)", c.Table, c.Column, c.Old, c.New)
		}
		if c.Column != "" && c.Kind != sqlschema.ColumnAdded {
			if id := ids[c.Table+"."+c.Column]; id != "" {
				nodes = append(nodes, id)
			}
		}
		out = append(out, Delta{Kind: KindSchemaChange, Path: path, Lines: [][2]int{}, Nodes: nodes, Note: note,
			DedupKey: key(rev, KindSchemaChange, path, c.Kind, c.Table, c.Column, c.Old, c.New)})
	}
	return out
}

// schemaChanges compares the schema a modified file defined at index time
// with the one it defines now: a .sql file, or a PHP file that held table
// facts (a migration, a schema file). Other files give nothing.
func schemaChanges(ctx context.Context, src Source, path string, nodes []fact.Node, old, cur []byte) ([]Delta, error) {
	var before, after sqlschema.Schema
	switch corpus.DetectLang(path) {
	case "sql":
		opts := sqlschema.Options{Source: "sql_file", TablePrefixes: src.TablePrefixes}
		before, _ = sqlschema.Parse(path, old, opts)
		after, _ = sqlschema.Parse(path, cur, opts)
	case php.Lang:
		held := false
		for _, n := range nodes {
			held = held || n.Kind == fact.Table
		}
		if !held {
			return nil, nil
		}
		x, err := php.New()
		if err != nil {
			return nil, err
		}
		defer x.Close()
		for _, side := range []struct {
			data []byte
			s    *sqlschema.Schema
		}{{old, &before}, {cur, &after}} {
			r, err := x.File(ctx, path, side.data)
			if err != nil {
				return nil, err
			}
			*side.s = SchemaFromNodes(r.Domain.Nodes)
		}
	default:
		return nil, nil
	}
	return changeDeltas(src.Rev, path, nodes, sqlschema.Diff(before, after)), nil
}
