// Package dbschema reads the schema of a live database: MariaDB/MySQL and
// PostgreSQL through information_schema (and pg_index for PostgreSQL's
// non-unique indexes), SQLite through its pragmas. It fills the same
// sqlschema.Schema that SQL files give, so sqlschema.Diff compares a live
// database with an indexed revision (FT-30).
//
// # Positions
//
// A live table has no file. Its Path is "db:<driver>/<database>" (e.g.
// "db:mysql/shop", "db:sqlite/app.db") and its Line, EndLine and column lines
// are 1, so every fact still carries a valid path:line pair and ids stay
// stable across reads.
//
// # Credentials
//
// [Open] injects the password into the parsed DSN; the password is never
// logged or stored, and errors are scrubbed of it.
package dbschema
