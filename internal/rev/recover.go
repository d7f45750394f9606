// This file makes `reindex --commit` recoverable: the switch of CURRENT and
// the archive of the parent's ledger are one step. Before the switch a note
// names both revisions; the archive removes it once written. A build that
// finds the note finishes the archive first (the archive is idempotent: its
// rows are inserted once per entry, its reports written whole), or drops the
// note when the switch never happened.

package rev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ragraf/ragraf/internal/store/control"
)

// pendingArchive is the note: archive From's ledger into the report From..To.
type pendingArchive struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func writePending(l Layout, p pendingArchive) error {
	b, _ := json.Marshal(p)
	return writeAtomic(l.PendingArchive(), append(b, '\n'))
}

func removePending(l Layout) error {
	if err := os.Remove(l.PendingArchive()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return syncDir(filepath.Dir(l.PendingArchive()))
}

// finishArchive completes the archive an interrupted commit left, under the
// build lock.
func finishArchive(ctx context.Context, l Layout, ctl *control.Store, opts Options) error {
	b, err := os.ReadFile(l.PendingArchive())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", l.PendingArchive(), err)
	}
	var p pendingArchive
	if err := json.Unmarshal(b, &p); err != nil || p.From == "" || p.To == "" {
		opts.Logger.Warn("unreadable note of an interrupted commit; removed", "path", l.PendingArchive())
		return removePending(l)
	}
	cur, _ := l.CurrentRev()
	if cur != p.To {
		// the build died before the switch: From is still current, its ledger live
		return removePending(l)
	}
	opts.Logger.Info("finishing an interrupted commit", "from", p.From, "to", p.To)
	info, err := readInfo(l.Rev(p.To))
	if err == nil {
		err = archive(ctx, l, ctl, p.From, info, opts.Now())
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// no report can be made (a store is gone or unreadable): the entries
		// are archived all the same, so nothing of the ledger is lost, and
		// builds go on
		opts.Logger.Warn("interrupted commit archived without a report", "from", p.From, "to", p.To, "err", err.Error())
		if _, aerr := ctl.AppendArchive(ctx, p.From, p.To, "", opts.Now()); aerr != nil {
			return fmt.Errorf("archiving the ledger of %s after an interrupted commit: %w", p.From, aerr)
		}
	}
	return removePending(l)
}

// readInfo reads a published revision's rev.json.
func readInfo(dir string) (Info, error) {
	var info Info
	b, err := os.ReadFile(filepath.Join(dir, RevJSON))
	if err != nil {
		return info, err
	}
	return info, json.Unmarshal(b, &info)
}
