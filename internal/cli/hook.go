// This file defines `ragraf hook session-start` and `ragraf hook post-edit`,
// the commands agents' hooks run (internal/agent installs them).
//
// session-start renders the facade's SessionStart (facade/hook.go: the
// revision and its age, a git HEAD that moved since the index was built, the
// drift that still applies after recording what changed) within 2 KB, with
// which tools to use. post-edit renders the facade's PostEdit of the edited
// files the hook's input names (each checked against the index, so the edit
// is in the ledger) within 1 KB: the definitions the edit touched and their
// stated callers. The project is found as `ragraf mcp` finds it (hookRoot).
//
// Both read the hook's stdin JSON and print the shape the agent accepts
// (--agent) through internal/agent/hookio.go, and always exit 0:
// a hook must never block a session. Both give up after about a second.

package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/agent"
	"github.com/ragraf/ragraf/internal/facade"
)

const (
	hookShown       = 20   // entries listed in the summary at most
	hookStartBudget = 2048 // bytes of session-start output
	hookEditBudget  = 1024 // bytes of post-edit context
	hookTimeout     = 900 * time.Millisecond
)

type hookOptions struct {
	IO      IO
	Global  *globalOptions
	JSON    bool
	Format  string
	Timeout time.Duration
	Now     func() time.Time
}

func newHookCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &hookOptions{IO: io, Global: g, Timeout: hookTimeout, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Commands for agent hooks (ragraf agent install wires them)",
	}
	start := &cobra.Command{
		Use:   "session-start",
		Short: "Detect drift and print a summary for an agent's session-start hook",
		Long: "Compare the working tree with the index, record what changed, and print the revision, its age,\n" +
			"a moved git HEAD and the drift, as the agent's hook output (--agent claude, codex, gemini, cursor or text).\n" +
			"Always exits 0.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return hookSessionStartRun(cmd.Context(), opts)
		},
	}
	start.Flags().BoolVar(&opts.JSON, "json", false, "print the ledger envelope instead of the summary")
	agentFlag(start, &opts.Format, "text", "output shape: claude, codex, gemini, cursor or text")
	edit := &cobra.Command{
		Use:   "post-edit",
		Short: "Record an agent's file edit and print the definitions it touched and their callers",
		Long: "Read a PostToolUse hook's input (tool_input.file_path, or an apply_patch patch), check the edited\n" +
			"files against the index so the edit is in the drift ledger, and print the touched definitions and their\n" +
			"stated callers as the agent's hook output (--agent claude, codex or text). Always exits 0.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return hookPostEditRun(cmd.Context(), opts)
		},
	}
	agentFlag(edit, &opts.Format, "claude", "output shape: claude, codex, gemini (AfterTool), cursor or text")
	cmd.AddCommand(start, edit)
	return cmd
}

// agentFlag adds --agent, the agent whose hook output shape is printed, and
// --format, its former name, still read (hidden: configs written before the
// rename call it, and a hook must not print notes into the agent's session).
func agentFlag(cmd *cobra.Command, v *string, def, usage string) {
	cmd.Flags().StringVar(v, "agent", def, usage)
	cmd.Flags().StringVar(v, "format", def, "former name of --agent")
	_ = cmd.Flags().MarkHidden("format")
}

// hookRoot is the project, found by the rules `ragraf mcp` uses
// (mcpProject): --project, else RAGRAF_PROJECT, then CLAUDE_PROJECT_DIR, then
// the nearest directory at or above the hook's cwd (or the working
// directory) holding .ragraf/, and last that directory itself.
func hookRoot(g *globalOptions, in agent.HookInput) (string, error) {
	if g.Project == "" {
		start := "."
		if in.Cwd != "" {
			if st, err := os.Stat(in.Cwd); err == nil && st.IsDir() {
				start = in.Cwd
			}
		}
		abs, err := filepath.Abs(start)
		if err != nil {
			return "", err
		}
		g.Project = mcpProject(os.Getenv, abs)
	}
	root, _, err := g.project()
	return root, err
}

// checkFormat returns format, or text (with a note on stderr) when unknown:
// a misspelt flag must not fail the hook.
func (opts *hookOptions) checkFormat() string {
	if slices.Contains(agent.HookShapes, opts.Format) {
		return opts.Format
	}
	fmt.Fprintf(opts.IO.Err, "ragraf: unknown hook format %q, want one of %s; printing text\n", opts.Format, strings.Join(agent.HookShapes, ", "))
	return "text"
}

// survive turns a panic into a note on stderr: a hook exits 0 whatever
// happens.
func (opts *hookOptions) survive(err *error) {
	if r := recover(); r != nil {
		fmt.Fprintf(opts.IO.Err, "ragraf: internal error in the hook: %v\n", r)
		*err = nil
	}
}

