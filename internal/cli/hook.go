// This file defines `ragraf hook session-start` and `ragraf hook post-edit`,
// the commands agents' hooks run (internal/agent installs them).
//
// session-start compares the working tree with the current revision through
// the facade (method hook:session-start), records what changed, and prints
// a summary within 2 KB: the revision and its age, a git HEAD that moved
// since the index was built, the unacknowledged drift, and which tools to
// use. post-edit reads the edited file from the hook's input, lets the
// facade check that one file (so the edit is in the ledger, deduplicated like
// every detection), and answers within 1 KB with the definitions the edit
// touched and their stated callers.
//
// Both read the hook's stdin JSON and print the shape the agent accepts
// (--agent) through internal/agent/hookio.go, and always exit 0:
// a hook must never block a session. Both give up after about a second.

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/agent"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
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

// hookRoot is the project: --project, else the nearest directory at or
// above the hook's cwd (or the working directory) holding .ragraf/.
func hookRoot(g *globalOptions, in agent.HookInput) (string, error) {
	if g.Project != "" {
		root, _, err := g.project()
		return root, err
	}
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
	for d := abs; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, rev.Dir)); err == nil && st.IsDir() {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
	}
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

// sessionStartText builds the summary; failures become a line of it.
func sessionStartText(ctx context.Context, opts *hookOptions, in agent.HookInput) (string, *facade.Envelope) {
	root, err := hookRoot(opts.Global, in)
	if err != nil {
		return "ragraf: " + err.Error(), nil
	}
	layout := rev.Layout{Root: root}
	name, err := layout.CurrentRev()
	if errors.Is(err, rev.ErrNotIndexed) {
		return "ragraf: this project has no index yet; run `ragraf index` to build one.", nil
	}
	if err != nil {
		return "ragraf: " + err.Error(), nil
	}
	var info rev.Info
	if b, err := os.ReadFile(filepath.Join(layout.Rev(name), rev.RevJSON)); err == nil {
		_ = json.Unmarshal(b, &info)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ragraf: index %s", name)
	if t, err := time.Parse(time.RFC3339, info.CreatedAt); err == nil {
		fmt.Fprintf(&b, ", built %s ago (%s)", age(opts.Now().Sub(t)), info.CreatedAt)
	}
	if info.GitHead != "" {
		fmt.Fprintf(&b, " at git %s", shortSHA(info.GitHead))
	}
	b.WriteString(".\n")
	if line := headMoved(ctx, root, info.GitHead); line != "" {
		b.WriteString(line + "\n")
	}

	svc, err := opts.Global.service(root)
	if err != nil {
		return b.String() + "ragraf: " + err.Error(), nil
	}
	defer svc.Close()
	readOnly := false           // the ledger cannot be written: what changed is not recorded
	var changed map[string]bool // the paths that differ from the index now
	if denv, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "hook:session-start"}); err != nil {
		var fe *facade.Error
		if !errors.As(err, &fe) || fe.Code != facade.ErrReadOnly {
			return b.String() + driftFailed(ctx, err), nil
		}
		readOnly = true
	} else if res, ok := denv.Result.(facade.DriftDetectResult); ok {
		changed = map[string]bool{}
		for _, p := range res.Changed {
			changed[p] = true
		}
	}
	env, err := svc.Drift(ctx, facade.DriftArgs{Unacked: true, Limit: 1000})
	if err != nil {
		return b.String() + driftFailed(ctx, err), nil
	}
	entries := env.Result.(facade.DriftResult).Entries
	gone := 0 // unacknowledged entries whose files match the index again
	if changed != nil {
		kept := entries[:0:0]
		for _, e := range entries {
			if facade.Applies(e, changed) {
				kept = append(kept, e)
			}
		}
		gone = len(entries) - len(kept)
		entries = kept
	}
	if gone > 0 {
		fmt.Fprintf(&b, "%d earlier drift entries no longer apply (their files match the index again; `ragraf drift --unacked` lists them).\n", gone)
	}
	tools := "Use the ragraf MCP tools before grep and before editing: ragraf_search, ragraf_symbol, ragraf_callers, ragraf_impact, ragraf_code.\n"
	if readOnly {
		b.WriteString("The drift ledger cannot be written (a read-only file system or a full disk), so changes since indexing are not recorded; answers still carry stale_warnings for files that changed.\n")
		if len(entries) == 0 {
			b.WriteString(tools)
			return b.String(), env
		}
	}
	if len(entries) == 0 && gone > 0 {
		fmt.Fprintf(&b, "The index %s matches the working tree.\n", env.IndexRev)
		b.WriteString(tools)
		return b.String(), env
	}
	if len(entries) == 0 {
		fmt.Fprintf(&b, "The index %s matches the working tree (%d ledger entries, all acknowledged).\n", env.IndexRev, env.Drift.Entries)
		b.WriteString(tools)
		return b.String(), env
	}
	fmt.Fprintf(&b, "The working tree has drifted from index %s: %d unacknowledged drift entries.\n", env.IndexRev, len(entries))
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
	return b.String(), env
}

