// Package ui is the local web view of an index (`ragraf ui`): server-rendered
// pages over the facade, the same operations, envelope and stale marks MCP
// serves, for a person to look at what the agent is told.
//
// # Security
//
// The server is meant for one person on one machine. Every request must
// carry the per-run token (token= in the query, which sets a cookie, or the
// cookie); the Host header must name the listening address (no DNS
// rebinding) and an Origin header, when sent, must be the server's own, so
// other sites' pages cannot read it. It sends no CORS headers, a strict
// Content-Security-Policy, and answers GET and HEAD only. Every page is
// rendered with html/template; indexed code and docs are text, never markup.
//
// # Layout
//
// server.go: the handler, the checks and the page table; pages.go and
// filepage.go: each page's data; graph.go, group.go and layout.go: the graph
// views' data, the grouping of large ones by folder or namespace and their
// layered layout; assets/ and templates/: embedded files.
package ui

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ragraf/ragraf/internal/facade"
)

//go:embed assets templates
var files embed.FS

// Options configure a Server.
type Options struct {
	// Token every request must carry; NewToken makes one.
	Token string
	// Addr is the listening address, host:port; Host headers must name it
	// (or a loopback name with its port).
	Addr   string
	Logger *slog.Logger
}

// Server serves the pages of one project.
type Server struct {
	svc    *facade.Service
	token  string
	cookie string
	hosts  map[string]bool
	pages  map[string]*template.Template
	static http.Handler
	log    *slog.Logger

	tablesMu sync.Mutex
	tables   map[string]map[string][]facade.TableUse // rev -> definition id -> its uses of tables (graph.go)
}

// NewToken returns a random token of 128 bits, hex-encoded.
func NewToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// New returns a Server answering from svc.
func New(svc *facade.Service, opts Options) (*Server, error) {
	if len(opts.Token) < 16 {
		return nil, errors.New("ui: a token of at least 16 characters is required")
	}
	host, port, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("ui: listening address %q: %w", opts.Addr, err)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{svc: svc, token: opts.Token, cookie: "ragraf_ui_" + port, log: opts.Logger,
		hosts: map[string]bool{}, tables: map[string]map[string][]facade.TableUse{}}
	for _, h := range []string{host, "localhost", "127.0.0.1", "::1"} {
		s.hosts[net.JoinHostPort(h, port)] = true
	}
	if s.pages, err = parsePages(); err != nil {
		return nil, err
	}
	assets, err := fs.Sub(files, "assets")
	if err != nil {
		return nil, err
	}
	s.static = http.StripPrefix("/static/", http.FileServerFS(assets))
	return s, nil
}

// URL is the address to open, with the token.
func URL(addr, token string) string {
	return "http://" + addr + "/?token=" + url.QueryEscape(token)
}

// Serve serves h on ln until ctx is done.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return ctx.Err()
	}
}

// page is one route: it fills data for template name, or returns an error.
type page struct {
	tmpl string
	data func(s *Server, r *http.Request) (any, error)
}

// routes are the pages; /static/ and /api/ are served apart.
var routes = map[string]page{
	"/":                {"overview", (*Server).overview},
	"/search":          {"search", (*Server).search},
	"/symbol":          {"symbol", (*Server).symbol},
	"/file":            {"file", (*Server).file},
	"/graph/calls":     {"graph", (*Server).callsPage},
	"/graph/hierarchy": {"graph", (*Server).hierarchyPage},
	"/graph/entry":     {"graph", (*Server).entryPage},
	"/schema":          {"graph", (*Server).schemaPage},
	"/entries":         {"entries", (*Server).entries},
	"/revisions":       {"revisions", (*Server).revisions},
	"/ledger":          {"ledger", (*Server).ledger},
}

// apis return graph data as JSON for the page's script.
var apis = map[string]func(s *Server, r *http.Request) (*Graph, error){
	"/api/graph/calls":     (*Server).callsGraph,
	"/api/graph/hierarchy": (*Server).hierarchyGraph,
	"/api/graph/entry":     (*Server).entryGraph,
	"/api/schema":          (*Server).schemaGraph,
}

