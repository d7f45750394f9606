// This file defines `ragraf hook session-start`: the command an agent's
// session-start hook runs. It compares the working tree with the current
// revision through the facade (method hook:session-start), records what
// changed, and prints a short summary the agent can show: unacknowledged
// entries, their paths, and how to reindex. A project without an index gets
// a one-line hint and exit 0, so a hook never blocks a session.

package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/facade"
)

// hookShown caps the entries listed in the summary.
const hookShown = 20

type hookOptions struct {
	IO     IO
	Global *globalOptions
	JSON   bool
}

func newHookCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &hookOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Commands for agent hooks",
	}
	start := &cobra.Command{
		Use:   "session-start",
		Short: "Detect drift and print a summary for an agent's session-start hook",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return hookSessionStartRun(cmd, opts)
		},
	}
	start.Flags().BoolVar(&opts.JSON, "json", false, "print the ledger envelope instead of the summary")
	cmd.AddCommand(start)
	return cmd
}

func hookSessionStartRun(cmd *cobra.Command, opts *hookOptions) error {
	ctx := cmd.Context()
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	svc, err := facade.New(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	if _, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "hook:session-start"}); err != nil {
		var fe *facade.Error
		if errors.As(err, &fe) && fe.Code == facade.ErrNotIndexed {
			fmt.Fprintln(opts.IO.Out, "ragraf: this project has no index yet; run `ragraf index` to build one.")
			return nil
		}
		return printError(opts.IO, err)
	}
	env, err := svc.Drift(ctx, facade.DriftArgs{Unacked: true, Limit: 1000})
	if err != nil {
		return printError(opts.IO, err)
	}
	if opts.JSON {
		b, err := facade.EncodeJSON(env)
		if err != nil {
			return err
		}
		_, err = opts.IO.Out.Write(b)
		return err
	}
	entries := env.Result.(facade.DriftResult).Entries
	w := opts.IO.Out
	if len(entries) == 0 {
		fmt.Fprintf(w, "ragraf: index %s matches the working tree (%d ledger entries, all acknowledged).\n", env.IndexRev, env.Drift.Entries)
		return nil
	}
	fmt.Fprintf(w, "ragraf: the working tree has drifted from index %s: %d unacknowledged drift entries.\n", env.IndexRev, len(entries))
	for i, e := range entries {
		if i == hookShown {
			fmt.Fprintf(w, "  … and %d more (ragraf drift --unacked)\n", len(entries)-hookShown)
			break
		}
		line := fmt.Sprintf("  %s %s", e.Kind, e.Path)
		if e.OldPath != "" {
			line += " (from " + e.OldPath + ")"
		}
		if len(e.Lines) > 0 {
			var rs []string
			for _, r := range e.Lines {
				rs = append(rs, fmt.Sprintf("%d-%d", r[0], r[1]))
			}
			line += " lines " + strings.Join(rs, ",")
		}
		fmt.Fprintf(w, "%s  [%s]\n", line, e.ID)
	}
	fmt.Fprintln(w, "Answers citing these paths carry stale_warnings; read them with live_read.")
	fmt.Fprintln(w, "Rebuild with `ragraf reindex --commit`, or acknowledge with `ragraf drift ack <id>`.")
	return nil
}
