// Command samestore compares two builds of one project: the node, edge and
// unresolved-reference ids of their graph.sqlite, and with -rows each
// node's and edge's columns too (an edge whose ends, kind, provenance,
// confidence or props changed keeps its id). It prints the counts and up to
// -show differences per table, and exits 1 when the builds differ.
//
//	go run ./bench/samestore [-rows] [-show 20] OLD NEW
//
// OLD and NEW are graph.sqlite files or project roots; for a root the
// current revision (.ragraf/CURRENT) is read. A refactor of extraction or
// resolution must leave both identical: index a copy of each corpus with the
// binary before and after the change, then compare.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

func main() {
	rows := flag.Bool("rows", false, "also compare every column of nodes and edges, not only the ids")
	show := flag.Int("show", 20, "differences printed per table")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: samestore [-rows] [-show N] OLD NEW (graph.sqlite files or project roots)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	same, err := compare(flag.Arg(0), flag.Arg(1), *rows, *show)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samestore:", err)
		os.Exit(2)
	}
	if !same {
		os.Exit(1)
	}
}

// graphPath returns p when it is a file, else the current revision's
// graph.sqlite of project root p.
func graphPath(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return p, nil
	}
	cur, err := os.ReadFile(filepath.Join(p, ".ragraf", "CURRENT"))
	if err != nil {
		return "", fmt.Errorf("reading the current revision of %q: %w", p, err)
	}
	return filepath.Join(p, ".ragraf", "revs", strings.TrimSpace(string(cur)), "graph.sqlite"), nil
}

// tables are the compared tables: the id column and, for -rows, the
// columns that make up a row.
var tables = []struct{ name, id, cols string }{
	{"node", "id", "kind, name, qname, path, start_line, end_line, lang, parent, signature, props"},
	{"edge", "id", "kind, src, dst, provenance, confidence, evidence_path, evidence_line, sources, props"},
	{"unresolved", "id", ""},
}

func compare(oldArg, newArg string, rows bool, show int) (bool, error) {
	var dbs [2]*sql.DB
	for i, a := range []string{oldArg, newArg} {
		p, err := graphPath(a)
		if err != nil {
			return false, err
		}
		db, err := sqlitedb.OpenReadOnly(p)
		if err != nil {
			return false, err
		}
		defer db.Close()
		dbs[i] = db
		fmt.Printf("%s: %s\n", []string{"old", "new"}[i], p)
	}
	same := true
	for _, t := range tables {
		q := "SELECT " + t.id
		if rows && t.cols != "" {
			q += ", " + t.cols
		}
		q += " FROM " + t.name
		var sets [2]map[string]string
		for i, db := range dbs {
			m, err := load(db, q)
			if err != nil {
				return false, fmt.Errorf("reading %s: %w", t.name, err)
			}
			sets[i] = m
		}
		onlyOld, onlyNew, changed := diff(sets[0], sets[1])
		fmt.Printf("%-10s old %d, new %d: %d only in old, %d only in new, %d changed\n",
			t.name, len(sets[0]), len(sets[1]), len(onlyOld), len(onlyNew), len(changed))
		for _, d := range []struct {
			label string
			ids   []string
		}{{"-", onlyOld}, {"+", onlyNew}, {"~", changed}} {
			for i, id := range d.ids {
				if i == show {
					fmt.Printf("  %s … %d more\n", d.label, len(d.ids)-show)
					break
				}
				if d.label == "~" {
					fmt.Printf("  ~ %s\n      old %s\n      new %s\n", id, sets[0][id], sets[1][id])
				} else {
					fmt.Printf("  %s %s\n", d.label, id)
				}
			}
		}
		same = same && len(onlyOld)+len(onlyNew)+len(changed) == 0
	}
	if same {
		fmt.Println("same")
	} else {
		fmt.Println("different")
	}
	return same, nil
}

// load reads query q's rows as id -> the other columns joined by tabs.
func load(db *sql.DB, q string) (map[string]string, error) {
	rs, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	out := map[string]string{}
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		rest := make([]string, 0, len(vals)-1)
		for _, v := range vals[1:] {
			rest = append(rest, fmt.Sprint(v))
		}
		out[fmt.Sprint(vals[0])] = strings.Join(rest, "\t")
	}
	return out, rs.Err()
}

// diff returns the sorted ids only in a, only in b, and in both with other
// columns.
func diff(a, b map[string]string) (onlyA, onlyB, changed []string) {
	for id, v := range a {
		w, ok := b[id]
		switch {
		case !ok:
			onlyA = append(onlyA, id)
		case v != w:
			changed = append(changed, id)
		}
	}
	for id := range b {
		if _, ok := a[id]; !ok {
			onlyB = append(onlyB, id)
		}
	}
	slices.Sort(onlyA)
	slices.Sort(onlyB)
	slices.Sort(changed)
	return onlyA, onlyB, changed
}
