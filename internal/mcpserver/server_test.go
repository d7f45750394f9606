package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// A panic inside one call becomes an error result for that call only.
func TestPanicBecomesCallError(t *testing.T) {
	h := handler(nil, "status", true, Options{}) // a nil service panics on use
	for i := 0; i < 2; i++ {
		res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "ragraf_status", Arguments: json.RawMessage(`{}`)}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(text, facade.ErrInternal) {
			t.Fatalf("result %v %s", res.IsError, text)
		}
	}
}

func TestEveryOperationHasADescriptionWithAnExample(t *testing.T) {
	srv, err := New(&facade.Service{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_ = srv
	descs := map[string]string{}
	for _, fam := range [][]tool{indexTools, symbolTools, graphTools, sourceTools, domainTools, changeTools, dataflowTools} {
		for _, tl := range fam {
			descs[tl.op] = tl.description
		}
	}
	for _, o := range facade.Ops() {
		if !strings.Contains(descs[o.Name], "Example: {") {
			t.Errorf("%s: description without a worked example", o.Name)
		}
	}
}

// TestReliability_CancelledCallIsNotInternal: a call whose context is
// cancelled before it finishes (the client sent notifications/cancelled, or
// the connection went) is answered E_CANCELLED, never E_INTERNAL; the
// service answers the next call normally.
func TestReliability_CancelledCallIsNotInternal(t *testing.T) {
	root := t.TempDir()
	var src strings.Builder
	src.WriteString("<?php\nnamespace Shop;\n\n")
	for i := range 30 {
		fmt.Fprintf(&src, "/** Puts goods into the basket. */\nfunction cartAdd%d($goods) { return cartAdd%d($goods); }\n\n", i, (i+1)%30)
	}
	if err := os.WriteFile(filepath.Join(root, "lib.php"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	calls := []struct{ op, args string }{
		{"search", `{"query":"basket goods"}`},
		{"search", `{"query":"basket goods","mode":"semantic"}`},
		{"search", `{"query":"basket goods","mode":"hybrid"}`},
		{"repo_map", `{"budget_tokens":300}`},
		{"symbol", `{"name":"cartAdd1"}`},
		{"callers", `{"qname":"Shop\\cartAdd1"}`},
		{"status", `{}`},
	}
	req := func(op, args string) *mcp.CallToolRequest {
		return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: Prefix + op, Arguments: json.RawMessage(args)}}
	}
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }
	cancelledSeen := 0
	for _, c := range calls {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := handler(svc, c.op, true, Options{Format: facade.FormatJSON})(ctx, req(c.op, c.args))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.IsError && strings.Contains(text(res), facade.ErrCancelled):
			cancelledSeen++
		case res.IsError:
			t.Errorf("%s %s cancelled: %s, want %s", c.op, c.args, text(res), facade.ErrCancelled)
		}
		// the next call, not cancelled, answers
		res, err = handler(svc, c.op, true, Options{Format: facade.FormatJSON})(context.Background(), req(c.op, c.args))
		if err != nil || res.IsError {
			t.Errorf("%s %s after a cancelled call: %v %s", c.op, c.args, err, text(res))
		}
	}
	if cancelledSeen == 0 {
		t.Error("no cancelled call was answered E_CANCELLED: the test does not reach a store with a cancelled context")
	}
}

// TestToolDescriptionsShowTheTextAnswer: every worked example shows the
// answer as the model receives it by default, compact text (fact lines
// path:line first, "key: value" lines, or key=value pairs), never the JSON
// envelope; the instructions say how an absent header reads.
func TestToolDescriptionsShowTheTextAnswer(t *testing.T) {
	fact := regexp.MustCompile(`^ *[\w./-]+\.\w+:\d+(-\d+)?  \S`)
	keyed := regexp.MustCompile(`^[a-z_.]+:( |$)`)
	compact := regexp.MustCompile(`^[a-z_]+=\S`) // an object without a place: key=value pairs
	var all []tool
	for _, fam := range [][]tool{indexTools, symbolTools, graphTools, sourceTools, domainTools, changeTools, dataflowTools, driftTools} {
		all = append(all, fam...)
	}
	shown := 0
	for _, tl := range all {
		if strings.Contains(tl.description, "result.") || strings.Contains(tl.description, "-> result") {
			t.Errorf("%s: names the JSON envelope: %q", tl.op, tl.description)
		}
		_, answer, ok := strings.Cut(tl.description, "} answers\n")
		if !ok {
			continue // an example call without its answer
		}
		shown++
		verbatim := false // the lines of a text: field (a map, source) are as they are
		for _, l := range strings.Split(answer, "\n") {
			if verbatim {
				continue
			}
			verbatim = strings.HasSuffix(l, "text:")
			if !fact.MatchString(l) && !keyed.MatchString(l) && !compact.MatchString(l) {
				t.Errorf("%s: example answer line is not a text line: %q", tl.op, l)
			}
		}
	}
	if shown < 15 {
		t.Errorf("%d tools show their answer, want at least 15", shown)
	}
	// how an absent header reads is said once, in the instructions every
	// client receives (each description saying it would cost tools/list 5 KB)
	if !strings.Contains(instructions, facade.TextDefaults) {
		t.Error("the instructions do not say how an absent header reads")
	}
}
