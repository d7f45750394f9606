// flatten.c parses a source text and returns its syntax tree as one array of
// nodes in preorder, so Go walks the tree without a cgo call per node.
#include "flatten.h"

extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern TSSymbol ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern bool ts_node_is_missing(TSNode);
extern bool ts_node_is_extra(TSNode);
extern bool ts_node_has_error(TSNode);
extern bool ts_node_is_error(TSNode);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern TSPoint ts_node_start_point(TSNode);
extern TSPoint ts_node_end_point(TSNode);
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

// The Go bindings route every allocation of the C library through a Go
// callback; plain libc is much faster and the trees never hold Go memory.
void rg_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

// grow makes room for want elements of size sz in *p, which holds *cap.
static int grow(void **p, uint32_t *cap, uint32_t want, size_t sz) {
	if (want <= *cap) return 1;
	uint32_t c = *cap ? *cap : 1024;
	while (c < want) c *= 2;
	void *g = realloc(*p, sz * c);
	if (!g) return 0;
	*p = g;
	*cap = c;
	return 1;
}

int64_t rg_parse(TSParser *parser, rg_buf *buf, const char *src, uint32_t len) {
	TSTree *tree = ts_parser_parse_string(parser, NULL, src, len);
	if (!tree) return -1;
	if (!grow((void **)&buf->nodes, &buf->cap, len / 4 + 64, sizeof(rg_node)) ||
		!grow((void **)&buf->stack, &buf->scap, 256, sizeof(int32_t))) {
		ts_tree_delete(tree);
		return -1;
	}
	int64_t n = 0;
	uint32_t depth = 0;
	buf->max_depth = 0;
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	int32_t parent = -1;
	for (;;) {
		if (n == buf->cap && !grow((void **)&buf->nodes, &buf->cap, buf->cap + 1, sizeof(rg_node))) goto fail;
		TSNode node = ts_tree_cursor_current_node(&c);
		TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
		rg_node *r = &buf->nodes[n];
		r->start_byte = ts_node_start_byte(node);
		r->end_byte = ts_node_end_byte(node);
		r->start_row = sp.row; r->start_col = sp.column;
		r->end_row = ep.row; r->end_col = ep.column;
		r->parent = parent;
		r->symbol = ts_node_symbol(node);
		r->field = ts_tree_cursor_current_field_id(&c);
		r->flags = (ts_node_is_named(node) ? 1 : 0) | (ts_node_is_missing(node) ? 2 : 0) |
			(ts_node_is_extra(node) ? 4 : 0) | (ts_node_has_error(node) ? 8 : 0) | (ts_node_is_error(node) ? 16 : 0);
		int32_t self = (int32_t)n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (depth == buf->scap && !grow((void **)&buf->stack, &buf->scap, buf->scap + 1, sizeof(int32_t))) goto fail;
			buf->stack[depth++] = parent;
			if (depth > buf->max_depth) buf->max_depth = depth;
			parent = self;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
			parent = buf->stack[--depth];
		}
	}
done:
	ts_tree_cursor_delete(&c);
	ts_tree_delete(tree);
	return n;
fail:
	ts_tree_cursor_delete(&c);
	ts_tree_delete(tree);
	return -1;
}

void rg_buf_free(rg_buf *buf) {
	free(buf->nodes);
	free(buf->stack);
	buf->nodes = NULL;
	buf->stack = NULL;
	buf->cap = buf->scap = 0;
}