func hookSessionStartRun(ctx context.Context, opts *hookOptions) (err error) {
	defer opts.survive(&err)
	format := opts.checkFormat()
	in := agent.ReadHookInput(opts.IO.In)
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	text, env := sessionStartText(ctx, opts, in)
	if opts.JSON && env != nil {
		b, err := facade.EncodeJSON(env)
		if err == nil {
			_, err = opts.IO.Out.Write(b)
		}
		return err
	}
	agent.EmitHook(opts.IO.Out, format, "SessionStart", fitBytes(text, hookStartBudget-120))
	return nil
}

// sessionStartText renders the facade's SessionStart; failures become a
// line of it.
func sessionStartText(ctx context.Context, opts *hookOptions, in agent.HookInput) (string, *facade.Envelope) {
	root, err := hookRoot(opts.Global, in)
	if err != nil {
		return "ragraf: " + err.Error(), nil
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return "ragraf: " + err.Error(), nil
	}
	defer svc.Close()
	r, err := svc.SessionStart(ctx, facade.SessionStartArgs{Now: opts.Now()})
	if err != nil {
		return "ragraf: " + err.Error(), nil
	}
	return renderSessionStart(r), r.Envelope
}

// renderSessionStart is the session-start summary, within hookStartBudget.
func renderSessionStart(r facade.SessionStartResult) string {
	if r.NotIndexed {
		return "ragraf: this project has no index yet; run `ragraf index` to build one."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ragraf: index %s", r.Rev)
	if r.AgeKnown {
		fmt.Fprintf(&b, ", built %s ago (%s)", age(r.Age), r.CreatedAt)
	}
	if r.GitHead != "" {
		fmt.Fprintf(&b, " at git %s", shortSHA(r.GitHead))
	}
	b.WriteString(".\n")
	if m := r.HeadMoved; m != nil {
		on := ""
		if m.Branch != "" {
			on = " on " + m.Branch
		}
		if m.Ancestor {
			fmt.Fprintf(&b, "git HEAD moved since the index: now %s%s, %d commits after the indexed %s (pull or commits).\n", shortSHA(m.Head), on, m.Commits, shortSHA(r.GitHead))
		} else {
			fmt.Fprintf(&b, "git HEAD moved since the index: now %s%s; the indexed %s is not an ancestor (branch switch or rebase).\n", shortSHA(m.Head), on, shortSHA(r.GitHead))
		}
	}
	if r.DriftErr != nil {
		if r.TimedOut {
			return b.String() + "ragraf: the drift check did not finish within a second; run `ragraf drift detect` to see what changed.\n"
		}
		return b.String() + "ragraf: the drift check failed: " + r.DriftErr.Message + "\n"
	}
	entries := r.Entries
	if r.Gone > 0 {
		fmt.Fprintf(&b, "%d earlier drift entries no longer apply (their files match the index again; `ragraf drift --unacked` lists them).\n", r.Gone)
	}
	tools := "Use the ragraf MCP tools before grep and before editing: ragraf_search, ragraf_symbol, ragraf_callers, ragraf_impact, ragraf_code.\n"
	if r.ReadOnly {
		b.WriteString("The drift ledger cannot be written (a read-only file system or a full disk), so changes since indexing are not recorded; answers still carry stale_warnings for files that changed.\n")
		if len(entries) == 0 {
			return b.String() + tools
		}
	}
	if len(entries) == 0 && r.Gone > 0 {
		fmt.Fprintf(&b, "The index %s matches the working tree.\n", r.IndexRev)
		return b.String() + tools
	}
	if len(entries) == 0 {
		fmt.Fprintf(&b, "The index %s matches the working tree (%d ledger entries, all acknowledged).\n", r.IndexRev, r.LedgerEntries)
		return b.String() + tools
	}
	fmt.Fprintf(&b, "The working tree has drifted from index %s: %d unacknowledged drift entries.\n", r.IndexRev, len(entries))
	tail := "Answers citing these paths carry stale_warnings; read them with ragraf_live_read.\n" +
		"Rebuild with `ragraf reindex --commit`, or acknowledge with `ragraf drift ack <id>`.\n" + tools
	room := hookStartBudget - 200 - b.Len() - len(tail)
	for i, e := range entries {
		line := fmt.Sprintf("  %s %s", e.Kind, e.Path)
		if e.OldPath != "" {
			line += " (from " + e.OldPath + ")"
		}
		if len(e.Lines) > 0 {
			var rs []string
			for _, r := range e.Lines {
				rs = append(rs, fmt.Sprintf("%d-%d", r[0], r[1]))
			}
			line += " lines " + strings.Join(rs, ",")
		}
		line += "  [" + e.ID + "]\n"
		if i == hookShown || len(line) > room {
			fmt.Fprintf(&b, "  … and %d more (ragraf drift --unacked)\n", len(entries)-i)
			break
		}
		room -= len(line)
		b.WriteString(line)
	}
	b.WriteString(tail)
	return b.String()
}

func shortSHA(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

// age is d in the largest whole unit.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// fitBytes cuts s to at most n bytes at a line end, marking the cut.
func fitBytes(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n-4], '\n')
	if cut < 0 {
		cut = n - 4
		for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
	}
	return s[:cut] + "\n…"
}

