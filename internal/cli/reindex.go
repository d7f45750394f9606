// This file defines `ragraf reindex`: without --commit it records and lists
// what changed since the current revision; with --commit it builds the next
// revision from the extraction cache, archives the ledger with a report and
// rotates old revisions (FT-32…34).

package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

type reindexOptions struct {
	IO          IO
	Global      *globalOptions
	Commit      bool
	JSON        bool
	Parallelism int
}

func newReindexCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &reindexOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "reindex",
		Short: "Show what changed since the index; with --commit build the next revision and archive the ledger",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return reindexRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Commit, "commit", false, "build and publish the next revision, archive the drift ledger")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print a machine-readable summary")
	cmd.Flags().IntVarP(&opts.Parallelism, "jobs", "j", 0, "extraction workers (default: number of CPUs)")
	return cmd
}

// reindexSummary is the --json output of `reindex --commit`.
type reindexSummary struct {
	rev.Info
	Report    string `json:"report"`
	Detected  int    `json:"detected"` // changes found by compare before building
	DetectMS  int64  `json:"detect_ms"`
	BuildMS   int64  `json:"build_ms"`
	ElapsedMS int64  `json:"elapsed_ms"`
}

func reindexRun(cmd *cobra.Command, opts *reindexOptions) error {
	ctx := cmd.Context()
	root, cfg, err := opts.Global.loadConfig()
	if err != nil {
		return err
	}
	setMemoryLimit(cfg.MaxMemoryMB)
	log, closeLog := opts.Global.logger(opts.IO, root)
	defer closeLog()
	svc, err := opts.Global.service(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	start := time.Now()
	// record every change in the ledger before the next revision is
	// published, so the archive is complete; with --commit the detection runs
	// while the next revision is built
	type detected struct {
		env *facade.Envelope
		err error
		ms  int64
	}
	done := make(chan detected, 1)
	go func() {
		env, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"})
		done <- detected{env, err, time.Since(start).Milliseconds()}
	}()
	if !opts.Commit {
		d := <-done
		if d.err != nil {
			return printError(opts.IO, d.err)
		}
		env, det := d.env, d.env.Result.(facade.DriftDetectResult)
		if opts.JSON {
			b, err := facade.EncodeJSON(env)
			if err != nil {
				return err
			}
			_, err = opts.IO.Out.Write(b)
			return err
		}
		fmt.Fprintf(opts.IO.Out, "%s: %d changed paths since indexing", env.IndexRev, len(det.Changed))
		if len(det.Changed) == 0 {
			fmt.Fprintln(opts.IO.Out, "; nothing to reindex.")
			return nil
		}
		fmt.Fprintln(opts.IO.Out, ":")
		for _, p := range det.Changed {
			fmt.Fprintf(opts.IO.Out, "  %s\n", p)
		}
		fmt.Fprintln(opts.IO.Out, "Run `ragraf reindex --commit` to build the next revision.")
		return nil
	}
	var d detected
	waited := false
	wait := func() error {
		if !waited {
			d, waited = <-done, true
			svc.Close() // the old revision's readers are done
		}
		return d.err
	}
	buildStart := time.Now()
	info, err := rev.Reindex(ctx, rev.Options{Root: root, Config: cfg, Parallelism: opts.Parallelism, Logger: log, BeforePublish: wait, ORTLib: opts.Global.ORTLib})
	if werr := wait(); werr != nil {
		return printError(opts.IO, werr)
	}
	if err != nil {
		log.Error("reindex failed", "err", err.Error())
		return err
	}
	det, detectMS := d.env.Result.(facade.DriftDetectResult), d.ms
	sum := reindexSummary{Info: info, Detected: det.Found, DetectMS: detectMS,
		BuildMS: time.Since(buildStart).Milliseconds(), ElapsedMS: time.Since(start).Milliseconds(),
		Report: filepath.ToSlash(filepath.Join(rev.Dir, "archive", rev.ReportName(info.ParentRev, info.Rev)+".md"))}
	log.Info("reindexed", "rev", info.Rev, "parent", info.ParentRev, "ms", sum.ElapsedMS)
	if opts.JSON {
		return writeJSON(opts.IO.Out, sum)
	}
	fmt.Fprintf(opts.IO.Out, "%s: %d files, %d nodes, %d edges in %.2fs (%d changes archived from %s)\nreport: %s\n",
		info.Rev, info.FilesTotal, info.Nodes, info.Edges, float64(sum.ElapsedMS)/1000, det.Found, info.ParentRev, sum.Report)
	return nil
}
