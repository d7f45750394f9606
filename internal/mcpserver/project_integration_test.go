package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPFindsItsProject starts `ragraf mcp` as agents do, from some working
// directory, and checks it answers from the right project: --project first,
// then RAGRAF_PROJECT, then CLAUDE_PROJECT_DIR, then the nearest .ragraf/ at
// or above the working directory.
func TestMCPFindsItsProject(t *testing.T) {
	root := newProject(t)
	elsewhere := t.TempDir() // no .ragraf/ here or above
	cases := []struct {
		name string
		dir  string
		args []string
		env  []string
	}{
		{"--project", elsewhere, []string{"--project", root}, []string{"RAGRAF_PROJECT=" + elsewhere}},
		{"RAGRAF_PROJECT", elsewhere, nil, []string{"RAGRAF_PROJECT=" + root, "CLAUDE_PROJECT_DIR=" + elsewhere}},
		{"CLAUDE_PROJECT_DIR", elsewhere, nil, []string{"CLAUDE_PROJECT_DIR=" + root}},
		{"nearest .ragraf", filepath.Join(root, "src"), nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			cmd := exec.Command(binary, append([]string{"mcp", "--format", "json"}, c.args...)...)
			cmd.Dir = c.dir
			cmd.Env = append(cleanEnv(), c.env...)
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_symbol", Arguments: map[string]any{"name": "Cart"}})
			if err != nil {
				t.Fatal(err)
			}
			var env struct {
				IndexRev string `json:"index_rev"`
				NotFound bool   `json:"not_found"`
			}
			if err := json.Unmarshal([]byte(text(t, res)), &env); err != nil || res.IsError || env.NotFound || env.IndexRev != "rev-0001" {
				t.Errorf("answer from the wrong project: %s", text(t, res))
			}
		})
	}
	// nothing to find: the working directory is the project, and it is not indexed
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = elsewhere
	cmd.Env = cleanEnv()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ragraf_status", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(text(t, res), "E_NOT_INDEXED") {
		t.Errorf("unindexed working directory: %s", text(t, res))
	}
}

// cleanEnv is the test's environment without the variables that name a project.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RAGRAF_PROJECT=") && !strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") {
			out = append(out, kv)
		}
	}
	return out
}
