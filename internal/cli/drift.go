// This file defines `ragraf drift`: list, detect, record and ack on the drift
// ledger. Each subcommand runs the facade operation of the same name and
// prints its envelope as JSON, the same bytes as the MCP tool.

package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/facade"
)

type driftOptions struct {
	IO      IO
	Global  *globalOptions
	Path    string
	Kind    string
	Note    string
	Method  string
	Unacked bool
	Limit   int
	Cursor  string
	// the record subcommand's own flags: their defaults must not leak into the list filters
	RecordPath, RecordKind string
}

func newDriftCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &driftOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "drift",
		Short: "Show and maintain the drift ledger of the current revision",
		Long: "List the drift ledger: every recorded difference between the current revision and the working tree.\n\n" +
			"  ragraf drift --unacked\n  ragraf drift detect --method git-diff\n" +
			"  ragraf drift record --path src/Cart.php --note 'pricing rewritten'\n  ragraf drift ack d-1a2b3c4d5e6f7a8b --note reviewed",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return driftRun(cmd.Context(), opts, func(ctx context.Context, s *facade.Service) (*facade.Envelope, error) {
				return s.Drift(ctx, facade.DriftArgs{Path: opts.Path, Kind: opts.Kind, Unacked: opts.Unacked, Limit: opts.Limit, Cursor: opts.Cursor})
			})
		},
	}
	cmd.Flags().StringVar(&opts.Path, "path", "", "only entries for this path")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only entries of this kind")
	cmd.Flags().BoolVar(&opts.Unacked, "unacked", false, "only entries without an acknowledgement")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "how many entries (default 100)")
	cmd.Flags().StringVar(&opts.Cursor, "cursor", "", "limits.cursor of the previous page")

	detect := &cobra.Command{
		Use:   "detect",
		Short: "Run a detector and record what it finds",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return driftRun(cmd.Context(), opts, func(ctx context.Context, s *facade.Service) (*facade.Envelope, error) {
				return s.DriftDetect(ctx, facade.DriftDetectArgs{Method: opts.Method})
			})
		},
	}
	detect.Flags().StringVar(&opts.Method, "method", "compare", "compare, git-diff, hook:session-start, hook:post-edit or db-schema-diff")

	record := &cobra.Command{
		Use:   "record",
		Short: "Record a manual ledger entry",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return driftRun(cmd.Context(), opts, func(ctx context.Context, s *facade.Service) (*facade.Envelope, error) {
				return s.DriftRecord(ctx, facade.DriftRecordArgs{Path: opts.RecordPath, Kind: opts.RecordKind, Note: opts.Note})
			})
		},
	}
	record.Flags().StringVar(&opts.RecordPath, "path", "", "the path the entry is about (required)")
	record.Flags().StringVar(&opts.RecordKind, "kind", "note", "entry kind")
	record.Flags().StringVar(&opts.Note, "note", "", "free text")

	ack := &cobra.Command{
		Use:   "ack <entry-id>",
		Short: "Acknowledge a ledger entry; the entry stays",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return driftRun(cmd.Context(), opts, func(ctx context.Context, s *facade.Service) (*facade.Envelope, error) {
				return s.DriftAck(ctx, facade.DriftAckArgs{EntryID: args[0], Note: opts.Note})
			})
		},
	}
	ack.Flags().StringVar(&opts.Note, "note", "", "why it is acknowledged")
	cmd.AddCommand(detect, record, ack)
	return cmd
}

// driftRun opens the project's facade, runs one ledger operation and prints
// its envelope, or the error as JSON.
func driftRun(ctx context.Context, opts *driftOptions, f func(context.Context, *facade.Service) (*facade.Envelope, error)) error {
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	env, err := f(ctx, svc)
	if err != nil {
		return printError(opts.IO, err)
	}
	b, err := facade.EncodeJSON(env)
	if err != nil {
		return err
	}
	_, err = opts.IO.Out.Write(b)
	return err
}
