// This file defines `ragraf agent install | uninstall`: it wires ragraf into
// coding agents' project configuration through internal/agent, which does
// the merging, and prints what it did (with --dry-run, the diff of what it
// would do).

package cli

import (
	"errors"
	"fmt"

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
				return agentRun(opts, sub.use, *sub.run)
			},
		}
		c.Flags().StringSliceVarP(&opts.Targets, "target", "t", nil, "claude, codex, cursor, gemini, vscode, opencode or all (repeatable, comma-separated)")
		c.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the plan and the diffs, write nothing")
		if sub.use == "install" {
			c.Flags().BoolVar(&opts.Force, "force", false, "overwrite a ragraf entry ragraf did not write, or a file that does not parse")
			c.Flags().StringVar(&opts.Command, "command", "ragraf", "the ragraf executable the agents run")
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
	rep, err := run(agent.Options{Root: root, Targets: targets, DryRun: opts.DryRun, Force: opts.Force, Command: opts.Command})
	if err != nil {
		return err
	}
	w := opts.IO.Out
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
	return nil
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
