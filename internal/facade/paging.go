// This file defines pagination (ARCHITECTURE.md §6): every list operation
// takes limit and an opaque cursor, fills the envelope's limits, and a
// truncated answer always carries the cursor of the next page. A cursor names
// the operation (and the list, for an operation with several), the offset,
// and the revision it was cut from: offsets are stable only within one
// revision (NFR-12 orders every list), so a cursor from another revision is
// refused with E_STALE_CURSOR rather than silently shifting.

package facade

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Page is the paging input most list operations embed; entry_points,
// table_usage and drift keep their larger default limits in fields of
// their own.
type Page struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"page size (default 20, max 500)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"limits.cursor of the last answer"`
}

const (
	defaultLimit = 20
	maxLimit     = 500
)

// cursorVersion starts every cursor; a cursor of another form is malformed.
const cursorVersion = "c1"

// pager is one validated page request: the list it walks, the page size and
// where it starts, the key of the request's other arguments, and the
// revision its cursor was cut from (none without a cursor).
type pager struct {
	list   string // the op, or "op.list" for a nested list
	limit  int
	offset int
	key    string // argsKey of the request
	rev    string
	stamp  string
}

// page validates limit and cursor with the default limits; args is the
// whole request.
func (p Page) page(op string, args any) (pager, error) {
	return paging(op, p.Limit, p.Cursor, defaultLimit, maxLimit, args)
}

// paging validates a limit (def for 0, at most hi) and a cursor issued for
// list and for a request with the arguments of args (the whole request; its
// limit, cursor and list may differ). Cursors are base64url of
// "c1:<list>:<offset>:<rev>:<stamp>:<key>". A cursor that does not decode,
// was issued for another list or for other arguments, is bad input; whether
// it belongs to the answering revision is checked by pager.check once the
// revision is acquired.
func paging(list string, limit int, cursor string, def, hi int, args any) (pager, error) {
	limit, err := checkRange("limit", limit, def, 1, hi)
	if err != nil {
		return pager{}, err
	}
	pg := pager{list: list, limit: limit, key: argsKey(args)}
	if cursor == "" {
		return pg, nil
	}
	c, ok := decodeCursor(cursor)
	if !ok || c.list != list {
		return pager{}, badInput("cursor %q was not issued by %s: pass limits.cursor of a %s answer unchanged, or no cursor for the first page", cursor, opOf(list), opOf(list))
	}
	if c.key != pg.key {
		return pager{}, badInput("cursor was cut for %s with other arguments: repeat the arguments of the first page (only limit may change), or ask without cursor", opOf(list))
	}
	c.limit = limit
	return c, nil
}

// argsKey identifies a request's arguments apart from paging (limit, cursor,
// and impact's list, which a cursor names itself): a short hash of their
// JSON, "" when no other argument is set.
func argsKey(args any) string {
	b, err := json.Marshal(args)
	if err != nil {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	delete(m, "limit")
	delete(m, "cursor")
	delete(m, "list")
	delete(m, "format") // the encoding and shape of an answer, not which items it lists
	delete(m, "detail")
	if len(m) == 0 {
		return ""
	}
	b, _ = json.Marshal(m) // keys sorted
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// decodeCursor parses a cursor; ok is false for anything malformed.
func decodeCursor(cursor string) (pager, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return pager{}, false
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != 6 || parts[0] != cursorVersion || parts[1] == "" || parts[3] == "" {
		return pager{}, false
	}
	off, err := strconv.Atoi(parts[2])
	if err != nil || off < 0 || strconv.Itoa(off) != parts[2] {
		return pager{}, false
	}
	return pager{list: parts[1], offset: off, rev: parts[3], stamp: parts[4], key: parts[5]}, true
}

// opOf is the operation of a list name ("impact.files" -> "impact").
func opOf(list string) string {
	op, _, _ := strings.Cut(list, ".")
	return op
}

// revStamp identifies one build of a revision: a name comes back after
// `ragraf drop` and a new index, its creation time and corpus hash do not.
func revStamp(snap *snapshot) string {
	sum := sha256.Sum256([]byte(snap.name + "\x00" + snap.info.CreatedAt + "\x00" + snap.info.CorpusHash))
	return hex.EncodeToString(sum[:6])
}

// check refuses a cursor cut from another revision than snap (or another
// build of the same name) with E_STALE_CURSOR.
func (p pager) check(snap *snapshot) error {
	if p.rev == "" {
		return nil
	}
	if p.rev != snap.name {
		return &Error{Code: ErrStaleCursor, Message: fmt.Sprintf(
			"cursor was cut from revision %s, but %s answers now; positions differ between revisions: ask again without cursor", p.rev, snap.name)}
	}
	if p.stamp != revStamp(snap) {
		return &Error{Code: ErrStaleCursor, Message: fmt.Sprintf(
			"cursor was cut from an earlier build of %s (the index was dropped and rebuilt since): ask again without cursor", p.rev)}
	}
	return nil
}

// cursor is the cursor of the page that starts at offset in snap.
func (p pager) cursor(snap *snapshot, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorVersion + ":" + p.list + ":" + strconv.Itoa(offset) + ":" + snap.name + ":" + revStamp(snap) + ":" + p.key))
}

// limits fills the envelope's limits for a page of returned items out of
// total, with the cursor of the next page when there is one.
func (p pager) limits(snap *snapshot, returned, total int) Limits {
	l := Limits{Limit: p.limit, Returned: returned, Total: total, Truncated: p.offset+returned < total}
	if l.Truncated {
		l.Cursor = p.cursor(snap, p.offset+returned)
	}
	return l
}

// window cuts items to one page.
func window[T any](items []T, limit, offset int) []T {
	if offset >= len(items) {
		return []T{}
	}
	return items[offset:min(offset+limit, len(items))]
}

// pageOf cuts items to the page p asks for.
func pageOf[T any](p pager, items []T) []T {
	return window(items, p.limit, p.offset)
}
