package facade

import "github.com/ragraf/ragraf/internal/fact"

// domainFixture adds a table with a column, a route handled by run, a
// query from run and a documentation section about the class.
func domainFixture(f *fixture, run, class string) {
	sf := f.node(fact.File, "db/schema.sql", "schema.sql", "db/schema.sql", 1, 4, "", "")
	f.files["db/schema.sql"] = "CREATE TABLE orders (\n  id INT,\n  total INT\n);\n"
	tbl := f.node(fact.Table, "orders", "orders", "db/schema.sql", 1, 4, sf, "")
	f.node(fact.Column, "orders.total", "total", "db/schema.sql", 3, 3, tbl, "")
	rf := f.node(fact.File, "routes/web.php", "web.php", "routes/web.php", 1, 3, "", "")
	f.files["routes/web.php"] = "<?php\n$app->get('/orders', [C0::class, 'run']);\n\n"
	route := f.node(fact.WebRoute, "GET /orders", "GET /orders", "routes/web.php", 2, 2, rf, "")
	f.edge(fact.Handles, route, run, "routes/web.php", 2, fact.Stated)
	f.edge(fact.Queries, run, tbl, "src/C0.php", 6, fact.Stated)
	df := f.node(fact.File, "README.md", "README.md", "README.md", 1, 3, "", "")
	f.files["README.md"] = "# Shop\n\nSee `App\\C0`.\n"
	sec := f.node(fact.DocSection, "README.md#shop", "Shop", "README.md", 1, 3, df, "")
	f.edge(fact.DocumentedBy, class, sec, "README.md", 3, fact.Stated)
}
