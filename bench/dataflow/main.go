// Command dataflow times slice and flow over MCP: it starts `ragraf mcp`
// (stdio) on an indexed project, one fresh server per operation so that
// each starts with nothing lowered, and asks about the functions the
// corpus benchmarks ask about (facade.CorpusRequests): slice backward from a
// function's returns ({"id": …}), flow from its parameters to sink:sql
// ({"from": …, "to": "sink:sql"}), impact at depth 3 ({"id": …, "depth": 3})
// and the same with its data block (impact-data: "data": true). --ops picks
// the operations. It prints p50, p95 and max per operation,
// the same for the first and second half of the calls (a new server, then
// one that has lowered what the first half touched), and the server's peak
// memory (VmHWM).
//
//	go build -o bin/ragraf ./cmd/ragraf
//	go run ./bench/dataflow --project DIR --calls 100 [--ops slice,flow,impact,impact-data]
//
// DIR is an indexed project; it is only read.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

func main() {
	project := flag.String("project", ".", "indexed project directory")
	binary := flag.String("binary", "bin/ragraf", "the ragraf binary")
	calls := flag.Int("calls", 100, "calls per operation")
	ops := flag.String("ops", "slice,flow", "operations to time: slice, flow, impact, impact-data")
	flag.Parse()
	if err := run(*project, *binary, *calls, strings.Split(*ops, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "dataflow:", err)
		os.Exit(1)
	}
}

func run(project, binary string, calls int, ops []string) error {
	ctx := context.Background()
	svc, err := facade.New(project, facade.Options{})
	if err != nil {
		return err
	}
	reqs, err := facade.CorpusRequests(ctx, svc)
	svc.Close()
	if err != nil {
		return err
	}
	var ids []string
	for _, r := range reqs["references"] {
		var a struct{ ID string }
		if json.Unmarshal([]byte(r), &a) == nil && !slices.Contains(ids, a.ID) {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return fmt.Errorf("no functions to ask about")
	}
	fmt.Printf("%d calls per operation over %d functions, one new `ragraf mcp` per operation\n\n", calls, len(ids))
	fmt.Println("| op | p50 ms | p95 ms | max ms | first half p95 | second half p95 | truncated | found | complete | with a depth cut | server VmHWM MB |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range ops {
		if err := timeOp(ctx, project, binary, op, ids, calls); err != nil {
			return err
		}
	}
	return nil
}

func timeOp(ctx context.Context, project, binary, op string, ids []string, calls int) error {
	abs, err := filepath.Abs(binary)
	if err != nil {
		return err
	}
	cmd := exec.Command(abs, "mcp", "--project", project)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-dataflow", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("starting %s: %w", abs, err)
	}
	defer cs.Close()
	tool := "ragraf_" + strings.TrimSuffix(op, "-data")
	var times []time.Duration
	truncated, found, complete, depth := 0, 0, 0, 0
	for i := 0; i < calls; i++ {
		id := ids[i%len(ids)]
		var args string
		switch op {
		case "slice":
			args = fmt.Sprintf(`{"id":%q}`, id)
		case "flow":
			args = fmt.Sprintf(`{"from":%q,"to":"sink:sql"}`, id)
		case "impact":
			args = fmt.Sprintf(`{"id":%q,"depth":3}`, id)
		case "impact-data":
			args = fmt.Sprintf(`{"id":%q,"depth":3,"data":true}`, id)
		default:
			return fmt.Errorf("unknown operation %q", op)
		}
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		times = append(times, time.Since(start))
		if err != nil {
			return fmt.Errorf("%s %s: %w", op, args, err)
		}
		if res.IsError {
			return fmt.Errorf("%s %s: error answer %+v", op, args, res.Content)
		}
		var env struct {
			Result struct {
				Truncated bool       `json:"truncated"`
				Found     bool       `json:"found"`
				Complete  bool       `json:"complete"`
				Cuts      []cutPoint `json:"cut_points"`
				Data      struct {
					Cuts []string `json:"cuts"`
				} `json:"data"`
			} `json:"result"`
		}
		tc, ok := res.Content[0].(*mcp.TextContent)
		if !ok || json.Unmarshal([]byte(tc.Text), &env) != nil {
			continue
		}
		// impact's data block counts when a budget stopped it, not when its
		// list was cut at the limit
		if env.Result.Truncated || slices.Contains(env.Result.Data.Cuts, "budget") || slices.Contains(env.Result.Data.Cuts, "budget: memory") {
			truncated++
		}
		if env.Result.Found {
			found++
		}
		if env.Result.Complete {
			complete++
		}
		if slices.ContainsFunc(env.Result.Cuts, func(c cutPoint) bool { return c.Reason == "depth" }) {
			depth++
		}
	}
	hwm := peak(cmd.Process.Pid)
	half := len(times) / 2
	fmt.Printf("| `%s` | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %d | %d | %d | %.0f |\n", op, pct(times, 0.5), pct(times, 0.95), pct(times, 1),
		pct(times[:half], 0.95), pct(times[half:], 0.95), truncated, found, complete, depth, hwm)
	return nil
}

// cutPoint is one of a slice's or flow's cut points.
type cutPoint struct {
	Reason string `json:"reason"`
}

// pct is the q-quantile of ts in milliseconds (q 1: the maximum).
func pct(ts []time.Duration, q float64) float64 {
	s := slices.Clone(ts)
	slices.Sort(s)
	return float64(s[min(len(s)-1, int(q*float64(len(s))))].Microseconds()) / 1000
}

// peak returns the process's VmHWM in MB (0 when unknown).
func peak(pid int) float64 {
	b, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "status"))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if n, _ := fmt.Sscanf(l, "VmHWM: %f kB", &kb); n == 1 {
			return kb / 1024
		}
	}
	return 0
}
