// Package sqlschema reads a database schema from SQL text: *.sql dumps and
// migrations, and CREATE TABLE statements held in PHP strings (WordPress's
// wp-admin/includes/schema.php). It parses each DDL statement with a real
// MySQL parser and applies CREATE/ALTER/DROP TABLE and CREATE INDEX in file
// order, so a later ALTER changes the table an earlier CREATE made.
//
// # Types
//
// A [Schema] holds [Table]s sorted by name; each table keeps its [Column]s
// (type, nullability, default, key membership and the line that defined
// them), [Index]es and [ForeignKey]s. Statements that cannot be parsed are
// reported as [Problem]s and never guessed. [Schema.Facts] turns a schema
// into graph nodes and edges; [Diff] compares two schemas column by column.
//
// The package reads no database: internal/extract/dbschema fills the same
// types from information_schema and SQLite pragmas.
package sqlschema
