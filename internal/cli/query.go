// This file defines `ragraf query <op>`: one facade operation with JSON
// arguments (--args) or flags, printing the same JSON as the MCP tool's
// result (FT-22), or a readable table with --format text. The answer is
// detailed unless --format concise (or "format":"concise" in --args) asks for
// the concise shape, the MCP default.

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/facade"
)

type queryOptions struct {
	IO     IO
	Global *globalOptions
	Args   string
	Format string
	// flag forms of common arguments; only the ones given are sent
	Name, QName, ID, Path, Kind, Query, Mode, Cursor, Base, Head string
	Depth, Limit, Budget, Line                                   int
	Focus                                                        []string
	Data                                                         bool
	Control                                                      bool
}

func newQueryCmd(io IO, g *globalOptions) *cobra.Command {
	opts := &queryOptions{IO: io, Global: g}
	var names []string
	for _, o := range append(facade.Ops(), facade.DriftOps()...) {
		names = append(names, o.Name)
	}
	cmd := &cobra.Command{
		Use:   "query <op>",
		Short: "Run one operation and print its answer envelope",
		Long: "Run one operation (" + strings.Join(names, ", ") + ") and print the answer envelope as JSON,\n" +
			"the answer the MCP tool ragraf_<op> returns for the same format (detailed here, concise by default in MCP).\n\n" +
			"  ragraf query symbol --name Cart\n" +
			"  ragraf query references --args '{\"qname\":\"App\\\\Cart::addItem\",\"limit\":10}'\n" +
			"  ragraf query context --path src/Cart.php --line 14 --budget-tokens 2000\n" +
			"  ragraf query changes --base HEAD~1",
		Args:      cobra.ExactArgs(1),
		ValidArgs: names,
		RunE: func(cmd *cobra.Command, args []string) error {
			return queryRun(cmd, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Args, "args", "", "arguments as one JSON object")
	f.StringVar(&opts.Format, "format", "json", "output: json (detailed answer), concise (JSON, ids, path:line, kind and one name per item) or text")
	f.StringVar(&opts.Name, "name", "", "name argument")
	f.StringVar(&opts.QName, "qname", "", "qname argument")
	f.StringVar(&opts.ID, "id", "", "id argument")
	f.StringVar(&opts.Path, "path", "", "path argument")
	f.StringVar(&opts.Kind, "kind", "", "kind argument")
	f.StringVar(&opts.Query, "query", "", "query argument (search)")
	f.StringVar(&opts.Mode, "mode", "", "mode argument (search, impact)")
	f.StringVar(&opts.Cursor, "cursor", "", "cursor from the previous page")
	f.IntVar(&opts.Depth, "depth", 0, "depth argument (callers, impact)")
	f.IntVar(&opts.Limit, "limit", 0, "page size")
	f.IntVar(&opts.Budget, "budget-tokens", 0, "budget_tokens argument (repo_map, context)")
	f.IntVar(&opts.Line, "line", 0, "line argument with --path (context, impact, slice)")
	f.StringVar(&opts.Base, "base", "", "base commit (changes)")
	f.StringVar(&opts.Head, "head", "", "head commit (changes)")
	f.StringSliceVar(&opts.Focus, "focus", nil, "focus argument (repo_map), repeatable")
	f.BoolVar(&opts.Data, "data", false, "data argument (impact): add the data block")
	f.BoolVar(&opts.Control, "control", false, "control argument (slice): add the conditions statements run under")
	return cmd
}

// queryArgs merges --args with the flags that were given.
func queryArgs(cmd *cobra.Command, opts *queryOptions) ([]byte, error) {
	m := map[string]any{}
	if opts.Args != "" {
		dec := json.NewDecoder(strings.NewReader(opts.Args))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return nil, &facade.Error{Code: facade.ErrBadInput, Message: fmt.Sprintf("--args is not a JSON object: %v", err)}
		}
	}
	set := func(flag, key string, v any) {
		if cmd.Flags().Changed(flag) {
			m[key] = v
		}
	}
	set("name", "name", opts.Name)
	set("qname", "qname", opts.QName)
	set("id", "id", opts.ID)
	set("path", "path", opts.Path)
	set("kind", "kind", opts.Kind)
	set("query", "query", opts.Query)
	set("mode", "mode", opts.Mode)
	set("cursor", "cursor", opts.Cursor)
	set("depth", "depth", opts.Depth)
	set("limit", "limit", opts.Limit)
	set("budget-tokens", "budget_tokens", opts.Budget)
	set("focus", "focus", opts.Focus)
	set("line", "line", opts.Line)
	set("base", "base", opts.Base)
	set("head", "head", opts.Head)
	set("data", "data", opts.Data)
	set("control", "control", opts.Control)
	if opts.Format == facade.FormatConcise || opts.Format == facade.FormatDetailed {
		m["format"] = opts.Format
	}
	return json.Marshal(m)
}

func queryRun(cmd *cobra.Command, opts *queryOptions, op string) error {
	switch opts.Format {
	case "json", "text", facade.FormatConcise, facade.FormatDetailed:
	default:
		return &usageError{fmt.Errorf("--format must be json, concise, detailed or text, got %q", opts.Format)}
	}
	root, _, err := opts.Global.project()
	if err != nil {
		return err
	}
	raw, err := queryArgs(cmd, opts)
	if err != nil {
		return printQueryError(opts.IO, err)
	}
	svc, err := opts.Global.service(root)
	if err != nil {
		return err
	}
	defer svc.Close()
	env, err := svc.Call(cmd.Context(), op, raw)
	if err != nil {
		return printQueryError(opts.IO, err)
	}
	if opts.Format == "text" {
		return renderText(opts.IO.Out, env)
	}
	b, err := facade.EncodeJSON(env)
	if err != nil {
		return err
	}
	_, err = opts.IO.Out.Write(b)
	return err
}

func printQueryError(io IO, err error) error {
	fe := facade.AsError(err)
	b, _ := facade.EncodeJSON(facade.ErrorBody{Error: fe})
	_, _ = io.Out.Write(b)
	return fe
}

// renderText prints an envelope as a header and one table per list of facts
// in the result: place, kind and name of each row.
func renderText(w io.Writer, env *facade.Envelope) error {
	b, err := json.Marshal(env.Result)
	if err != nil {
		return err
	}
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s  %s  provenance %s  returned %d of %d", env.Op, env.IndexRev, env.Provenance, env.Limits.Returned, env.Limits.Total)
	if env.Limits.Truncated {
		fmt.Fprintf(w, "  next --cursor %s", env.Limits.Cursor)
	}
	fmt.Fprintln(w)
	if env.NotFound {
		fmt.Fprintln(w, "not found")
		for _, s := range env.Suggest {
			a, _ := json.Marshal(s.Args)
			fmt.Fprintf(w, "  try %s %s: %s\n", s.Op, a, s.Why)
		}
	}
	for _, sw := range env.StaleWarnings {
		fmt.Fprintf(w, "stale: %s (%s)\n", sw.Path, sw.Kind)
	}
	if t, ok := res["text"].(string); ok && t != "" {
		fmt.Fprint(w, t)
		if !strings.HasSuffix(t, "\n") {
			fmt.Fprintln(w)
		}
	}
	renderLists(w, "", res)
	return nil
}

func renderLists(w io.Writer, prefix string, v map[string]any) {
	for _, k := range sortedMapKeys(v) {
		switch x := v[k].(type) {
		case []any:
			if len(x) == 0 {
				continue
			}
			if _, ok := x[0].(map[string]any); !ok {
				continue
			}
			fmt.Fprintf(w, "\n%s%s:\n", prefix, k)
			for _, it := range x {
				m := it.(map[string]any)
				fmt.Fprintf(w, "  %s\n", row(m))
				if kids, ok := m["children"].([]any); ok {
					for _, c := range kids {
						if cm, ok := c.(map[string]any); ok {
							fmt.Fprintf(w, "    %s\n", row(cm))
						}
					}
				}
			}
		case map[string]any:
			if k == "score" || k == "from" || k == "target" {
				continue
			}
			renderLists(w, prefix+k+".", x)
		}
	}
}

func row(m map[string]any) string {
	place := str(m["path"])
	if l, ok := m["line"].(float64); ok {
		place += fmt.Sprintf(":%d", int(l))
	}
	cols := []string{fmt.Sprintf("%-40s", place)}
	for _, k := range []string{"kind", "relation", "provenance", "qname", "signature"} {
		if s := str(m[k]); s != "" {
			cols = append(cols, s)
		}
	}
	if f, ok := m["from"].(map[string]any); ok {
		cols = append(cols, "in "+str(f["qname"]))
	}
	if st, ok := m["stale"].(map[string]any); ok {
		mark := "STALE (" + str(st["kind"])
		if via := str(st["via"]); via != "" {
			mark += " at " + via
		}
		cols = append(cols, mark+")")
	}
	return strings.Join(cols, "  ")
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