func driftFailed(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "ragraf: the drift check did not finish within a second; run `ragraf drift detect` to see what changed.\n"
	}
	return "ragraf: the drift check failed: " + facade.AsError(err).Message + "\n"
}

// headMoved says how git HEAD differs from the commit the index was built
// at: a pull or commits (HEAD descends from it), or a branch switch or
// rebase (it does not); "" when it did not move or git cannot tell.
func headMoved(ctx context.Context, root, indexed string) string {
	if indexed == "" {
		return ""
	}
	head, err := gitOut(ctx, root, "rev-parse", "HEAD")
	if err != nil || head == indexed {
		return ""
	}
	branch, _ := gitOut(ctx, root, "rev-parse", "--abbrev-ref", "HEAD")
	on := ""
	if branch != "" && branch != "HEAD" {
		on = " on " + branch
	}
	if _, err := gitOut(ctx, root, "merge-base", "--is-ancestor", indexed, head); err == nil {
		n, _ := gitOut(ctx, root, "rev-list", "--count", indexed+".."+head)
		return fmt.Sprintf("git HEAD moved since the index: now %s%s, %s commits after the indexed %s (pull or commits).", shortSHA(head), on, n, shortSHA(indexed))
	}
	return fmt.Sprintf("git HEAD moved since the index: now %s%s; the indexed %s is not an ancestor (branch switch or rebase).", shortSHA(head), on, shortSHA(indexed))
}

