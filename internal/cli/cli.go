// Package cli is the command-line adapter: one file per subcommand, each with an
// xOptions struct, a newXCmd constructor and an xRun function. It renders facade
// answers and decides exit codes in one place (exitCode). Environment variables
// are read here and nowhere else.
//
// Exit codes: 0 success (an empty result too), 1 failure, 2 usage error,
// 3 no index or incompatible schema, 130 interrupted.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// IO is where commands read and write; tests pass buffers.
type IO struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	IsTerm bool // Err is a terminal: show progress bars
}

// StdIO returns the process's standard streams.
func StdIO() IO {
	return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, IsTerm: term.IsTerminal(int(os.Stderr.Fd()))}
}

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitNotIndexed  = 3
	exitInterrupted = 130
)

// usageError marks errors in how a command was called.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Main runs ragraf with args and returns the exit code.
func Main(args []string, io IO) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd(io)
	root.SetArgs(args)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(ctx, err)
	var fe *facade.Error
	switch {
	case errors.As(err, &fe):
		// facade errors are printed as JSON by the command that got them
	case code == exitUsage:
		fmt.Fprintf(io.Err, "ragraf: %v\nRun 'ragraf help' for usage.\n", err)
	default:
		fmt.Fprintf(io.Err, "ragraf: %v\n", err)
	}
	return code
}

// exitCode is the one place that maps errors to exit codes.
func exitCode(ctx context.Context, err error) int {
	var ue *usageError
	var fe *facade.Error
	var ce *config.Error
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return exitInterrupted
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, rev.ErrNotIndexed), errors.Is(err, sqlitedb.ErrSchema):
		return exitNotIndexed
	case errors.As(err, &fe):
		switch fe.Code {
		case facade.ErrNotIndexed, facade.ErrSchema:
			return exitNotIndexed
		case facade.ErrBadInput, facade.ErrQueryLanguage, facade.ErrPathOutside, facade.ErrExcluded, facade.ErrUnknownOp:
			return exitUsage
		case facade.ErrStaleCursor: // the request was right when it was made: ask again without cursor
			return exitFailure
		}
		return exitFailure
	case errors.As(err, &ce):
		return exitFailure
	}
	if isCobraUsage(err) {
		return exitUsage
	}
	return exitFailure
}

// globalOptions are the flags every command shares.
type globalOptions struct {
	Project string // project directory or its config file
	Verbose bool
	ORTLib  string // --ort-lib: the ONNX Runtime library of sentence models
}

func newRootCmd(io IO) *cobra.Command {
	g := &globalOptions{}
	cmd := &cobra.Command{
		Use:           "ragraf",
		Short:         "A code knowledge base for coding agents: index, query, track drift",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.PersistentFlags().StringVar(&g.Project, "project", "", "project directory or its project.yaml (default: the current directory)")
	cmd.PersistentFlags().BoolVarP(&g.Verbose, "verbose", "v", false, "log progress to stderr")
	cmd.PersistentFlags().StringVar(&g.ORTLib, "ort-lib", "", "the ONNX Runtime shared library for sentence models (default $RAGRAF_ORT_LIB, the system's, the cache's)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	cmd.AddCommand(
		newInitCmd(io, g),
		newIndexCmd(io, g),
		newStatusCmd(io, g),
		newDropCmd(io, g),
		newVersionCmd(io),
		newQueryCmd(io, g),
		newMCPCmd(io, g),
		newEvalCmd(io, g),
		newReindexCmd(io, g),
		newHookCmd(io, g),
		newDriftCmd(io, g),
		newAgentCmd(io, g),
		newStandCmd(io, g),
		newUICmd(io, g),
		newModelCmd(io, g),
	)
	return cmd
}

// project resolves --project into the project root and its config path.
// PATH may be the project directory or its config file.
func (g *globalOptions) project() (root, cfgPath string, err error) {
	p := g.Project
	if p == "" {
		p = "."
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", "", &usageError{fmt.Errorf("project %q: %w", p, err)}
	}
	if st.IsDir() {
		return abs, rev.Layout{Root: abs}.Config(), nil
	}
	// a config file: the project is the directory holding .ragraf/, or the file's directory
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == rev.Dir {
		dir = filepath.Dir(dir)
	}
	return dir, abs, nil
}

// service opens the read path of the project at root with the config
// --project names (the project's own project.yaml without it) and the
// --ort-lib library: every command that answers from the index uses it, so
// all of them read the same config.
func (g *globalOptions) service(root string) (*facade.Service, error) {
	opts := facade.Options{ORTLib: g.ORTLib}
	if g.Project != "" {
		_, cfg, err := g.project()
		if err != nil {
			return nil, err
		}
		opts.Config = cfg
	}
	return facade.New(root, opts)
}

// loadConfig reads the project's config; a project without one (no `ragraf
// init` yet) uses the defaults, but a config file named by --project must exist.
func (g *globalOptions) loadConfig() (string, config.Config, error) {
	root, cfgPath, err := g.project()
	if err != nil {
		return "", config.Config{}, err
	}
	if cfgPath == (rev.Layout{Root: root}).Config() {
		if _, err := os.Stat(cfgPath); errors.Is(err, os.ErrNotExist) {
			return root, config.Default(), nil
		}
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return "", config.Config{}, err
	}
	return root, cfg, nil
}

// logger writes to stderr when verbose and to .ragraf/logs/ragraf.log always.
// Log lines never carry config values or file contents.
func (g *globalOptions) logger(io IO, root string) (*slog.Logger, func()) {
	var handlers []slog.Handler
	closeFn := func() {}
	logDir := rev.Layout{Root: root}.Logs()
	if err := os.MkdirAll(logDir, 0o755); err == nil {
		if f, err := os.OpenFile(filepath.Join(logDir, "ragraf.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			handlers = append(handlers, slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))
			closeFn = func() { f.Close() }
		}
	}
	if g.Verbose {
		handlers = append(handlers, slog.NewTextHandler(io.Err, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	if len(handlers) == 0 {
		return slog.New(slog.DiscardHandler), closeFn
	}
	return slog.New(multiHandler(handlers)), closeFn
}

// writeJSON prints v as indented JSON with a trailing newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printError prints a facade error as JSON on stdout (the answer channel) and
// returns it for the exit code.
func printError(io IO, err error) error {
	fe := facade.AsError(err)
	_ = writeJSON(io.Out, facade.ErrorBody{Error: fe})
	return fe
}