// ServeHTTP checks the request, then serves a page, an API answer or an asset.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if code, why := s.refuse(r); code != 0 {
		http.Error(w, why, code)
		return
	}
	if t := r.URL.Query().Get("token"); t != "" {
		http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/static/"):
		h.Set("Cache-Control", "private, max-age=3600")
		s.static.ServeHTTP(w, r)
		return
	case apis[r.URL.Path] != nil:
		g, err := apis[r.URL.Path](s, r)
		if err != nil {
			code, fe := status(err)
			writeJSON(w, code, facade.ErrorBody{Error: fe})
			return
		}
		writeJSON(w, http.StatusOK, g)
		return
	}
	p, ok := routes[r.URL.Path]
	if !ok {
		s.render(w, r, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: "No page at " + r.URL.Path})
		return
	}
	data, err := p.data(s, r)
	if err != nil {
		code, fe := status(err)
		s.render(w, r, code, "error", errorPage{Title: fe.Code, Message: fe.Message})
		return
	}
	s.render(w, r, http.StatusOK, p.tmpl, data)
}

// refuse returns the status and reason to refuse r with, or 0.
func (s *Server) refuse(r *http.Request) (int, string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return http.StatusMethodNotAllowed, "read-only: GET and HEAD only"
	}
	if !s.hosts[strings.ToLower(r.Host)] {
		return http.StatusForbidden, "foreign Host header"
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return http.StatusForbidden, "foreign Origin"
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return http.StatusForbidden, "cross-site request"
	}
	if t := r.URL.Query().Get("token"); t != "" {
		if subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1 {
			return 0, ""
		}
		return http.StatusUnauthorized, "wrong token: open the URL `ragraf ui` printed"
	}
	if c, err := r.Cookie(s.cookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.token)) == 1 {
		return 0, ""
	}
	return http.StatusUnauthorized, "no token: open the URL `ragraf ui` printed"
}

// status maps an error to an HTTP status and the facade's error.
func status(err error) (int, *facade.Error) {
	fe := facade.AsError(err)
	switch fe.Code {
	case facade.ErrBadInput, facade.ErrPathOutside, facade.ErrExcluded, facade.ErrQueryLanguage, facade.ErrStaleCursor:
		return http.StatusBadRequest, fe
	case facade.ErrUnknownID:
		return http.StatusNotFound, fe
	case facade.ErrNotIndexed, facade.ErrSchema:
		return http.StatusServiceUnavailable, fe
	}
	return http.StatusInternalServerError, fe
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":{"code":"E_INTERNAL","message":"encoding"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}

type errorPage struct {
	Title, Message string
}

// view is what every template gets: the page's data and the request.
type view struct {
	Data  any
	Path  string
	Query string // the search box's text
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name string, data any) {
	t := s.pages[name]
	var buf strings.Builder
	if err := t.ExecuteTemplate(&buf, "layout", view{Data: data, Path: r.URL.Path, Query: r.URL.Query().Get("q")}); err != nil {
		s.log.Error("ui: rendering", "page", name, "err", err)
		http.Error(w, "internal error rendering "+name, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		io.WriteString(w, buf.String())
	}
}

// call runs operation op with args through the facade, as MCP does, and
// returns the envelope with its result as R.
func call[R any](ctx context.Context, s *Server, op string, args any) (*facade.Envelope, R, error) {
	var zero R
	b, err := json.Marshal(args)
	if err != nil {
		return nil, zero, err
	}
	env, err := s.svc.Call(ctx, op, b)
	if err != nil {
		return nil, zero, err
	}
	res, ok := env.Result.(R)
	if !ok {
		return nil, zero, &facade.Error{Code: facade.ErrInternal, Message: fmt.Sprintf("internal error: %s answered %T", op, env.Result)}
	}
	return env, res, nil
}
