// This file reads one archive report (rev.Report, written by reindex
// --commit) by the name revisions lists, for a person to read it rendered.

package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ragraf/ragraf/internal/rev"
)

// ArchiveReportArgs names a report by its base name, e.g. rev-0001..rev-0002.
type ArchiveReportArgs struct {
	Name string `json:"name"`
}

// ArchiveReport returns the report name as rev.Report. Only a name the
// archive directory lists is read, so no argument can reach another file.
func (s *Service) ArchiveReport(ctx context.Context, args ArchiveReportArgs) (*Envelope, error) {
	const op = "archive_report"
	if args.Name == "" {
		return nil, badInput("name is required, e.g. rev-0001..rev-0002")
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	env := c.env
	ents, err := os.ReadDir(s.layout.Archive())
	if err != nil && !os.IsNotExist(err) {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading the archive: %v", err)}
	}
	for _, e := range ents {
		if e.IsDir() || strings.TrimSuffix(e.Name(), ".json") != args.Name || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.layout.Archive(), e.Name()))
		if err != nil {
			return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading report %s: %v", args.Name, err)}
		}
		var rep rev.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("decoding report %s: %v", args.Name, err)}
		}
		env.Result = rep
		return c.done(env.Result)
	}
	env.Result = rev.Report{}
	env.NotFound = true
	return c.done(env.Result)
}
