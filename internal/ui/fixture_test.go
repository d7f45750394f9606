package ui

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// xssPHP is a fixture whose docblock, comment and string hold markup that
// sets window.pwned and document.title if a page ever runs it.
const xssPHP = `<?php

namespace Shop\Support;

/**
 * Escaping probe <script>window.pwned = 1; document.title = "pwned";</script>
 * <img src="x" onerror="window.pwned = 2">
 */
final class Probe
{
    /** Returns <script>window.pwned = 3</script> as text. */
    public function render(): string
    {
        // <script>window.pwned = 4</script>
        return '<script>window.pwned = 5</script>' . "<iframe src=javascript:window.pwned=6>";
    }
}
`

// shopOnce builds, once per test binary, a copy of examples/shop with the
// probe above, two revisions (so an archive report), an acknowledged
// ledger entry and a file that drifted since the current revision.
var shopOnce struct {
	sync.Once
	root string
	err  error
}

func shopRoot(t testing.TB) string {
	t.Helper()
	shopOnce.Do(func() {
		shopOnce.root, shopOnce.err = buildShop()
	})
	if shopOnce.err != nil {
		t.Fatal(shopOnce.err)
	}
	return shopOnce.root
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shopOnce.root != "" {
		os.RemoveAll(filepath.Dir(shopOnce.root))
	}
	os.Exit(code)
}

func buildShop() (string, error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "ragraf-ui-")
	if err != nil {
		return "", err
	}
	root := filepath.Join(tmp, "shop")
	if err := os.CopyFS(root, os.DirFS("../../examples/shop")); err != nil {
		return "", err
	}
	os.RemoveAll(filepath.Join(root, rev.Dir))
	if err := os.WriteFile(filepath.Join(root, "src/Support/Probe.php"), []byte(xssPHP), 0o644); err != nil {
		return "", err
	}
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		return "", fmt.Errorf("indexing the shop: %w", err)
	}
	cart := filepath.Join(root, "src/Cart/Cart.php")
	edit := func(old, new string) error {
		b, err := os.ReadFile(cart)
		if err != nil {
			return err
		}
		return os.WriteFile(cart, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
	}
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		return "", err
	}
	defer svc.Close()
	record := func(note string) error {
		env, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"})
		if err != nil {
			return err
		}
		res := env.Result.(facade.DriftDetectResult)
		if len(res.Added) == 0 {
			return fmt.Errorf("drift detect found nothing")
		}
		_, err = svc.DriftAck(ctx, facade.DriftAckArgs{EntryID: res.Added[0].ID, Note: note})
		return err
	}
	// first edit: recorded, acknowledged, then archived by a reindex
	if err := edit("    public const MAX_LINES = 50;\n", "    public const MAX_LINES = 50;\n\n    public const MIN_QUANTITY = 1;\n"); err != nil {
		return "", err
	}
	if err := record("constant added on purpose"); err != nil {
		return "", err
	}
	if _, err := rev.Reindex(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		return "", fmt.Errorf("reindexing the shop: %w", err)
	}
	// second edit: drift in the working tree, acknowledged with markup in the note
	if err := edit(" * A shopping cart identified", " * A cart (edited after the index)\n * with two more lines.\n * A shopping cart identified"); err != nil {
		return "", err
	}
	if err := record(`<b id="ack-markup">kept</b>`); err != nil {
		return "", err
	}
	return root, nil
}

// serve starts the server on root at a free loopback port; it returns the
// base URL and the token.
func serve(t testing.TB, root string) (base, token string) {
	t.Helper()
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	token, err = NewToken()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(svc, Options{Token: token, Addr: ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, ln, srv); close(done) }()
	t.Cleanup(func() { cancel(); <-done; svc.Close() })
	return "http://" + ln.Addr().String(), token
}

// get requests base+path with the given headers and no cookie jar.
func get(t testing.TB, method, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp, sb.String()
}
