// Declarations of the parts of SQLite's C API that bulk.c uses. The library
// itself is compiled by github.com/mattn/go-sqlite3 and linked into the same
// binary; these declarations follow its sqlite3.h.
#ifndef RAGRAF_BULK_H
#define RAGRAF_BULK_H
#include <stdint.h>
#include <stdlib.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

int rg_open(const char *path, sqlite3 **db);
int rg_close(sqlite3 *db);
int rg_exec(sqlite3 *db, const char *sql);
int rg_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st);
int rg_finalize(sqlite3_stmt *st);
const char *rg_errmsg(sqlite3 *db);
const char *rg_libversion(void);
int rg_insert(sqlite3_stmt *st, int ncols, const uint8_t *buf, int64_t len);
#endif