func gitOut(ctx context.Context, root string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
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

// postEditText checks each edited file through the facade's outline (which
// records the file's drift before it answers) and lists the definitions
// whose lines changed, with their stated callers.
func postEditText(ctx context.Context, opts *hookOptions, in agent.HookInput) string {
	paths := in.EditedPaths()
	if len(paths) == 0 {
		return ""
	}
	root, err := hookRoot(opts.Global, in)
	if err != nil {
		return ""
	}
	if _, err := (rev.Layout{Root: root}).CurrentRev(); err != nil {
		return ""
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return ""
	}
	defer svc.Close()
	var b strings.Builder
	for i, p := range paths {
		if i == 5 {
			fmt.Fprintf(&b, "… and %d more files.\n", len(paths)-i)
			break
		}
		abs := p
		if !filepath.IsAbs(abs) {
			base := in.Cwd
			if base == "" {
				base = root
			}
			abs = filepath.Join(base, p)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // outside the project
		}
		rel = filepath.ToSlash(rel)
		b.WriteString(editSummary(ctx, svc, rel))
		if ctx.Err() != nil {
			break
		}
	}
	return b.String()
}

// editSummary is one edited file's lines of the post-edit context.
func editSummary(ctx context.Context, svc *facade.Service, rel string) string {
	// the edit goes into the ledger as the hook's, deduplicated with what any
	// other detector saw of the same change
	_, derr := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "hook:post-edit", Paths: []string{rel}})
	env, err := svc.Outline(ctx, facade.OutlineArgs{Path: rel})
	var res facade.OutlineResult
	if err == nil {
		res, _ = env.Result.(facade.OutlineResult)
	}
	if err != nil || env.NotFound {
		if err != nil {
			if fe := facade.AsError(err); fe.Code != facade.ErrUnknownID && fe.Code != facade.ErrBadInput {
				return ""
			}
		}
		if why := svc.NotIndexed(ctx, rel); why != "" {
			return fmt.Sprintf("ragraf: %s is not in the index and a reindex will not add it: %s.\n", rel, why)
		}
		// not in the revision: a new file; compare records it (an add) with whatever else drifted
		if _, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"}); err != nil {
			return fmt.Sprintf("ragraf: %s is a new file; it is not recorded in the drift ledger (%s). `ragraf reindex --commit` adds it.\n", rel, notRecorded(err))
		}
		return fmt.Sprintf("ragraf: %s is not in the index (a new file); `ragraf reindex --commit` adds it.\n", rel)
	}
	var b strings.Builder
	kind, lines := "", ""
	for _, w := range env.StaleWarnings {
		if w.Path == rel {
			kind = w.Kind
			var rs []string
			for i := 0; i+1 < len(w.Lines); i += 2 {
				rs = append(rs, fmt.Sprintf("%d-%d", w.Lines[i], w.Lines[i+1]))
			}
			lines = strings.Join(rs, ",")
		}
	}
	if kind == "" {
		return fmt.Sprintf("ragraf: %s matches the index %s.\n", rel, env.IndexRev)
	}
	if derr != nil {
		// nothing was recorded: say so, and why, rather than claim it was
		fmt.Fprintf(&b, "ragraf: the %s of %s", kind, rel)
		if lines != "" {
			fmt.Fprintf(&b, " (indexed lines %s)", lines)
		}
		fmt.Fprintf(&b, " is NOT recorded in the drift ledger: %s.\n", notRecorded(derr))
	} else {
		fmt.Fprintf(&b, "ragraf: recorded the %s of %s", kind, rel)
		if lines != "" {
			fmt.Fprintf(&b, " (indexed lines %s)", lines)
		}
		b.WriteString(" in the drift ledger.\n")
	}
	touched := touchedItems(res.Symbols)
	if len(touched) == 0 {
		return b.String()
	}
	for i, t := range touched {
		if i == 4 {
			fmt.Fprintf(&b, "  … and %d more definitions (ragraf_outline).\n", len(touched)-i)
			break
		}
		verb := "changed"
		if kind == "delete" {
			verb = "removed"
		}
		fmt.Fprintf(&b, "  %s %s %s (%s:%d)", verb, t.Kind, t.QName, t.Path, t.Line)
		if t.Kind == "function" || t.Kind == "method" {
			if cenv, err := svc.Callers(ctx, facade.CallersArgs{Target: facade.Target{ID: t.ID}, Page: facade.Page{Limit: 5}}); err == nil {
				if cr, ok := cenv.Result.(facade.CallsResult); ok && len(cr.Stated) > 0 {
					var cs []string
					for _, c := range cr.Stated {
						cs = append(cs, fmt.Sprintf("%s (%s:%d)", c.QName, c.SitePath, c.SiteLine))
					}
					more := ""
					if cenv.Limits.Total > len(cr.Stated)+len(cr.Derived) || cenv.Limits.Truncated {
						more = ", …"
					}
					fmt.Fprintf(&b, "; stated callers that may need the same change: %s%s", strings.Join(cs, ", "), more)
				}
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// notRecorded says why a ledger write failed, for a hook's context.
func notRecorded(err error) string {
	fe := facade.AsError(err)
	if fe.Code == facade.ErrReadOnly {
		return "the ledger cannot be written (a read-only file system or a full disk)"
	}
	return fe.Code + " " + fe.Message
}

// touchedItems are the innermost definitions with a stale mark.
func touchedItems(items []facade.OutlineItem) []facade.OutlineItem {
	var out []facade.OutlineItem
	for _, it := range items {
		inner := touchedItems(it.Children)
		switch {
		case len(inner) > 0:
			out = append(out, inner...)
		case it.Stale != nil:
			out = append(out, it)
		}
	}
	return out
}
