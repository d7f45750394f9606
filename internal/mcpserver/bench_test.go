package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// BenchmarkMCPPhpMyAdmin and BenchmarkMCPWordPress ask the facade benchmark's
// questions through an MCP client session (in-memory transport: JSON-RPC
// encoding, schema validation and the server's dispatch, no process hop).
func BenchmarkMCPPhpMyAdmin(b *testing.B) { benchMCP(b, "phpmyadmin") }

func BenchmarkMCPWordPress(b *testing.B) { benchMCP(b, "wordpress") }

func benchMCP(b *testing.B, corpus string) {
	home, _ := os.UserHomeDir()
	root := filepath.Join(home, ".cache", "ragraf-corpora", corpus)
	if _, err := os.Stat(root); err != nil {
		b.Skip("no " + corpus + " corpus")
	}
	ctx := context.Background()
	if _, err := os.Stat(rev.Layout{Root: root}.Current()); err != nil {
		if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	reqs, err := facade.CorpusRequests(ctx, svc)
	if err != nil {
		b.Skip(err)
	}
	srv, err := New(svc, Options{Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, op := range facade.BenchOps {
		b.Run(op, func(b *testing.B) {
			facade.Percentiles(b, func(i int) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: Prefix + op, Arguments: json.RawMessage(reqs[op][i%len(reqs[op])])})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %+v", op, err, res)
				}
			})
		})
	}
}
