// Package sql is the front end of SQL files: the tables and columns their
// DDL declares (package extract/sqlschema).
package sql

import (
	"context"
	"fmt"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/lang"
)

// Lang is the language name of SQL files.
const Lang = "sql"

// FrontEnd is the SQL lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns a parser with the table prefixes of opts.
func (FrontEnd) New(opts lang.Options) (lang.Parser, error) {
	return parser{sqlschema.Options{Source: "sql_file", TablePrefixes: opts.TablePrefixes}}, nil
}

type parser struct{ opts sqlschema.Options }

func (parser) Close() {}

// File reads the file's DDL; statements it cannot parse make the file
// partial, with the count and the first.
func (p parser) File(_ context.Context, path string, src []byte) (lang.Facts, error) {
	schema, problems := sqlschema.Parse(path, src, p.opts)
	var f lang.Facts
	f.Nodes, f.Edges = schema.Facts()
	if len(problems) > 0 {
		f.Partial = true
		f.Reason = fmt.Sprintf("%d unparseable SQL statements; first at line %d: %s", len(problems), problems[0].Line, problems[0].Msg)
	}
	return f, nil
}
