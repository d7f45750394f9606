// Declarations of the parts of the tree-sitter C API that flatten.c uses. The
// library itself is compiled by github.com/tree-sitter/go-tree-sitter and
// linked into the same binary; these declarations follow its api.h (ABI 15).
#ifndef RAGRAF_FLATTEN_H
#define RAGRAF_FLATTEN_H
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct { uint32_t row; uint32_t column; } TSPoint;

// the parser's life, from the library's api.h
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

// one node of a flattened tree, in preorder
typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, start_col, end_row, end_col;
	int32_t parent;
	uint16_t symbol;
	uint16_t field;
	uint8_t flags; // 1 named, 2 missing, 4 extra, 8 has_error, 16 error
} rg_node;

// a parser's memory for flattened trees, reused from one parse to the next
typedef struct {
	rg_node *nodes;
	uint32_t cap;
	int32_t *stack; // parent indices, as deep as the tree
	uint32_t scap;
	uint32_t max_depth; // of the last tree flattened
	// budget of one parse, set by the caller: bytes tree-sitter may hold and
	// milliseconds it may take (0: no limit); cancel halts it when set non-zero
	int64_t max_bytes;
	int64_t max_ms;
	volatile int32_t cancel;
	// what the last parse did: why it halted (RG_HALT_*), the most bytes it held
	int32_t halted;
	int64_t peak_bytes;
} rg_buf;

enum { RG_HALT_NONE = 0, RG_HALT_MEMORY = 1, RG_HALT_TIME = 2, RG_HALT_CANCEL = 3 };

// rg_parse parses src and flattens its tree into buf->nodes; it returns the
// number of nodes, or -1 when tree-sitter gave no tree or memory ran out.
int64_t rg_parse(TSParser *parser, rg_buf *buf, const char *src, uint32_t len);
void rg_buf_free(rg_buf *buf);
void rg_use_libc_allocator(void);
#endif
