// This file defines pagination: every list answer takes limit and an opaque
// cursor and fills the envelope's limits, so answers stay small by default.

package facade

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Page is the paging input every list operation embeds.
type Page struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"how many items to return (default 20, max 500)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the cursor of the previous answer's limits, to get the next page"`
}

const (
	defaultLimit = 20
	maxLimit     = 500
)

// page validates limit and cursor and returns the limit and the offset the
// cursor names. Cursors are opaque: base64 of "o:<offset>:<op>".
func (p Page) page(op string) (limit, offset int, err error) {
	limit, err = checkRange("limit", p.Limit, defaultLimit, 1, maxLimit)
	if err != nil {
		return 0, 0, err
	}
	if p.Cursor == "" {
		return limit, 0, nil
	}
	b, derr := base64.RawURLEncoding.DecodeString(p.Cursor)
	parts := strings.Split(string(b), ":")
	if derr != nil || len(parts) != 3 || parts[0] != "o" || parts[2] != op {
		return 0, 0, badInput("cursor %q was not issued by %s", p.Cursor, op)
	}
	offset, cerr := strconv.Atoi(parts[1])
	if cerr != nil || offset < 0 {
		return 0, 0, badInput("cursor %q was not issued by %s", p.Cursor, op)
	}
	return limit, offset, nil
}

func cursorAt(op string, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(offset) + ":" + op))
}

// limits fills the envelope's limits for a page of returned items out of total.
func limits(op string, limit, offset, returned, total int) Limits {
	l := Limits{Limit: limit, Returned: returned, Total: total, Truncated: offset+returned < total}
	if l.Truncated {
		l.Cursor = cursorAt(op, offset+returned)
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
