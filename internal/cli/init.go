// This file defines `ragraf init`: write .ragraf/project.yaml with every option.

package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

type initOptions struct {
	IO    IO
	Dir   string
	Force bool
}

func newInitCmd(io IO, _ *globalOptions) *cobra.Command {
	opts := &initOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write DIR/.ragraf/project.yaml with every option and its default",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = "."
			if len(args) == 1 {
				opts.Dir = args[0]
			}
			return initRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Force, "force", false, "overwrite an existing project.yaml")
	return cmd
}

func initRun(opts *initOptions) error {
	st, err := os.Stat(opts.Dir)
	if err != nil || !st.IsDir() {
		return &usageError{fmt.Errorf("init: %q is not a directory", opts.Dir)}
	}
	l := rev.Layout{Root: opts.Dir}
	if err := os.MkdirAll(l.Index(), 0o755); err != nil {
		return err
	}
	path := l.Config()
	if _, err := os.Stat(path); err == nil && !opts.Force {
		return fmt.Errorf("init: %s already exists (use --force to overwrite)", path)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.WriteFile(path, config.Template(), 0o644); err != nil {
		return err
	}
	rel, _ := filepath.Rel(".", path)
	fmt.Fprintf(opts.IO.Out, "wrote %s\nadd this line to your .gitignore:\n%s/\n", rel, rev.Dir)
	return nil
}
