// bulk.c inserts many rows with one call from Go: the rows arrive packed in
// one buffer and are bound in place, so a row costs no cgo call, no copy of
// its values and no allocation.
#include <string.h>
#include "bulk.h"

extern int sqlite3_open_v2(const char *, sqlite3 **, int, const char *);
extern int sqlite3_close_v2(sqlite3 *);
extern int sqlite3_exec(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
extern int sqlite3_prepare_v2(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
extern int sqlite3_finalize(sqlite3_stmt *);
extern int sqlite3_bind_text(sqlite3_stmt *, int, const char *, int, void (*)(void *));
extern int sqlite3_bind_blob(sqlite3_stmt *, int, const void *, int, void (*)(void *));
extern int sqlite3_bind_int64(sqlite3_stmt *, int, int64_t);
extern int sqlite3_bind_double(sqlite3_stmt *, int, double);
extern int sqlite3_step(sqlite3_stmt *);
extern int sqlite3_reset(sqlite3_stmt *);
extern const char *sqlite3_errmsg(sqlite3 *);
extern const char *sqlite3_libversion(void);

#define RG_OPEN_READWRITE 0x00000002
#define RG_OPEN_CREATE 0x00000004
#define RG_OPEN_NOMUTEX 0x00008000
#define RG_OK 0
#define RG_ROW 100
#define RG_DONE 101
#define RG_MISUSE 21

int rg_open(const char *path, sqlite3 **db) {
	return sqlite3_open_v2(path, db, RG_OPEN_READWRITE | RG_OPEN_CREATE | RG_OPEN_NOMUTEX, NULL);
}
int rg_close(sqlite3 *db) { return sqlite3_close_v2(db); }
int rg_exec(sqlite3 *db, const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL); }
int rg_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st) { return sqlite3_prepare_v2(db, sql, n, st, NULL); }
int rg_finalize(sqlite3_stmt *st) { return sqlite3_finalize(st); }
const char *rg_errmsg(sqlite3 *db) { return sqlite3_errmsg(db); }
const char *rg_libversion(void) { return sqlite3_libversion(); }

// The value tags of a packed row (bulk.go).
enum { TAG_TEXT = 0, TAG_INT = 1, TAG_FLOAT = 2, TAG_BLOB = 3 };

// rg_insert binds and steps every row packed in buf, ncols values each. It
// returns SQLITE_OK, or the first error.
int rg_insert(sqlite3_stmt *st, int ncols, const uint8_t *buf, int64_t len) {
	const uint8_t *p = buf, *end = buf + len;
	while (p < end) {
		for (int c = 1; c <= ncols; c++) {
			if (p >= end) return RG_MISUSE;
			uint8_t tag = *p++;
			int rc;
			if (tag == TAG_TEXT || tag == TAG_BLOB) {
				uint32_t n;
				memcpy(&n, p, 4);
				p += 4;
				if (p + n > end) return RG_MISUSE;
				// static: the buffer outlives the step that reads the value
				rc = tag == TAG_TEXT ? sqlite3_bind_text(st, c, (const char *)p, (int)n, NULL)
				                     : sqlite3_bind_blob(st, c, p, (int)n, NULL);
				p += n;
			} else if (tag == TAG_INT) {
				int64_t v;
				memcpy(&v, p, 8);
				p += 8;
				rc = sqlite3_bind_int64(st, c, v);
			} else if (tag == TAG_FLOAT) {
				double v;
				memcpy(&v, p, 8);
				p += 8;
				rc = sqlite3_bind_double(st, c, v);
			} else {
				return RG_MISUSE;
			}
			if (rc != RG_OK) return rc;
		}
		int rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != RG_DONE) return rc;
	}
	return RG_OK;
}
