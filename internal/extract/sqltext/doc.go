// Package sqltext analyses SQL held in PHP code: it rewrites a string template
// (literal parts and PHP holes) into parseable MySQL, parses it with a real SQL
// parser and reports the operation, the tables and the columns named explicitly.
//
// # Templates
//
// The PHP extractor hands over a [Template]: the literal parts of a string
// concatenation, interpolation or heredoc, and the PHP expressions ("holes")
// between them. [Analyze] rewrites the holes:
//
//   - a WordPress table property ($wpdb->posts, {$wpdb->postmeta}, ...) becomes
//     the table name (posts, postmeta), marked Inferred;
//   - a prefix hole ($wpdb->prefix, $wpdb->base_prefix, $table_prefix, ...)
//     followed by a literal ('options') becomes that literal (options), Inferred;
//   - any other hole where a table name goes makes the table dynamic: it is
//     listed in [Query.DynamicTables] by its PHP expression, never guessed;
//   - any other hole becomes a bind placeholder (?), or plain text inside a
//     quoted SQL string.
//
// Placeholders of wpdb::prepare (%s %d %f %F, positional %1$s, and the
// identifier placeholder %i), PDO (? and :name) and PostgreSQL ($1) become
// parseable placeholders.
//
// # Tables
//
// [TableUse.Table] is the schema-level name: a known prefix from
// [Options.TablePrefixes] is stripped (wp_posts -> posts), so names match the
// tables of WordPress's schema.php. Case is kept as written; callers compare
// case-insensitively where the database does. Columns are those named
// explicitly and attributable to one table: SELECT * gives none, and an
// unqualified column in a multi-table query is dropped rather than guessed.
//
// Unparseable SQL yields a *[ParseError] with the reason.
package sqltext
