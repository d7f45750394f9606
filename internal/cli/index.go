// This file defines `ragraf index`: build and publish a new revision.

package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

type indexOptions struct {
	IO          IO
	Global      *globalOptions
	JSON        bool
	Parallelism int
	CPUProfile  string
	MemProfile  string
	NoEmbed     bool
}

func newIndexCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &indexOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Index the project into a new immutable revision",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return indexRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print a machine-readable summary")
	cmd.Flags().IntVarP(&opts.Parallelism, "jobs", "j", 0, "extraction workers (default: number of CPUs)")
	cmd.Flags().BoolVar(&opts.NoEmbed, "no-embed", false, "do not run the embedding model: only vectors already in the vector cache (none for static:project, which is not trained)")
	cmd.Flags().StringVar(&opts.CPUProfile, "cpuprofile", "", "write a Go CPU profile of the build to this file")
	cmd.Flags().StringVar(&opts.MemProfile, "memprofile", "", "write a Go heap profile of the build's peak of live heap to this file, and one at the end of each phase to FILE.extracted, .resolved, .summarised, .trained, .written (`go tool pprof -sample_index=inuse_space`)")
	return cmd
}

func indexRun(cmd *cobra.Command, opts *indexOptions) error {
	root, cfg, err := opts.Global.loadConfig()
	if err != nil {
		return err
	}
	setMemoryLimit(cfg.MaxMemoryMB)
	log, closeLog := opts.Global.logger(opts.IO, root)
	defer closeLog()
	// the previous revision's ledger is archived with a report, as
	// `reindex --commit` does: a note recorded before this build would
	// otherwise be hidden behind the new revision and never archived
	bo := rev.Options{Root: root, Config: cfg, Parallelism: opts.Parallelism, Logger: log, NoEmbed: opts.NoEmbed, Archive: true, ORTLib: opts.Global.ORTLib,
		Hook: testStage(cmd.Context(), opts.IO.Err)}
	var bar, ebar *progressbar.ProgressBar
	var once, eonce sync.Once
	if opts.IO.IsTerm && !opts.JSON {
		bo.EmbedProgress = func(done, total int) {
			eonce.Do(func() {
				ebar = progressbar.NewOptions(total, progressbar.OptionSetWriter(opts.IO.Err),
					progressbar.OptionSetDescription("embedding"), progressbar.OptionShowCount(),
					progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
			})
			_ = ebar.Set(done)
		}
		bo.Progress = func(done, total int) {
			once.Do(func() {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(opts.IO.Err),
					progressbar.OptionSetDescription("indexing"), progressbar.OptionShowCount(),
					progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
			})
			_ = bar.Set(done)
		}
	}
	if opts.CPUProfile != "" {
		f, err := os.Create(opts.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if opts.MemProfile != "" {
		prof := startPeakProfiler(opts.MemProfile, log)
		defer prof.Stop()
		next := bo.Hook
		bo.Hook = func(stage string) {
			prof.Stage(stage)
			if next != nil {
				next(stage)
			}
		}
	}
	start := time.Now()
	info, err := rev.Build(cmd.Context(), bo)
	if bar != nil {
		_ = bar.Finish()
	}
	if ebar != nil {
		_ = ebar.Finish()
	}
	if err != nil {
		log.Error("index failed", "err", err.Error())
		if !cfg.Embeddings.None() && cfg.Embeddings.Model != config.StaticModel && cmd.Context().Err() != nil {
			fmt.Fprintln(opts.IO.Err, "interrupted; the vectors embedded so far are in the vector cache: ragraf index resumes from there")
		}
		return err
	}
	elapsed := time.Since(start)
	log.Info("indexed", "rev", info.Rev, "files", info.FilesTotal, "nodes", info.Nodes, "edges", info.Edges, "ms", elapsed.Milliseconds())
	if opts.JSON {
		return writeJSON(opts.IO.Out, struct {
			rev.Info
			ElapsedMS int64 `json:"elapsed_ms"`
		}{info, elapsed.Milliseconds()})
	}
	fmt.Fprintf(opts.IO.Out, "%s: %d files (%d parsed, %d partial, %d failed, %d skipped), %d nodes, %d edges, %d text chunks in %.2fs\n",
		info.Rev, info.FilesTotal, info.Files["parsed"], info.Files["partial"], info.Files["failed"], info.Files["skipped"],
		info.Nodes, info.Edges, info.Chunks, elapsed.Seconds())
	switch v := info.Vectors; {
	case v == nil:
	case v.Trained:
		fmt.Fprintf(opts.IO.Out, "vectors (%s): trained on %d texts, %d missing\n", v.Model, v.Texts, v.Missing)
	default:
		fmt.Fprintf(opts.IO.Out, "vectors (%s): %d texts, %d from the vector cache, %d embedded, %d missing\n", v.Model, v.Texts, v.Cached, v.Embedded, v.Missing)
	}
	return nil
}