func hookPostEditRun(ctx context.Context, opts *hookOptions) (err error) {
	defer opts.survive(&err)
	format := opts.checkFormat()
	in := agent.ReadHookInput(opts.IO.In)
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	text := postEditText(ctx, opts, in)
	if text == "" {
		return nil // nothing to say: no index, or no file in the input
	}
	agent.EmitHook(opts.IO.Out, format, agent.PostEditEvent(format), fitBytes(text, hookEditBudget))
	return nil
}

// postEditText renders the facade's PostEdit of the files the hook's input
// names.
func postEditText(ctx context.Context, opts *hookOptions, in agent.HookInput) string {
	paths := in.EditedPaths()
	if len(paths) == 0 {
		return ""
	}
	root, err := hookRoot(opts.Global, in)
	if err != nil {
		return ""
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return ""
	}
	defer svc.Close()
	r, err := svc.PostEdit(ctx, facade.PostEditArgs{Paths: paths, Cwd: in.Cwd})
	if err != nil {
		return ""
	}
	return renderPostEdit(r)
}

// renderPostEdit is the post-edit context: per file, whether the change is
// in the ledger, the definitions it touched and their stated callers.
func renderPostEdit(r facade.PostEditResult) string {
	var b strings.Builder
	for _, f := range r.Files {
		b.WriteString(renderEditedFile(f))
	}
	if r.More > 0 {
		fmt.Fprintf(&b, "… and %d more files.\n", r.More)
	}
	return b.String()
}

func renderEditedFile(f facade.PostEditFile) string {
	switch {
	case f.NotIndexable != "":
		return fmt.Sprintf("ragraf: %s is not in the index and a reindex will not add it: %s.\n", f.Path, f.NotIndexable)
	case f.New && f.NotRecorded != "":
		return fmt.Sprintf("ragraf: %s is a new file; it is not recorded in the drift ledger (%s). `ragraf reindex --commit` adds it.\n", f.Path, f.NotRecorded)
	case f.New:
		return fmt.Sprintf("ragraf: %s is not in the index (a new file); `ragraf reindex --commit` adds it.\n", f.Path)
	case f.Kind == "":
		return fmt.Sprintf("ragraf: %s matches the index %s.\n", f.Path, f.IndexRev)
	}
	lines := ""
	if len(f.Lines) > 0 {
		var rs []string
		for _, r := range f.Lines {
			rs = append(rs, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
		lines = " (indexed lines " + strings.Join(rs, ",") + ")"
	}
	var b strings.Builder
	if f.NotRecorded != "" {
		// nothing was recorded: say so, and why, rather than claim it was
		fmt.Fprintf(&b, "ragraf: the %s of %s%s is NOT recorded in the drift ledger: %s.\n", f.Kind, f.Path, lines, f.NotRecorded)
	} else {
		fmt.Fprintf(&b, "ragraf: recorded the %s of %s%s in the drift ledger.\n", f.Kind, f.Path, lines)
	}
	verb := "changed"
	if f.Kind == "delete" {
		verb = "removed"
	}
	for i, t := range f.Touched {
		if i == 4 {
			fmt.Fprintf(&b, "  … and %d more definitions (ragraf_outline).\n", len(f.Touched)-i)
			break
		}
		fmt.Fprintf(&b, "  %s %s %s (%s:%d)", verb, t.Kind, t.QName, t.Path, t.Line)
		if len(t.Callers) > 0 {
			var cs []string
			for _, c := range t.Callers {
				cs = append(cs, fmt.Sprintf("%s (%s:%d)", c.QName, c.SitePath, c.SiteLine))
			}
			more := ""
			if t.MoreCallers {
				more = ", …"
			}
			fmt.Fprintf(&b, "; stated callers that may need the same change: %s%s", strings.Join(cs, ", "), more)
		}
		b.WriteString("\n")
	}
	return b.String()
}
