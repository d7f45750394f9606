// Package docs turns documentation files into graph facts: one doc node per
// file, one doc_section node per heading (Markdown ATX and setext headings,
// reStructuredText titles), contains edges, text chunks of the section bodies
// and the mentions a resolver can turn into documented_by edges.
//
// # Sections
//
// A section runs from its heading to the line before the next heading of the
// same or a higher level (or the end of the file); a deeper heading opens a
// child section whose Parent is the enclosing section. The heading text is the
// section's Name; the body text goes only into chunks (FT-9).
//
// # Mentions
//
// A [Mention] is a name a section uses: backticked identifiers (Foo::bar(),
// App\Models\User, wp_insert_post()), backslash-qualified names in prose, file
// paths (src/Cart.php) and table candidates. Kind "table" is given only when
// the name starts with a configured table prefix or the line speaks of tables;
// ambiguous names are "symbol" and the resolver decides.
package docs
