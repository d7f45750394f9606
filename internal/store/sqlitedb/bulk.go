package sqlitedb

/*
#include "bulk.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// Bulk writes a new store file through SQLite's C library without
// database/sql: rows are packed into one buffer and inserted by one cgo call
// per buffer (bulk.c), which makes a row several times cheaper than a bound
// statement through the driver. It holds one transaction from Create to
// Commit, with the pragmas of OpenBuild. It is used by one goroutine.
type Bulk struct {
	db         *C.sqlite3
	path       string
	buf, spare []byte // packing buffers, kept from one insert to the next
}

// bulkPageSize is the page size of a file Bulk creates. 16 KiB pages build
// the graph's indexes about a fifth faster than 4 KiB pages (64 KiB ones are
// slower again) and answer the queries of internal/facade's benchmarks as
// fast (docs/benchmarks.md).
const bulkPageSize = 16384

// bulkFlush is the packed size at which Insert hands rows to SQLite.
const bulkFlush = 1 << 20

// CreateBulk makes a new store file at path with schema and version and
// begins its transaction.
func CreateBulk(ctx context.Context, path, schema string, version int) (*Bulk, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	b := &Bulk{path: path, buf: make([]byte, 0, bulkFlush+1<<16), spare: make([]byte, 0, bulkFlush+1<<16)}
	if rc := C.rg_open(cpath, &b.db); rc != 0 {
		err := b.err("opening", rc)
		C.rg_close(b.db)
		return nil, err
	}
	setup := "PRAGMA page_size = " + strconv.Itoa(bulkPageSize) + "; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;\n" +
		schema + fmt.Sprintf(";\nPRAGMA user_version = %d;\nBEGIN;", version)
	if err := b.Exec(ctx, setup); err != nil {
		b.Abort()
		return nil, fmt.Errorf("creating schema in %q: %w", path, err)
	}
	return b, nil
}

// err describes the connection's last error.
func (b *Bulk) err(what string, rc C.int) error {
	msg := "out of memory"
	if b.db != nil {
		msg = C.GoString(C.rg_errmsg(b.db))
	}
	return fmt.Errorf("%s %q: %s (sqlite code %d)", what, b.path, msg, int(rc))
}

// Exec runs SQL statements.
func (b *Bulk) Exec(ctx context.Context, sql string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	if rc := C.rg_exec(b.db, cs); rc != 0 {
		return b.err("writing", rc)
	}
	return nil
}

// Row packs the values of one row, in column order, as bulk.c reads them:
// a tag byte, then the value in the machine's byte order (texts and blobs
// after their 32-bit length).
type Row struct{ buf []byte }

// The value tags of a packed row (bulk.c).
const (
	tagText  = 0
	tagInt   = 1
	tagFloat = 2
	tagBlob  = 3
)

// Text appends a text value.
func (r *Row) Text(s string) {
	r.buf = append(r.buf, tagText)
	r.buf = binary.NativeEndian.AppendUint32(r.buf, uint32(len(s)))
	r.buf = append(r.buf, s...)
}

// Blob appends a blob value.
func (r *Row) Blob(p []byte) {
	r.buf = append(r.buf, tagBlob)
	r.buf = binary.NativeEndian.AppendUint32(r.buf, uint32(len(p)))
	r.buf = append(r.buf, p...)
}

// Int appends an integer value.
func (r *Row) Int(v int64) {
	r.buf = append(r.buf, tagInt)
	r.buf = binary.NativeEndian.AppendUint64(r.buf, uint64(v))
}

// Float appends a real value.
func (r *Row) Float(v float64) {
	r.buf = append(r.buf, tagFloat)
	r.buf = binary.NativeEndian.AppendUint64(r.buf, math.Float64bits(v))
}

// Insert inserts n rows into table; row(i, r) appends row i's values, one
// per column of cols, in order. Rows are packed in a goroutine of their own
// while SQLite inserts the previous buffer, so row may only read what it is
// given; it is called for 0..n-1 in order.
func (b *Bulk) Insert(ctx context.Context, table string, cols []string, n int, row func(i int, r *Row)) error {
	if n == 0 {
		return nil
	}
	q := "INSERT INTO " + table + "(" + strings.Join(cols, ", ") + ") VALUES (" + strings.Repeat("?, ", len(cols)-1) + "?)"
	cq := C.CString(q)
	defer C.free(unsafe.Pointer(cq))
	var st *C.sqlite3_stmt
	if rc := C.rg_prepare(b.db, cq, -1, &st); rc != 0 {
		return b.err("preparing an insert into "+table+" of", rc)
	}
	defer C.rg_finalize(st)
	// two buffers: one filled by the packer while SQLite reads the other
	free := make(chan []byte, 2)
	free <- b.buf[:0]
	free <- b.spare[:0]
	full := make(chan []byte, 1)
	stop := make(chan struct{})
	go func() {
		defer close(full)
		r := Row{buf: <-free}
		for i := range n {
			row(i, &r)
			if len(r.buf) >= bulkFlush || i == n-1 {
				select {
				case full <- r.buf:
				case <-stop:
					return
				}
				if i < n-1 {
					select {
					case r.buf = <-free:
					case <-stop:
						return
					}
				}
			}
		}
	}()
	var err error
	for buf := range full {
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			// Go memory holding no Go pointer, read during the call only
			if rc := C.rg_insert(st, C.int(len(cols)), (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(buf))), C.int64_t(len(buf))); rc != 0 {
				err = b.err("inserting into "+table+" of", rc)
			}
		}
		free <- buf[:0]
		if err != nil {
			close(stop)
			for range full { // the packer stops at its next send or receive
			}
			break
		}
	}
	// keep the buffers back for the next insert (after an error the
	// packer's may be gone: the next insert allocates one)
	b.buf, b.spare = nil, nil
	select {
	case b.buf = <-free:
	default:
	}
	select {
	case b.spare = <-free:
	default:
	}
	return err
}

// Commit commits the transaction; the connection stays open for statements
// that run outside it (ANALYZE).
func (b *Bulk) Commit(ctx context.Context) error {
	return b.Exec(ctx, "COMMIT")
}

// Close closes the file.
func (b *Bulk) Close() error {
	if rc := C.rg_close(b.db); rc != 0 {
		return b.err("closing", rc)
	}
	b.db = nil
	return nil
}

// Abort discards the transaction and closes the file.
func (b *Bulk) Abort() {
	if b.db != nil {
		rollback := C.CString("ROLLBACK")
		C.rg_exec(b.db, rollback) // fails harmlessly outside a transaction
		C.free(unsafe.Pointer(rollback))
		C.rg_close(b.db)
		b.db = nil
	}
}
