// This file defines `ragraf agent install | uninstall`: it wires ragraf into
// coding agents' project configuration through internal/agent, which does
// the merging, and prints what it did (with --dry-run, the diff of what it
// would do).

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/agent"
	"github.com/ragraf/ragraf/internal/secrets"
)

type agentOptions struct {
	IO      IO
	Global  *globalOptions
	Targets []string
	DryRun  bool
	Force   bool
	Command string
	// commandSet: --command was given; otherwise the running binary is named when PATH's ragraf is another file
	commandSet bool
	// run is agent.Install or agent.Uninstall; tests replace it
	install, uninstall func(agent.Options) (*agent.Report, error)
}

func newAgentCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &agentOptions{IO: io, Global: g, install: agent.Install, uninstall: agent.Uninstall}
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Wire ragraf into coding agents: MCP server, hooks, AGENTS.md and a skill",
		Long: "Install merges ragraf into the project's agent configuration without replacing anything\n" +
			"else in it; uninstall restores the files' original bytes. Targets: claude, codex, cursor,\n" +
			"gemini, vscode, opencode, or all; repeat --target or give a comma list.\n\n" +
			"  ragraf agent install --target claude\n" +
			"  ragraf agent install --target codex,cursor --dry-run\n" +
			"  ragraf agent uninstall --target all",
	}
	for _, sub := range []struct {
		use, short string
		run        *func(agent.Options) (*agent.Report, error)
	}{
		{"install", "Merge ragraf's MCP server, hooks, AGENTS.md block and skill into the project", &opts.install},
		{"uninstall", "Restore the files install changed; files edited since are left and named", &opts.uninstall},
	} {
		c := &cobra.Command{
			Use:   sub.use,
			Short: sub.short,
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				opts.commandSet = cmd.Flags().Changed("command")
				return agentRun(opts, sub.use, *sub.run)
			},
		}
		c.Flags().StringSliceVarP(&opts.Targets, "target", "t", nil, "claude, codex, cursor, gemini, vscode, opencode or all (repeatable, comma-separated)")
		c.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the plan and the diffs, write nothing")
		if sub.use == "install" {
			c.Flags().BoolVar(&opts.Force, "force", false, "overwrite a ragraf entry ragraf did not write, or a file that does not parse")
			c.Flags().StringVar(&opts.Command, "command", "ragraf", "the ragraf executable the agents run (default: ragraf when PATH's ragraf is this binary, else this binary's path)")
		}
		cmd.AddCommand(c)
	}
	return cmd
}

func agentRun(opts *agentOptions, verb string, run func(agent.Options) (*agent.Report, error)) error {
	if len(opts.Targets) == 0 {
		return &usageError{errors.New("--target is required: claude, codex, cursor, gemini, vscode, opencode or all")}
	}
	targets, err := agent.ExpandTargets(opts.Targets)
	if err != nil {
		return &usageError{err}
	}
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	w := opts.IO.Out
	command := opts.Command
	if verb == "install" && !opts.commandSet {
		var note string
		command, note = agentCommand()
		if note != "" {
			fmt.Fprintln(w, "note: "+note)
		}
	}
	rep, err := run(agent.Options{Root: root, Targets: targets, DryRun: opts.DryRun, Force: opts.Force, Command: command})
	if err != nil {
		return err
	}
	for _, a := range rep.Actions {
		line := fmt.Sprintf("%-9s %s", a.Op, a.Path)
		if a.Reason != "" {
			line += ": " + a.Reason
		}
		fmt.Fprintln(w, line)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
	if opts.DryRun {
		for _, a := range rep.Actions {
			if a.Op == "unchanged" || a.Op == "skip" {
				continue
			}
			// the diff's context lines are the user's config: credentials in them are not printed
			d, _ := secrets.Redact([]byte(udiff.Unified("a/"+a.Path, "b/"+a.Path, string(a.Before), string(a.After))))
			w.Write(d)
		}
		fmt.Fprintf(w, "dry run: %d files would change; nothing was written\n", rep.Changed())
		return nil
	}
	switch {
	case rep.Changed() == 0:
		fmt.Fprintf(w, "%s: nothing to do for %v\n", verb, targets)
	case verb == "install":
		fmt.Fprintf(w, "installed %v: %d files changed; undo with `ragraf agent uninstall --target %s`\n", targets, rep.Changed(), joinComma(targets))
	default:
		fmt.Fprintf(w, "uninstalled: %d files restored or removed\n", rep.Changed())
	}
	if verb == "install" {
		fmt.Fprintln(w, "next:")
		for _, s := range agent.NextSteps(root, targets) {
			fmt.Fprintln(w, "  "+s)
		}
	}
	return nil
}

// agentCommand is the executable the configs run: "ragraf" when that name on
// PATH is this very binary, else this binary's absolute path (an agent
// starting a bare ragraf would run another one, or fail to connect), with a
// note saying so.
func agentCommand() (string, string) {
	exe, err := os.Executable()
	if err != nil {
		return "ragraf", ""
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	onPath, err := exec.LookPath("ragraf")
	if err == nil {
		a, aerr := os.Stat(exe)
		b, berr := os.Stat(onPath)
		if aerr == nil && berr == nil && os.SameFile(a, b) {
			return "ragraf", ""
		}
		return exe, fmt.Sprintf("`ragraf` on PATH is %s, not this binary: the configs run %s (--command names another)", onPath, exe)
	}
	return exe, fmt.Sprintf("`ragraf` is not on PATH: the configs run %s (--command names another)", exe)
}

func joinComma(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
