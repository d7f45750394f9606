// This file makes table nodes for the tables application code names that
// no schema source declares: a query's or a query builder's literal is then
// the only evidence of the table, so the node is derived and names the
// first place that names it.

package resolve

import (
	"regexp"
	"sort"
	"strconv"

	"github.com/ragraf/ragraf/internal/fact"
)

// Props of a derived table node.
const (
	// SourceQuery is the source of a table known only from queries.
	SourceQuery = "query"
	// PropProvenance is "derived" on a node no declaration states.
	PropProvenance = "provenance"
	// PropEvidence is path:line of the literal a derived node comes from.
	PropEvidence = "evidence"
	// PropUses counts the references that name a derived table.
	PropUses = "uses"
)

// tableName is what a derived table may be called: an identifier,
// optionally qualified by a schema. Anything else (a fragment of a
// templated name, a placeholder) stays unresolved.
var tableName = regexp.MustCompile(`^[a-z_][a-z0-9_$]*(\.[a-z_][a-z0-9_$]*)?$`)

func validTableName(k string) bool { return len(k) <= 64 && tableName.MatchString(k) }

// DerivedTableID is the id of the derived node of table key k: by name
// alone, so the node keeps its id while the places naming it change.
func DerivedTableID(k string) string { return fact.NodeID(fact.Table, k, "", 0) }

// deriveTables adds one table node per table key that references name and
// no schema source declares, and links the references to it.
func (l *domainLinker) deriveTables() {
	keys := make([]string, 0, len(l.missing))
	for k := range l.missing {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		uses := l.missing[k]
		sort.SliceStable(uses, func(i, j int) bool {
			a, b := uses[i].ref, uses[j].ref
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			return a.Line < b.Line
		})
		first := uses[0].ref
		n := fact.Node{
			ID: DerivedTableID(k), Kind: fact.Table, Name: k, QName: k, Path: first.Path,
			StartLine: first.Line, EndLine: first.Line, Lang: "sql",
			Props: map[string]string{
				"source": SourceQuery, PropProvenance: string(fact.Derived),
				PropEvidence: first.Path + ":" + strconv.Itoa(first.Line), PropUses: strconv.Itoa(len(uses)),
			},
		}
		l.out.Nodes = append(l.out.Nodes, n)
		l.nodes = append(l.nodes, n)
		l.tables[k] = []int{len(l.nodes) - 1}
		for _, u := range uses {
			l.table(u.ref, u.kind)
		}
	}
}
