package sqlitedb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const bulkSchema = `CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL, f REAL NOT NULL, b BLOB NOT NULL) WITHOUT ROWID`

type bulkRow struct {
	k string
	n int64
	f float64
	b []byte
}

// TestNFR2_BulkInsertRoundTrip: rows written through Bulk, more than one
// buffer's worth, read back through the pure-Go engine with every value as
// it was: empty and non-ASCII text, extreme integers, reals, empty and
// binary blobs; the schema version and page size are set.
func TestNFR2_BulkInsertRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bulk.sqlite")
	rows := []bulkRow{
		{"", math.MinInt64, -0.5, []byte{}},
		{"é ü 漢字 'quote' \"dq\"", math.MaxInt64, math.Pi, []byte{0, 1, 2, 0xff}},
		{"big", 7, 1e300, bytes.Repeat([]byte("x"), bulkFlush+10)}, // one row larger than a buffer
	}
	for i := range 20000 {
		rows = append(rows, bulkRow{k: fmt.Sprintf("k%05d", i), n: int64(i), f: float64(i) / 3, b: []byte(strconv.Itoa(i))})
	}
	b, err := CreateBulk(ctx, path, bulkSchema, 42)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Insert(ctx, "t", []string{"k", "n", "f", "b"}, len(rows), func(i int, r *Row) {
		r.Text(rows[i].k)
		r.Int(rows[i].n)
		r.Float(rows[i].f)
		r.Blob(rows[i].b)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := CheckVersion(ctx, db, path, 42); err != nil {
		t.Fatal(err)
	}
	var pageSize int
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil || pageSize != bulkPageSize {
		t.Errorf("page size %d (%v), want %d", pageSize, err, bulkPageSize)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != len(rows) {
		t.Fatalf("count = %d (%v), want %d", n, err, len(rows))
	}
	for _, want := range rows[:3] {
		var got bulkRow
		var typ string
		err := db.QueryRowContext(ctx, "SELECT k, n, f, b, typeof(b) FROM t WHERE k = ?", want.k).Scan(&got.k, &got.n, &got.f, &got.b, &typ)
		if err != nil {
			t.Fatalf("row %q: %v", want.k, err)
		}
		if got.k != want.k || got.n != want.n || got.f != want.f || !bytes.Equal(got.b, want.b) || typ != "blob" {
			t.Errorf("row %q read back as %q %d %v %d bytes (%s)", want.k, got.k, got.n, got.f, len(got.b), typ)
		}
	}
}

// TestNFR2_BulkInsertErrors: a constraint violation and a canceled context
// stop an insert with an error naming the table and SQLite's message.
func TestNFR2_BulkInsertErrors(t *testing.T) {
	ctx := context.Background()
	b, err := CreateBulk(ctx, filepath.Join(t.TempDir(), "bulk.sqlite"), bulkSchema, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort() // a no-op once closed
	row := func(i int, r *Row) {
		r.Text("same")
		r.Int(1)
		r.Float(1)
		r.Blob(nil)
	}
	err = b.Insert(ctx, "t", []string{"k", "n", "f", "b"}, 2, row)
	if err == nil || !strings.Contains(err.Error(), "into t") || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("duplicate key: err = %v, want a UNIQUE constraint error naming t", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.Insert(canceled, "t", []string{"k", "n", "f", "b"}, 1, row); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v, want context.Canceled", err)
	}
	if err := b.Exec(ctx, "NOT SQL"); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("bad SQL: err = %v, want SQLite's syntax error", err)
	}
	// the writer goes on after a failed insert, its buffers intact
	const n = 30000
	err = b.Insert(ctx, "t", []string{"k", "n", "f", "b"}, n, func(i int, r *Row) {
		r.Text(fmt.Sprintf("row%05d", i))
		r.Int(int64(i))
		r.Float(0)
		r.Blob(bytes.Repeat([]byte{byte(i)}, 100))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Exec(ctx, "CREATE TABLE check_sum AS SELECT count(*) AS c, sum(n) AS s, sum(length(b)) AS l FROM t WHERE k LIKE 'row%'"); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	path := b.path
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var c, sum, l int64
	if err := db.QueryRowContext(ctx, "SELECT c, s, l FROM check_sum").Scan(&c, &sum, &l); err != nil {
		t.Fatal(err)
	}
	if c != n || sum != n*(n-1)/2 || l != n*100 {
		t.Errorf("after a failed insert: %d rows, sum %d, %d blob bytes; want %d, %d, %d", c, sum, l, n, n*(n-1)/2, n*100)
	}
	var bad int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE k LIKE 'row%' AND b != zeroblob(0) AND substr(b, 1, 1) != substr(b, 100, 1)").Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d rows with mixed blob bytes (%v)", bad, err)
	}
}
