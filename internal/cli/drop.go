// This file defines `ragraf drop`: remove the project's index (not its config).

package cli

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/rev"
)

type dropOptions struct {
	IO     IO
	Global *globalOptions
	Yes    bool
}

func newDropCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &dropOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "drop",
		Short: "Remove the project's index: revisions, history, ledger, archives (project.yaml stays)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return dropRun(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

func dropRun(opts *dropOptions) error {
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	l := rev.Layout{Root: root}
	if !opts.Yes {
		fmt.Fprintf(opts.IO.Err, "remove the index in %s, including its history and drift ledger? [y/N] ", l.Index())
		answer, _ := bufio.NewReader(opts.IO.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return &usageError{fmt.Errorf("drop: not confirmed (use --yes)")}
		}
	}
	if err := rev.Drop(root); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "dropped the index in %s\n", l.Index())
	return nil
}
