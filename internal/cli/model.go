// This file defines `ragraf model pull|list|remove`: the sentence models in
// the user's cache directory (internal/embed/models), shared by every
// project, and the ONNX Runtime library they run on.

package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/embed/models"
	"github.com/ragraf/ragraf/internal/embed/onnx"
)

type modelPullOptions struct {
	IO         IO
	FromDir    string
	Insecure   bool
	Endpoint   string
	RuntimeURL string
	NoRuntime  bool
}

func newModelCmd(io IO, _ *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Manage the sentence models for semantic search (in the user's cache directory)",
	}
	pull := &modelPullOptions{IO: io}
	pullCmd := &cobra.Command{
		Use:   "pull [NAME]",
		Short: "Install a model from the Hugging Face hub (checked against ragraf's sha256 manifest) or from copied files, and the ONNX Runtime",
		Long: "Install a model from the Hugging Face hub (checked against ragraf's sha256 manifest) or from copied files, and the ONNX Runtime.\n" +
			"NAME defaults to " + models.DefaultModel + ". The hub is $HF_ENDPOINT or --endpoint.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := models.DefaultModel
			if len(args) == 1 {
				name = args[0]
			}
			return modelPullRun(cmd, pull, name)
		},
	}
	f := pullCmd.Flags()
	f.StringVar(&pull.FromDir, "from-dir", "", "install from model.onnx (or onnx/model.onnx) and tokenizer.json in this directory")
	f.BoolVar(&pull.Insecure, "insecure", false, "accept files ragraf's manifest has no verified sha256 for (their sha256 is recorded)")
	f.StringVar(&pull.Endpoint, "endpoint", "", "the Hugging Face hub's URL (default $HF_ENDPOINT or https://huggingface.co)")
	f.StringVar(&pull.RuntimeURL, "runtime-url", "", "where to download the ONNX Runtime release archive from (default: its GitHub release)")
	f.BoolVar(&pull.NoRuntime, "no-runtime", false, "do not fetch the ONNX Runtime")

	listCmd := &cobra.Command{
		Use:   "list",
		Short: "List the installed models and the ONNX Runtime library found",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ms, err := models.List()
			if err != nil {
				return err
			}
			for _, m := range ms {
				v := "verified"
				if !m.Verified {
					v = "unverified"
				}
				fmt.Fprintf(io.Out, "%s\t%s\t%s\t%s\n", m.Name, v, m.Revision, m.Dir)
			}
			if len(ms) == 0 {
				fmt.Fprintln(io.Err, "no models installed (ragraf model pull installs "+models.DefaultModel+")")
			}
			if lib, err := onnx.FindLibrary("", models.RuntimeDir()); err == nil {
				fmt.Fprintf(io.Err, "ONNX Runtime: %s\n", lib)
			} else {
				fmt.Fprintf(io.Err, "ONNX Runtime: %v\n", err)
			}
			return nil
		},
	}
	removeCmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an installed model",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := models.Remove(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "removed %s\n", args[0])
			return nil
		},
	}
	cmd.AddCommand(pullCmd, listCmd, removeCmd)
	return cmd
}

func modelPullRun(cmd *cobra.Command, opts *modelPullOptions, name string) error {
	po := models.PullOptions{Endpoint: opts.Endpoint, Insecure: opts.Insecure, Progress: opts.IO.Err}
	var m *models.Installed
	var err error
	if opts.FromDir != "" {
		m, err = models.FromDir(name, opts.FromDir)
	} else {
		m, err = models.Pull(cmd.Context(), name, po)
	}
	if err != nil {
		return err
	}
	state := "verified against ragraf's manifest"
	if !m.Verified {
		state = "NOT verified (ragraf's manifest has no sha256 for it); sha256 recorded in installed.json"
	}
	fmt.Fprintf(opts.IO.Out, "installed %s in %s, %s\n", m.Name, m.Dir, state)
	if opts.NoRuntime {
		return nil
	}
	if lib, err := onnx.FindLibrary("", models.RuntimeDir()); err == nil {
		fmt.Fprintf(opts.IO.Out, "ONNX Runtime: %s\n", lib)
		return nil
	}
	lib, err := models.PullRuntime(cmd.Context(), models.PinnedRuntime, opts.RuntimeURL, po)
	if err != nil {
		return fmt.Errorf("the model is installed, the ONNX Runtime is not: %w", err)
	}
	fmt.Fprintf(opts.IO.Out, "ONNX Runtime %s: %s\n", models.PinnedRuntime.Version, lib)
	return nil
}
