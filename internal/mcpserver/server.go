// Package mcpserver is the MCP adapter: it registers one tool per facade
// operation (ragraf_<op>) on a server from the official Go SDK and serves it
// over stdio or streamable HTTP. It imports facade and never a store; tool
// descriptions live in one file per tool family (symbols.go, graph.go,
// source.go, index.go, domain.go, change.go).
//
// A tool returns its answer as compact text content (facade.RenderText) and
// no structured content: clients that see structuredContent hand the model
// its JSON instead of the text (docs/architecture.md, "What the model
// receives"). With "format":"json" (or a server started with --format json)
// the answer is the facade's envelope, as text and as structured content,
// the JSON `ragraf query` prints. Failures are tool errors whose text is
// {"error":{"code","message"}}.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

// Prefix starts every tool name.
const Prefix = "ragraf_"

// tool is the model-facing part of one operation's tool.
type tool struct {
	op          string
	title       string
	description string // for a model, with one worked example
}

// Options configures a server.
type Options struct {
	Version string
	Logger  *slog.Logger
	// Format is the answers' encoding when a call names none: text (the
	// default) or json.
	Format string
}

// New returns a server with a tool for every facade operation that has a
// description.
func New(svc *facade.Service, opts Options) (*mcp.Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	switch opts.Format {
	case "":
		opts.Format = facade.FormatText
	case facade.FormatText, facade.FormatJSON:
	default:
		return nil, fmt.Errorf("answer format must be text or json, got %q", opts.Format)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "ragraf", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       opts.Logger,
	})
	descs := map[string]tool{}
	for _, fam := range [][]tool{indexTools, symbolTools, graphTools, dataflowTools, sourceTools, domainTools, changeTools} {
		for _, t := range fam {
			descs[t.op] = t
		}
	}
	for _, o := range facade.Ops() {
		t, ok := descs[o.Name]
		if !ok {
			continue
		}
		if err := addTool(srv, svc, o, t, readOnly(), opts); err != nil {
			return nil, err
		}
	}
	if err := AddDriftTools(srv, svc, opts); err != nil {
		return nil, err
	}
	return srv, nil
}

// readOnly is the annotation of every tool that only reads the index. Its
// hints are set: the protocol's defaults assume a writing, open-world tool
// (destructiveHint means nothing beside readOnlyHint true, so it is left out).
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
}

// addTool registers operation o as the tool ragraf_<op>, with the input
// schema derived from its Go types and t's title and description.
//
// No tool declares an output schema: the envelope's schema repeated for every
// tool made up four fifths of tools/list, the default answer is text, and
// concise and detailed answers differ in shape.
func addTool(srv *mcp.Server, svc *facade.Service, o facade.Op, t tool, ann *mcp.ToolAnnotations, opts Options) error {
	if t.title == "" {
		return fmt.Errorf("tool %s has no title", o.Name)
	}
	in, err := jsonschema.ForType(o.Args, schemaOptions())
	if err != nil {
		return fmt.Errorf("input schema of %s: %w", o.Name, err)
	}
	portable(in)
	// format (text or json) is accepted by every tool and offered by none:
	// the instructions name it once, for the rare call that wants the
	// envelope, instead of every tool's schema in every session. The
	// instructions say what the details hold; the enum is enough here.
	// Where both details hold the same result the argument is still
	// accepted but not offered.
	delete(in.Properties, "format")
	if d := in.Properties["detail"]; d != nil {
		d.Enum, d.Description = []any{facade.FormatConcise, facade.FormatDetailed}, ""
		if !o.Concise {
			delete(in.Properties, "detail")
		}
	}
	srv.AddTool(&mcp.Tool{
		Name: Prefix + o.Name, Title: t.title, Description: t.description,
		InputSchema: in, Annotations: ann,
	}, handler(svc, o.Name, o.Formats, opts))
	return nil
}

// outputDefaults adds "detail":"concise" to arguments that name no detail
// (concise is the MCP default, detailed the facade's and the CLI's) and
// returns the encoding asked for, def when none. "format":"concise" or
// "detailed", the former spelling of detail, is left for the facade to read.
// Arguments that are not a JSON object are left for the facade to refuse.
func outputDefaults(args json.RawMessage, def string) (json.RawMessage, string) {
	var m map[string]json.RawMessage
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		m = map[string]json.RawMessage{}
	} else if json.Unmarshal(args, &m) != nil || m == nil {
		return args, def
	}
	format := def
	if raw, ok := m["format"]; ok {
		var f string
		_ = json.Unmarshal(raw, &f)
		switch f {
		case facade.FormatText, facade.FormatJSON:
			format = f
		case facade.FormatConcise, facade.FormatDetailed:
			return args, def
		}
	}
	if _, ok := m["detail"]; ok {
		return args, format
	}
	m["detail"] = json.RawMessage(`"` + facade.FormatConcise + `"`)
	b, err := json.Marshal(m)
	if err != nil {
		return args, format
	}
	return b, format
}

// portable rewrites what schemas derived from Go types say in a way not every
// client reads: a Go slice is ["null","array"], which single-type dialects
// (Gemini's function declarations, OpenAPI 3.0) reject. An argument is either
// an array or absent, so the type becomes "array".
func portable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		portable(p)
	}
	portable(s.Items)
	portable(s.AdditionalProperties)
}

