package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

// A panic inside one call becomes an error result for that call only.
func TestPanicBecomesCallError(t *testing.T) {
	h := handler(nil, "status", true, nil) // a nil service panics on use
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
