// flatten.c parses a source text and returns its syntax tree as one array of
// nodes in preorder, so Go walks the tree without a cgo call per node.
#define _GNU_SOURCE
#include "flatten.h"
#include <malloc.h>
#include <time.h>

typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
	int encoding;
	void *decode;
} TSInput;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;
extern TSTree *ts_parser_parse_with_options(TSParser *, const TSTree *, TSInput, TSParseOptions);
extern void ts_parser_reset(TSParser *);
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
// The wrappers count the bytes tree-sitter holds, per thread: a parse runs
// within one cgo call on one thread, so what the count grows by during
// rg_parse is what that parse took (memory budget).
static __thread int64_t rg_live;
static void *rg_malloc(size_t n) {
	void *p = malloc(n);
	if (p) rg_live += (int64_t)malloc_usable_size(p);
	return p;
}
static void *rg_calloc(size_t n, size_t sz) {
	void *p = calloc(n, sz);
	if (p) rg_live += (int64_t)malloc_usable_size(p);
	return p;
}
static void *rg_realloc(void *p, size_t n) {
	int64_t old = p ? (int64_t)malloc_usable_size(p) : 0;
	void *q = realloc(p, n);
	if (q) rg_live += (int64_t)malloc_usable_size(q) - old;
	return q;
}
static void rg_free(void *p) {
	if (p) rg_live -= (int64_t)malloc_usable_size(p);
	free(p);
}
void rg_use_libc_allocator(void) { ts_set_allocator(rg_malloc, rg_calloc, rg_realloc, rg_free); }

static int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct {
	const char *src;
	uint32_t len;
	rg_buf *buf;
	int64_t base;     // rg_live when the parse began
	int64_t deadline; // now_ns() value after which the parse halts; 0: none
} rg_parse_state;

static const char *rg_read(void *payload, uint32_t byte, TSPoint pos, uint32_t *n) {
	(void)pos;
	rg_parse_state *st = payload;
	if (byte >= st->len) {
		*n = 0;
		return "";
	}
	*n = st->len - byte;
	return st->src + byte;
}

// rg_progress is tree-sitter's progress callback: true halts the parse.
static bool rg_progress(TSParseState *ps) {
	rg_parse_state *st = ps->payload;
	rg_buf *b = st->buf;
	int64_t used = rg_live - st->base;
	if (used > b->peak_bytes) b->peak_bytes = used;
	if (b->cancel) { b->halted = RG_HALT_CANCEL; return true; }
	if (b->max_bytes > 0 && used > b->max_bytes) { b->halted = RG_HALT_MEMORY; return true; }
	if (st->deadline > 0 && now_ns() > st->deadline) { b->halted = RG_HALT_TIME; return true; }
	return false;
}

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
	rg_parse_state st = {src, len, buf, rg_live, buf->max_ms > 0 ? now_ns() + buf->max_ms * 1000000LL : 0};
	buf->halted = RG_HALT_NONE;
	buf->peak_bytes = 0;
	TSInput in = {&st, rg_read, 0 /* UTF-8 */, NULL};
	TSParseOptions opts = {&st, rg_progress};
	TSTree *tree = ts_parser_parse_with_options(parser, NULL, in, opts);
	if (!tree) {
		// a halted parse keeps its state for a resumption that never comes
		ts_parser_reset(parser);
		return -1;
	}
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
