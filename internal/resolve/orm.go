// This file links the ORM's tables: a table use naming a mapped class
// ("entity:App\Entity\Post", from a repository, a query builder, DQL or an
// Eloquent static call) or a repository ("repository:App\Repository\X")
// goes to the table the class maps, and the repository an entity names gets
// a references_table edge to its table. lang/php orm.go emits these.

package resolve

import (
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// Prefixes and props shared with lang/php's ORM reading.
const (
	entityPrefix     = "entity:"
	repositoryPrefix = "repository:"
	propEntity       = "entity"
	propRepository   = "repository"
	sourceORM        = "orm"
)

// ormMaps records, per mapped class and per repository, the table key its
// ORM table node has.
func (l *domainLinker) ormMaps() {
	l.entities, l.repos = map[string]string{}, map[string]string{}
	for i := range l.nodes {
		n := &l.nodes[i]
		if n.Kind != fact.Table || n.Props[propEntity] == "" {
			continue
		}
		k := l.tableKey(n.Name)
		l.entities[fact.Lower(n.Props[propEntity])] = k
		if r := n.Props[propRepository]; r != "" {
			l.repos[fact.Lower(r)] = k
			l.repoAt = append(l.repoAt, i)
		}
	}
	for i := range l.in.Refs {
		r := &l.in.Refs[i]
		if r.Kind != fact.RefTableUse || r.Props[propRepository] == "" || !strings.HasPrefix(r.Name, entityPrefix) {
			continue
		}
		if k, ok := l.entities[fact.Lower(r.Name[len(entityPrefix):])]; ok {
			l.repos[fact.Lower(r.Props[propRepository])] = k
		}
	}
}

// ormTable links a table use that names a class; it reports whether the
// reference named one. A class no mapping knows is not a table: its use is
// dropped without an unresolved row (Foo::create() of a class that is no
// model).
func (l *domainLinker) ormTable(ref *fact.Ref, kind fact.EdgeKind) bool {
	var k string
	var ok bool
	switch {
	case strings.HasPrefix(ref.Name, entityPrefix):
		k, ok = l.entities[fact.Lower(strings.TrimPrefix(ref.Name[len(entityPrefix):], `\`))]
	case strings.HasPrefix(ref.Name, repositoryPrefix):
		k, ok = l.repos[fact.Lower(ref.Name[len(repositoryPrefix):])]
	default:
		return false
	}
	if ok {
		sub := *ref
		sub.Name = k
		l.table(&sub, kind)
	}
	return true
}

// repositoryEdges links each repository an entity names (repositoryClass)
// to the entity's table, with the mapping as evidence.
func (l *domainLinker) repositoryEdges() {
	sort.Ints(l.repoAt)
	for _, i := range l.repoAt {
		n := &l.nodes[i]
		repo := n.Props[propRepository]
		ids := l.byQName[string(fact.Class)+"\x00"+fact.Lower(repo)]
		ref := &fact.Ref{Path: n.Path, Line: n.StartLine}
		for _, c := range ids {
			for _, t := range l.tables[l.tableKey(n.Name)] {
				l.edge(fact.ReferencesTable, l.nodes[c].ID, l.nodes[t].ID, ref, fact.Stated, 1,
					map[string]string{"table": l.tableKey(n.Name), "via": "repositoryClass of " + n.Props[propEntity]})
			}
		}
	}
}
