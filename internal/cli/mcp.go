// This file defines `ragraf mcp`: the MCP server over stdio (default) or
// streamable HTTP (--http 127.0.0.1:PORT). Stdout carries only protocol
// messages; logs go to the project log and, with -v, to stderr. Without
// --project the server finds its project itself (mcpProject).

package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/mcpserver"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/version"
)

type mcpOptions struct {
	IO     IO
	Global *globalOptions
	HTTP   string
	Idle   time.Duration
	Format string
}

func newMCPCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &mcpOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the read operations as MCP tools over stdio, or streamable HTTP with --http",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return mcpRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio")
	cmd.Flags().StringVar(&opts.Format, "format", "text", "answers' encoding when a call names none: text (compact lines for a model) or json (the envelope, also as structured content)")
	cmd.Flags().DurationVar(&opts.Idle, "session-idle", mcpserver.DefaultSessionIdle, "with --http: close a session that sends no request for this long")
	return cmd
}

func mcpRun(cmd *cobra.Command, opts *mcpOptions) error {
	if opts.Global.Project == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		opts.Global.Project = mcpProject(os.Getenv, wd)
	}
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	log, closeLog := opts.Global.logger(opts.IO, root)
	defer closeLog()
	svc, err := opts.Global.service(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	srv, err := mcpserver.New(svc, mcpserver.Options{Version: version.Version, Logger: log, Format: opts.Format})
	if err != nil {
		return &usageError{err}
	}
	ctx := cmd.Context()
	// a newly published revision is opened and its per-revision caches
	// built within a second, off the request path (facade/warm.go)
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { svc.Watch(watchCtx, time.Second); close(watched) }()
	defer func() { stopWatch(); <-watched }()
	if opts.HTTP == "" {
		log.Info("mcp serving stdio")
		return mcpserver.ServeStdio(ctx, srv, opts.IO.In, opts.IO.Out, log)
	}
	ln, err := net.Listen("tcp", opts.HTTP)
	if err != nil {
		return &usageError{fmt.Errorf("--http %s: %w", opts.HTTP, err)}
	}
	log.Info("mcp serving http", "addr", ln.Addr().String())
	fmt.Fprintf(opts.IO.Err, "ragraf mcp: serving streamable HTTP on http://%s\n", ln.Addr())
	return mcpserver.ServeHTTP(ctx, srv, ln, opts.Idle)
}

// mcpProject is the project of a server started without --project: an agent
// launches `ragraf mcp` from wherever it runs, so the project comes from
// RAGRAF_PROJECT, then CLAUDE_PROJECT_DIR (set by Claude Code for the servers
// it starts), then the nearest directory at or above wd holding .ragraf/, and
// last wd itself.
func mcpProject(getenv func(string) string, wd string) string {
	for _, k := range []string{"RAGRAF_PROJECT", "CLAUDE_PROJECT_DIR"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	for dir := wd; ; {
		if st, err := os.Stat(filepath.Join(dir, rev.Dir)); err == nil && st.IsDir() {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return wd
		}
		dir = up
	}
}
