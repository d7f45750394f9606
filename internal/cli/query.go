// This file defines `ragraf query <op>`: one facade operation with JSON
// arguments (--args) or flags, printing the same JSON as the MCP tool's
// result with "format":"json" (FT-22), or with --format text the compact
// lines the MCP tool returns by default (facade.RenderText). --detail
// concise or detailed picks the answer's shape; JSON is detailed unless asked,
// text concise, as in MCP.

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/mcpserver"
)

type queryOptions struct {
	IO     IO
	Global *globalOptions
	Args   string
	Format string // json or text (concise and detailed: the former spelling of Detail)
	Detail string
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
			"the answer the MCP tool ragraf_<op> returns with format json (detailed here unless --detail concise), or with\n" +
			"--format text the compact lines MCP answers by default. ragraf query OP --help lists OP's arguments.\n\n" +
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
	help := cmd.HelpFunc()
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		// `ragraf query OP --help` documents OP's arguments
		for _, a := range args {
			for _, o := range append(facade.Ops(), facade.DriftOps()...) {
				if o.Name != a {
					continue
				}
				text, err := mcpserver.Help(o)
				if err != nil {
					break
				}
				fmt.Fprintf(c.OutOrStdout(), "Usage: ragraf query %s [--args JSON] [flags]\n\n%s\nSee ragraf query --help for the flags.\n", o.Name, text)
				return
			}
		}
		help(c, args)
	})
	f := cmd.Flags()
	f.StringVar(&opts.Args, "args", "", "arguments as one JSON object")
	f.StringVar(&opts.Format, "format", "json", "encoding: json (the answer envelope) or text (compact lines, as MCP answers by default)")
	f.StringVar(&opts.Detail, "detail", "", "answer shape: concise (path:line, name, kind per item; the default with --format text) or detailed (the default with --format json)")
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
	if opts.Detail != "" {
		m["detail"] = opts.Detail
	} else if _, ok := m["detail"]; !ok && opts.Format == "text" {
		if f, _ := m["format"].(string); f != facade.FormatConcise && f != facade.FormatDetailed {
			m["detail"] = facade.FormatConcise
		}
	}
	return json.Marshal(m)
}

func queryRun(cmd *cobra.Command, opts *queryOptions, op string) error {
	switch opts.Format {
	case facade.FormatJSON, facade.FormatText:
	case facade.FormatConcise, facade.FormatDetailed:
		fmt.Fprintf(opts.IO.Err, "ragraf: --format %s is deprecated, use --detail %s\n", opts.Format, opts.Format)
		if opts.Detail == "" {
			opts.Detail = opts.Format
		}
		opts.Format = facade.FormatJSON
	default:
		return &usageError{fmt.Errorf("--format must be json or text, got %q", opts.Format)}
	}
	switch opts.Detail {
	case "", facade.FormatConcise, facade.FormatDetailed:
	default:
		return &usageError{fmt.Errorf("--detail must be concise or detailed, got %q", opts.Detail)}
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
	if opts.Format == facade.FormatText {
		_, err := io.WriteString(opts.IO.Out, facade.RenderText(env))
		return err
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
