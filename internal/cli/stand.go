// This file defines `ragraf stand`: the measurement stand (M1–M7 against a
// grep-and-read baseline, on real history). The work is in internal/stand;
// this file parses flags and prints where the report went.

package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/stand"
)

type standOptions struct {
	IO      IO
	Global  *globalOptions
	Out     string
	Tasks   string
	History int
	Seed    uint64
	PerKind int
	Facts   int
}

func newStandCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &standOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "stand",
		Short: "Measure M1–M7 against a grep-and-read baseline on a scratch copy (the project is only read)",
		Long: "stand copies the project (--project, a git working tree for history) into a temporary directory, indexes the copy,\n" +
			"asks generated navigation tasks of ragraf and of a scripted grep-and-read agent, replays --history commits,\n" +
			"and writes OUT/stand.json and OUT/stand.md. Interrupted, it writes only OUT/stand.partial.json.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return standRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Out, "out", "", "directory for stand.json and stand.md (required)")
	cmd.Flags().StringVar(&opts.Tasks, "tasks", "", "a task file (the tasks.json of an earlier run) instead of generated tasks")
	cmd.Flags().IntVar(&opts.History, "history", 20, "commits to replay after the indexed one (HEAD~N is indexed)")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of every sample")
	cmd.Flags().IntVar(&opts.PerKind, "per-kind", 10, "generated tasks per task kind")
	cmd.Flags().IntVar(&opts.Facts, "facts", 1000, "facts sampled for M6")
	return cmd
}

func standRun(cmd *cobra.Command, opts *standOptions) error {
	if opts.Out == "" {
		return &usageError{fmt.Errorf("--out is required")}
	}
	if opts.History < 0 {
		return &usageError{fmt.Errorf("--history must be at least 0")}
	}
	root, cfg, err := opts.Global.loadConfig()
	if err != nil {
		return err
	}
	rep, err := stand.Run(cmd.Context(), stand.Options{
		Project: root, Out: opts.Out, Config: cfg, Tasks: opts.Tasks, History: opts.History,
		Seed: opts.Seed, PerKind: opts.PerKind, Facts: opts.Facts, Progress: opts.IO.Err,
		Hook: testStage(cmd.Context(), opts.IO.Err),
	})
	if err != nil {
		return err
	}
	out, _ := filepath.Abs(opts.Out)
	fmt.Fprintf(opts.IO.Out, "stand: %d tasks, %d commits replayed in %.0f s; report: %s\n", len(rep.Tasks), rep.Replayed, rep.ElapsedS, filepath.Join(out, "stand.md"))
	return nil
}
