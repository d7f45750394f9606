// This file defines `ragraf status`: the coverage report of the current revision.

package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/bilingual"
	"github.com/ragraf/ragraf/internal/facade"
)

type statusOptions struct {
	IO       IO
	Global   *globalOptions
	JSON     bool
	Examples int
}

func newStatusCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &statusOptions{IO: io, Global: g}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show coverage of the current revision: files by status and language, nodes, edges, conflicts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return statusRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the answer envelope as JSON")
	cmd.Flags().IntVar(&opts.Examples, "examples", 20, "examples listed per category")
	return cmd
}

func statusRun(cmd *cobra.Command, opts *statusOptions) error {
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	env, err := svc.Status(cmd.Context(), facade.StatusArgs{Examples: opts.Examples})
	if err != nil {
		return printError(opts.IO, err)
	}
	if opts.JSON {
		return writeJSON(opts.IO.Out, env)
	}
	renderStatus(opts.IO, env.Result.(facade.StatusResult))
	return nil
}

func renderStatus(io IO, r facade.StatusResult) {
	w := io.Out
	fmt.Fprintf(w, "revision %s  built %s  corpus %s\n", r.Rev, r.CreatedAt, short(r.CorpusHash))
	fmt.Fprintf(w, "\nfiles: %d", r.Files.Total)
	for _, s := range []string{"parsed", "partial", "failed", "skipped"} {
		fmt.Fprintf(w, "  %s %d", s, r.Files.ByStatus[s])
	}
	fmt.Fprintln(w)
	langs := slices.Sorted(maps.Keys(r.Files.ByLanguage))
	for _, l := range langs {
		m := r.Files.ByLanguage[l]
		fmt.Fprintf(w, "  %-10s parsed %-6d partial %-5d failed %-5d skipped %d\n", l, m["parsed"], m["partial"], m["failed"], m["skipped"])
	}
	if len(r.Files.Reasons) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(r.Files.Reasons)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, r.Files.Reasons[k]))
		}
		fmt.Fprintf(w, "  skipped because: %s\n", strings.Join(parts, ", "))
	}
	for _, f := range r.Files.Partial {
		fmt.Fprintf(w, "  partial %s: %s\n", f.Path, f.Reason)
	}
	for _, f := range r.Files.Failed {
		fmt.Fprintf(w, "  failed  %s: %s\n", f.Path, f.Reason)
	}
	fmt.Fprintf(w, "\nnodes:")
	for _, k := range slices.Sorted(maps.Keys(r.Nodes)) {
		fmt.Fprintf(w, "  %s %d", k, r.Nodes[k])
	}
	fmt.Fprintf(w, "\nedges:")
	for _, k := range slices.Sorted(maps.Keys(r.Edges)) {
		for _, p := range slices.Sorted(maps.Keys(r.Edges[k])) {
			fmt.Fprintf(w, "  %s/%s %d", k, p, r.Edges[k][p])
		}
	}
	fmt.Fprintln(w)
	if len(r.Unresolved) > 0 {
		fmt.Fprintf(w, "unresolved references:")
		for _, k := range slices.Sorted(maps.Keys(r.Unresolved)) {
			fmt.Fprintf(w, "  %s %d", k, r.Unresolved[k])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "text chunks:")
	for _, k := range slices.Sorted(maps.Keys(r.Chunks)) {
		fmt.Fprintf(w, "  %s %d", k, r.Chunks[k])
	}
	fmt.Fprintf(w, "\n\nconflicts (one name declared more than once): %d\n", r.Conflicts.Total)
	for _, c := range r.Conflicts.Items {
		fmt.Fprintf(w, "  %s %s: %s\n", c.Kind, c.QName, strings.Join(c.Sites, ", "))
	}
	fmt.Fprintf(w, "duplicate files (identical content): %d groups\n", r.Duplicates.Total)
	for _, g := range r.Duplicates.Groups {
		fmt.Fprintf(w, "  %s\n", strings.Join(g, " = "))
	}
	fmt.Fprintf(w, "questions in Russian: %s\n", russianLine(r.Russian))
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// russianLine says what translates questions in Russian.
func russianLine(d bilingual.Dictionary) string {
	g := fmt.Sprintf("glossary of %d words", d.Glossary)
	if d.Missing != "" {
		return g + "; no dictionary: " + d.Missing
	}
	return fmt.Sprintf("%s and %s (%d words, %s)", g, d.Name, d.Entries, d.Path)
}
