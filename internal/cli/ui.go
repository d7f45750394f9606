// This file defines `ragraf ui`: the read-only local web view of the index
// (internal/ui), on the loopback address by default, behind a random token
// printed in the URL; --open launches the browser.

package cli

import (
	"fmt"
	"net"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/ui"
)

type uiOptions struct {
	IO     IO
	Global *globalOptions
	Listen string
	Open   bool
	// open launches the browser on url; tests replace it.
	open func(url string) error
}

func newUICmd(io IO, g *globalOptions) *cobra.Command {
	opts := &uiOptions{IO: io, Global: g, open: openBrowser}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Serve a read-only web view of the index on 127.0.0.1 (the URL it prints carries the access token)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return uiRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Listen, "listen", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	cmd.Flags().BoolVar(&opts.Open, "open", false, "open the page in the default browser")
	return cmd
}

func uiRun(cmd *cobra.Command, opts *uiOptions) error {
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
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return &usageError{fmt.Errorf("--listen %s: %w", opts.Listen, err)}
	}
	defer ln.Close()
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(opts.IO.Err, "ragraf ui: warning: listening on %s, not a loopback address: anyone who can reach it and has the URL can read the index\n", host)
	}
	token, err := ui.NewToken()
	if err != nil {
		return err
	}
	srv, err := ui.New(svc, ui.Options{Token: token, Addr: ln.Addr().String(), Logger: log})
	if err != nil {
		return err
	}
	url := ui.URL(ln.Addr().String(), token)
	log.Info("ui serving", "addr", ln.Addr().String())
	fmt.Fprintf(opts.IO.Out, "ragraf ui: serving %s read-only at\n  %s\n(Ctrl-C to stop)\n", root, url)
	if opts.Open {
		if err := opts.open(url); err != nil {
			fmt.Fprintf(opts.IO.Err, "ragraf ui: could not open a browser: %v\n", err)
		}
	}
	return ui.Serve(cmd.Context(), ln, srv)
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
