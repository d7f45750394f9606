// This file defines the envelope every answer travels in (ARCHITECTURE.md §7)
// and the errors every operation returns.

package facade

import (
	"context"
	"errors"
	"fmt"

	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Envelope wraps every answer, CLI and MCP alike (FT-16).
type Envelope struct {
	Op            string         `json:"op"`
	IndexRev      string         `json:"index_rev"`
	Capability    rev.Capability `json:"capability"`
	Drift         DriftSummary   `json:"drift"`
	Provenance    string         `json:"provenance"` // index | mixed | live
	Limits        Limits         `json:"limits"`
	StaleWarnings []StaleWarning `json:"stale_warnings"`
	NotFound      bool           `json:"not_found"`
	Suggest       []Suggestion   `json:"suggest"`
	Result        any            `json:"result"`

	concise bool // written as conciseEnvelope (applyFormat sets it)
}

// DriftSummary counts the active ledger of the answering revision.
type DriftSummary struct {
	Entries         int    `json:"entries"`
	Unacked         int    `json:"unacked"`
	LedgerCheckedAt string `json:"ledger_checked_at,omitempty"` // empty in concise answers
}

// Limits says how much of the answer was returned.
type Limits struct {
	Limit     int    `json:"limit"`
	Returned  int    `json:"returned"`
	Total     int    `json:"total"`
	Truncated bool   `json:"truncated"`
	Cursor    string `json:"cursor,omitempty"` // pass back to get the next page
}

// StaleWarning says a cited path changed since the revision was built.
type StaleWarning struct {
	Path    string   `json:"path"`
	Entries []string `json:"entries"`
	Kind    string   `json:"kind"`
	Lines   []int    `json:"lines"` // changed line ranges as start,end pairs
}

// Suggestion names another operation that may answer the question.
type Suggestion struct {
	Op   string         `json:"op"`
	Args map[string]any `json:"args"`
	Why  string         `json:"why"`
}

// Error codes, stable across versions.
const (
	ErrBadInput      = "E_BAD_INPUT"
	ErrNotIndexed    = "E_NOT_INDEXED"
	ErrSchema        = "E_SCHEMA_VERSION"
	ErrUnknownID     = "E_UNKNOWN_ID"
	ErrQueryLanguage = "E_QUERY_LANGUAGE"
	ErrPathOutside   = "E_PATH_OUTSIDE_PROJECT"
	ErrExcluded      = "E_EXCLUDED" // the index excludes the path; its content is not served
	ErrUnknownOp     = "E_UNKNOWN_OP"
	ErrStaleCursor   = "E_STALE_CURSOR" // a cursor cut from another revision
	ErrReadOnly      = "E_READ_ONLY"    // the ledger cannot be written (read-only file system, full disk); reads still work
	ErrCancelled     = "E_CANCELLED"    // the caller cancelled the call (or its deadline passed) before it finished
	ErrInternal      = "E_INTERNAL"
)

// Error is every failure an operation reports: {"error": {"code", "message"}}.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// ErrorBody is the JSON shape of a failed call.
type ErrorBody struct {
	Error *Error `json:"error"`
}

// AsError turns any error into an *Error, keeping the code of one that is.
func AsError(err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Cancelled(err)
	}
	return &Error{Code: ErrInternal, Message: "internal error: " + err.Error()}
}

// Cancelled is the answer to a call its caller cancelled, or whose
// deadline passed, before it finished: not an internal error.
func Cancelled(cause error) *Error {
	return &Error{Code: ErrCancelled, Message: "the call was cancelled before it finished: " + cause.Error()}
}

func storeError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Cancelled(err)
	}
	if errors.Is(err, sqlitedb.ErrSchema) {
		return &Error{Code: ErrSchema, Message: err.Error()}
	}
	if errors.Is(err, control.ErrReadOnly) {
		return &Error{Code: ErrReadOnly, Message: "the drift ledger cannot be written, read operations still answer: " + err.Error()}
	}
	return &Error{Code: ErrInternal, Message: err.Error()}
}

func badInput(format string, args ...any) error {
	return &Error{Code: ErrBadInput, Message: fmt.Sprintf(format, args...)}
}

// envelope starts an answer for op on snap.
func (s *Service) envelope(op string, snap *snapshot) *Envelope {
	return &Envelope{
		Op: op, IndexRev: snap.name, Capability: snap.info.Capability,
		Provenance: "index", StaleWarnings: []StaleWarning{}, Suggest: []Suggestion{},
	}
}

// finish completes an envelope before it is returned: the drift summary of
// the active ledger and a stale warning for every cited path that changed
// since the revision was built (FT-28). Every operation calls it with the
// paths its answer cites.
func (s *Service) finish(ctx context.Context, env *Envelope, snap *snapshot, paths []string) error {
	return s.stale(ctx, env, snap, paths)
}
