// This file defines `ragraf eval lsp`: ragraf's references and definitions
// measured against a language server (internal/eval/lsp).

package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/eval/lsp"
)

type evalLSPOptions struct {
	IO      IO
	Opts    lsp.Options
	JSON    bool
	Verbose bool
}

func newEvalCmd(io IO, g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure ragraf's answers against an independent reference",
		Args:  cobra.NoArgs,
	}
	opts := &evalLSPOptions{IO: io}
	lspCmd := &cobra.Command{
		Use:     "lsp --server <command> --corpus <dir>",
		Short:   "Compare references and definitions with a language server over stdio",
		Example: `  ragraf eval lsp --server "intelephense --stdio" --corpus ~/src/phpmyadmin --sample 200 --seed 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Opts.Server == "" || opts.Opts.Corpus == "" {
				return &usageError{errMissingEvalFlags}
			}
			if err := lsp.CheckFamily(opts.Opts.Family); err != nil {
				return &usageError{err}
			}
			if g.Verbose || opts.Verbose {
				opts.Opts.Stderr = io.Err
			}
			return evalLSPRun(cmd, opts)
		},
	}
	f := lspCmd.Flags()
	f.StringVar(&opts.Opts.Server, "server", "", "shell command that starts the language server on stdio")
	f.StringVar(&opts.Opts.Corpus, "corpus", "", "project directory, already indexed by ragraf")
	f.IntVar(&opts.Opts.Sample, "sample", 200, "declarations sampled")
	f.Uint64Var(&opts.Opts.Seed, "seed", 1, "sampling seed")
	f.StringSliceVar(&opts.Opts.Symbols, "symbol", nil, "evaluate this qualified name (Ns\\Class::method) instead of a sample; repeatable")
	f.DurationVar(&opts.Opts.Timeout, "index-timeout", 10*time.Minute, "longest wait for the server's indexing")
	f.StringVar(&opts.Opts.Family, "family", "component", "a method's references: the uses of its override component, siblings included (component), or of what it overrides and what overrides it (chain)")
	f.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	cmd.AddCommand(lspCmd)
	return cmd
}

type evalError string

func (e evalError) Error() string { return string(e) }

const errMissingEvalFlags = evalError("--server and --corpus are required")

func evalLSPRun(cmd *cobra.Command, opts *evalLSPOptions) error {
	rep, err := lsp.Run(cmd.Context(), opts.Opts)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, rep)
	}
	rep.Write(opts.IO.Out)
	return nil
}
