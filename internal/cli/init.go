// This file defines `ragraf init`: write .ragraf/project.yaml with every option,
// the languages and table prefixes found in the tree (init_detect.go) filled in.

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

type initOptions struct {
	IO    IO
	Dir   string
	Force bool
	Print bool
}

func newInitCmd(io IO, _ *globalOptions) *cobra.Command {
	opts := &initOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write DIR/.ragraf/project.yaml with every option, the languages and table prefixes found in DIR",
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
	cmd.Flags().BoolVar(&opts.Print, "print", false, "print the project.yaml init would write instead of writing it")
	return cmd
}

func initRun(opts *initOptions) error {
	st, err := os.Stat(opts.Dir)
	if err != nil || !st.IsDir() {
		return &usageError{fmt.Errorf("init: %q is not a directory", opts.Dir)}
	}
	if opts.Print {
		d, err := detectProject(context.Background(), opts.Dir)
		if err != nil {
			return err
		}
		_, err = opts.IO.Out.Write(config.TemplateFor(d))
		return err
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
	d, err := detectProject(context.Background(), opts.Dir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, config.TemplateFor(d), 0o644); err != nil {
		return err
	}
	rel, _ := filepath.Rel(".", path)
	fmt.Fprintf(opts.IO.Out, "wrote %s\n%sadd this line to your .gitignore:\n%s/\n", rel, detectedSummary(d), rev.Dir)
	return nil
}

// detectedSummary says in one or two lines what init found.
func detectedSummary(d config.Detected) string {
	var b strings.Builder
	if len(d.Languages) == 0 {
		b.WriteString("languages: no source file found, the defaults written\n")
	} else {
		parts := make([]string, len(d.Languages))
		for i, c := range d.Languages {
			parts[i] = fmt.Sprintf("%s (%d)", c.Lang, c.Files)
		}
		b.WriteString("languages: " + strings.Join(parts, ", ") + "\n")
	}
	prefixes := make([]string, len(d.TablePrefixes))
	for i, p := range d.TablePrefixes {
		prefixes[i] = p.Value
	}
	if len(prefixes) > 0 {
		b.WriteString("table_prefixes: " + strings.Join(prefixes, ", ") + "\n")
	}
	return b.String()
}