// schemaOptions describes the recursive outline item by hand: schemas
// derived from Go types cannot refer to themselves.
func schemaOptions() *jsonschema.ForOptions {
	return &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[facade.OutlineItem](): {
			Type:        "object",
			Description: "a definition: id, kind, name, qname, signature, path, line, end_line, and children (its members, the same shape)",
		},
	}}
}

// handler runs one operation. A panic becomes an error for this call only; a
// call cancelled before it finished is answered E_CANCELLED, never
// E_INTERNAL (the protocol has the client ignore the answer, but a client
// that logs it must not see a server fault).
func handler(svc *facade.Service, op string, formats bool, opts Options) mcp.ToolHandler {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("panic in tool call", "op", op, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				res, err = errorResult(&facade.Error{Code: facade.ErrInternal, Message: fmt.Sprintf("internal error in %s: %v", op, r)}), nil
			}
		}()
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		format := opts.Format
		if formats {
			args, format = outputDefaults(args, format)
		}
		env, cerr := svc.Call(ctx, op, args)
		if cerr != nil {
			if ctx.Err() != nil {
				// cancelled by the client (notifications/cancelled) or the
				// connection: whatever the store said on the way out, the
				// call did not fail
				return errorResult(facade.Cancelled(ctx.Err())), nil
			}
			return errorResult(facade.AsError(cerr)), nil
		}
		if format != facade.FormatJSON {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: facade.RenderText(env)}}}, nil
		}
		b, merr := facade.EncodeCompactJSON(env)
		if merr != nil {
			return errorResult(facade.AsError(merr)), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
			StructuredContent: json.RawMessage(b),
		}, nil
	}
}

func errorResult(fe *facade.Error) *mcp.CallToolResult {
	b, _ := facade.EncodeCompactJSON(facade.ErrorBody{Error: fe})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// ServeStdio serves srv on in and out (stdin and stdout) until ctx is done or
// the client closes in; requests read before in closed are answered first.
// Malformed lines are answered and skipped (stdio.go).
func ServeStdio(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	err := srv.Run(ctx, &lineTransport{r: in, w: out, log: log})
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// DefaultSessionIdle is how long an HTTP session may go without a request
// before it is closed and its memory freed.
const DefaultSessionIdle = 30 * time.Minute

// ServeHTTP serves srv over streamable HTTP on ln until ctx is done. A
// session that receives no request for idle (DefaultSessionIdle when 0) is
// closed; its client gets 404 and starts a new one. A request from a web page
// of another origin is refused (loopbackOrigin), and the SDK refuses a Host
// that is not loopback on a loopback address: together they keep a page in
// the user's browser, or a name rebound to 127.0.0.1, from calling the tools.
func ServeHTTP(ctx context.Context, srv *mcp.Server, ln net.Listener, idle time.Duration) error {
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{SessionTimeout: idle})
	hs := &http.Server{Handler: loopbackOrigin(h), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = hs.Shutdown(sctx)
		case <-done:
		}
	}()
	err := hs.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// loopbackOrigin refuses, with 403, a request whose Origin header names
// anything but a loopback origin (http or https on localhost, 127.0.0.0/8 or
// [::1]), as the MCP transport asks of a local server against DNS
// rebinding: a browser sends Origin with every cross-origin request, and a
// page served elsewhere must not reach the tools. A request without Origin
// (an MCP client that is not a browser) passes.
func loopbackOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if vs, ok := r.Header["Origin"]; ok {
			for _, o := range vs {
				if !isLoopbackOrigin(o) {
					http.Error(w, fmt.Sprintf("Forbidden: origin %q is not a loopback origin", o), http.StatusForbidden)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopbackOrigin reports whether origin (scheme://host[:port], as a
// browser sends it) is http or https on a loopback host. "null" (a sandboxed
// or file: page) is not.
func isLoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// Help documents operation o for `ragraf query OP --help`: its tool's
// description and each argument with its type and meaning, from the same
// schema the tool offers.
func Help(o facade.Op) (string, error) {
	in, err := jsonschema.ForType(o.Args, schemaOptions())
	if err != nil {
		return "", err
	}
	portable(in)
	var b strings.Builder
	for _, fam := range [][]tool{indexTools, symbolTools, graphTools, dataflowTools, sourceTools, domainTools, changeTools, driftTools} {
		for _, t := range fam {
			if t.op == o.Name {
				fmt.Fprintf(&b, "%s (MCP tool %s%s): %s\n", t.title, Prefix, o.Name, t.description)
			}
		}
	}
	b.WriteString("\nArguments (--args JSON, or the flags of the same name):\n")
	names := make([]string, 0, len(in.Properties))
	for n := range in.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := in.Properties[n]
		typ := p.Type
		if typ == "" && len(p.Types) > 0 {
			typ = strings.Join(p.Types, "|")
		}
		if typ == "array" && p.Items != nil && p.Items.Type != "" {
			typ = p.Items.Type + "[]"
		}
		req := ""
		if slices.Contains(in.Required, n) {
			req = ", required"
		}
		fmt.Fprintf(&b, "  %-16s %s%s  %s\n", n, typ, req, p.Description)
	}
	return b.String(), nil
}
