package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/embed/models"
	"github.com/ragraf/ragraf/internal/embed/onnx/onnxtest"
	"github.com/ragraf/ragraf/internal/embed/sentence"
	"github.com/ragraf/ragraf/internal/embed/tokenizer"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// semanticQueries are questions in words, as an agent asks them.
var semanticQueries = []string{
	"send an email to the site administrator", "check whether the user may edit a post",
	"save user preferences", "escape text before printing it in HTML", "schedule a recurring background job",
	"load the translation files for a plugin", "resize an uploaded image", "count the comments waiting for moderation",
	"build the URL of a page", "remove a cached value", "parse a date string", "register a new widget area",
	"hash a password", "list the installed themes", "read a setting from the database", "redirect the browser to the login page",
	"сохранить настройки пользователя", "отправить письмо администратору", "проверить права пользователя", "удалить временные файлы",
}

// BenchmarkMCPHybridTinyModel: hybrid search through an MCP client session
// on a copy of WordPress whose vectors come from the tiny random BERT of
// the tests (2 layers, hidden 32: the speed of the pipeline, not of the
// spec's 12-layer model), and the query embedding alone. The copy is
// $RAGRAF_BENCH_ROOT (a directory with WordPress's files, indexed here once
// with embeddings.model test/tiny; its vector cache in $RAGRAF_CACHE_DIR).
func BenchmarkMCPHybridTinyModel(b *testing.B) {
	root := os.Getenv("RAGRAF_BENCH_ROOT")
	if root == "" || os.Getenv("RAGRAF_CACHE_DIR") == "" {
		b.Skip("set RAGRAF_BENCH_ROOT (a copy of the WordPress corpus) and RAGRAF_CACHE_DIR")
	}
	lib := onnxtest.Library(b)
	ctx := context.Background()
	inst, err := models.Open("test/tiny")
	if err != nil {
		dir := b.TempDir()
		tj := tokenizer.SyntheticUnigramJSON()
		tok, err := tokenizer.LoadBytes(tj)
		if err != nil {
			b.Fatal(err)
		}
		bert := onnxtest.Tiny
		bert.Vocab = tok.VocabSize()
		if _, err := onnxtest.Write(dir, bert); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "tokenizer.json"), tj, 0o644)
		if inst, err = models.FromDir("test/tiny", dir); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := os.Stat(rev.Layout{Root: root}.Current()); err != nil {
		cfg := config.Default()
		cfg.Embeddings.Model = "test/tiny"
		start := time.Now()
		info, err := rev.Build(ctx, rev.Options{Root: root, Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("indexed in %.1fs: %+v", time.Since(start).Seconds(), *info.Vectors)
	}
	m, err := sentence.Load(inst, lib)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("embed_query", func(b *testing.B) {
		facade.Percentiles(b, func(i int) {
			if _, err := m.Embed(ctx, []string{semanticQueries[i%len(semanticQueries)]}); err != nil {
				b.Fatal(err)
			}
		})
	})
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
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
	for _, mode := range []string{"lexical", "semantic", "hybrid"} {
		b.Run("search_"+mode, func(b *testing.B) {
			facade.Percentiles(b, func(i int) {
				args := fmt.Sprintf(`{"query":%q,"mode":%q}`, semanticQueries[i%len(semanticQueries)], mode)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: Prefix + "search", Arguments: json.RawMessage(args)})
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
				if i == 0 {
					var out struct {
						Result struct{ Mode, Fallback string } `json:"result"`
					}
					raw, _ := json.Marshal(res.StructuredContent)
					json.Unmarshal(raw, &out)
					if out.Result.Mode != mode {
						b.Fatalf("mode %q ran as %q: %s", mode, out.Result.Mode, out.Result.Fallback)
					}
				}
			})
		})
	}
}
