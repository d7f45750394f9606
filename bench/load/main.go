// Command load drives `ragraf mcp --http` with many MCP clients at once, each
// with its own session, over loopback only: a mix of symbol, references,
// callers, impact, search, repo_map, context, outline, status and drift calls made
// from the index itself (facade.CorpusRequests). It stops at --duration or
// after --max calls, whichever comes first, and prints calls per second,
// latency percentiles overall and per operation, errors, and the server's
// memory (VmRSS, VmHWM) before and after.
//
//	go build -o bin/ragraf ./cmd/ragraf
//	go run ./bench/load --project DIR --clients 50 --duration 30s
//	go run ./bench/load --project DIR --clients 1 --duration 30s
//
// DIR is an indexed project (`ragraf index` run there); it is only read,
// except for drift entries the calls record. With --inprocess the same mix
// runs against the facade in this process instead, without MCP, so that
// --cpuprofile, --mutexprofile and --blockprofile show where the time goes.
//
// With --publish, `ragraf index` runs on the project a third of the way into
// the run and publishes a new revision while the clients call; the run goes
// on for --after once it is published, and the latencies are reported by
// phase: before the build, during it, and after the publish (the first calls
// on the new revision).
//
//	go run ./bench/load --project DIR --clients 50 --duration 30s --publish
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

type options struct {
	project, binary, url  string
	clients, max          int
	duration              time.Duration
	seed                  uint64
	inprocess, warmup     bool
	cpuprof, mutex, block string
	ops                   string
	sessions              int
	sessionIdle           string
	publish               bool
	after                 time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.project, "project", "", "indexed project directory (required)")
	flag.StringVar(&o.binary, "binary", "bin/ragraf", "the ragraf binary to serve with")
	flag.StringVar(&o.url, "url", "", "use a server already running at this loopback URL instead of starting one")
	flag.IntVar(&o.clients, "clients", 50, "concurrent clients, one MCP session each")
	flag.IntVar(&o.max, "max", 20000, "stop after this many calls")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "stop after this long")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the request choice")
	flag.BoolVar(&o.warmup, "warmup", true, "call each operation once before the clock starts")
	flag.BoolVar(&o.inprocess, "inprocess", false, "call the facade in this process instead of MCP over HTTP")
	flag.StringVar(&o.cpuprof, "cpuprofile", "", "with --inprocess: write a CPU profile")
	flag.StringVar(&o.mutex, "mutexprofile", "", "with --inprocess: write a mutex contention profile")
	flag.StringVar(&o.block, "blockprofile", "", "with --inprocess: write a blocking profile")
	flag.StringVar(&o.ops, "ops", "", "comma-separated operations to use (default: all of the mix)")
	flag.StringVar(&o.sessionIdle, "session-idle", "", "passed to the server as --session-idle")
	flag.IntVar(&o.sessions, "sessions", 0, "instead of the mix: open this many sessions (initialize only) three times, 8 s apart, and print the server's VmRSS")
	flag.BoolVar(&o.publish, "publish", false, "run `ragraf index` on the project a third of the way in, publishing a new revision under load")
	flag.DurationVar(&o.after, "after", 20*time.Second, "with --publish: go on this long after the new revision is published")
	flag.Parse()
	if o.project == "" {
		fmt.Fprintln(os.Stderr, "load: --project is required")
		os.Exit(2)
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// request is one call of the mix.
type request struct {
	op, args string
}

// sample is one finished call.
type sample struct {
	phase   int // with --publish: 0 before the build, 1 during it, 2 after the publish
	op      string
	d       time.Duration
	failed  bool   // the transport or the server failed: no answer
	toolErr bool   // an error answer (isError)
	rev     string // the answer's index_rev ("" when unknown)
	end     time.Time
}

// mix builds the requests from the index: about 200 of each operation.
func mix(ctx context.Context, project, only string) ([]request, error) {
	svc, err := facade.New(project, facade.Options{})
	if err != nil {
		return nil, err
	}
	defer svc.Close()
	byOp, err := facade.CorpusRequests(ctx, svc)
	if err != nil {
		return nil, err
	}
	env, err := svc.Call(ctx, "symbol", []byte(`{"name":"get","limit":200}`))
	if err != nil {
		return nil, err
	}
	for _, s := range env.Result.(facade.SymbolResult).Symbols {
		b, _ := json.Marshal(map[string]string{"path": s.Path})
		byOp["outline"] = append(byOp["outline"], string(b))
		b, _ = json.Marshal(map[string]string{"id": s.ID})
		byOp["context"] = append(byOp["context"], string(b))
	}
	byOp["status"] = []string{`{}`}
	byOp["drift"] = []string{`{"limit":20}`}
	var out []request
	for _, op := range slices.Sorted(maps.Keys(byOp)) {
		if only != "" && !slices.Contains(strings.Split(only, ","), op) {
			continue
		}
		args := byOp[op]
		for i := 0; i < 200; i++ {
			out = append(out, request{op, args[i%len(args)]})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no requests (ops %q)", only)
	}
	return out, nil
}

// caller makes one call and reports whether it failed and whether the
// answer was an error.
type caller func(ctx context.Context, r request) (failed, toolErr bool, rev string, err error)

func run(ctx context.Context, o options) error {
	if o.sessions > 0 {
		return sessions(o)
	}
	reqs, err := mix(ctx, o.project, o.ops)
	if err != nil {
		return fmt.Errorf("building the request mix: %w", err)
	}
	var pid int
	var callers []caller
	var closeAll func()
	if o.inprocess {
		callers, closeAll, err = inProcess(o)
	} else {
		endpoint := o.url
		if endpoint == "" {
			var stop func()
			endpoint, pid, stop, err = startServer(o)
			if err != nil {
				return err
			}
			defer stop()
		}
		if err := checkLoopback(endpoint); err != nil {
			return err
		}
		callers, closeAll, err = overHTTP(ctx, endpoint, o.clients)
	}
	if err != nil {
		return err
	}
	defer closeAll()
	if o.warmup {
		// one call of each operation first: per-revision caches (the rank
		// graph, status counts, the tokenizer) are built once per revision,
		// not per call, and are not what this measures
		seen := map[string]bool{}
		for _, r := range reqs {
			if !seen[r.op] {
				seen[r.op] = true
				if failed, _, _, err := callers[0](ctx, r); failed {
					return fmt.Errorf("warm-up %s: %v", r.op, err)
				}
			}
		}
	}
	rssBefore, _ := memory(pid)
	if o.cpuprof != "" {
		f, err := os.Create(o.cpuprof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if o.mutex != "" {
		runtime.SetMutexProfileFraction(5)
	}
	if o.block != "" {
		runtime.SetBlockProfileRate(int(100 * time.Microsecond))
	}

	var deadline atomic.Int64 // unix nanoseconds
	deadline.Store(time.Now().Add(o.duration).UnixNano())
	var phase atomic.Int32
	var published time.Duration
	var publishedAt time.Time
	var publishErr error
	pubDone := make(chan struct{})
	if o.publish {
		go func() {
			defer close(pubDone)
			time.Sleep(o.duration / 3)
			t0 := time.Now()
			phase.Store(1)
			cmd := exec.Command(o.binary, "index", "--project", o.project)
			if out, err := cmd.CombinedOutput(); err != nil {
				publishErr = fmt.Errorf("index: %v: %s", err, out)
			}
			published = time.Since(t0)
			publishedAt = time.Now()
			phase.Store(2)
			if end := time.Now().Add(o.after).UnixNano(); end > deadline.Load() {
				deadline.Store(end)
			}
		}()
	} else {
		close(pubDone)
	}
	before := func() bool {
		if time.Now().UnixNano() < deadline.Load() {
			return true
		}
		// with --publish the run lasts until the new revision is out
		select {
		case <-pubDone:
			return time.Now().UnixNano() < deadline.Load()
		default:
			return true
		}
	}
	var issued atomic.Int64
	samples := make([][]sample, len(callers))
	var wg sync.WaitGroup
	start := time.Now()
	for c, call := range callers {
		wg.Add(1)
		go func(c int, call caller) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(o.seed, uint64(c)))
			for before() && issued.Add(1) <= int64(o.max) {
				r := reqs[rng.IntN(len(reqs))]
				ph := int(phase.Load())
				t0 := time.Now()
				failed, toolErr, rev, err := call(ctx, r)
				samples[c] = append(samples[c], sample{phase: ph, op: r.op, d: time.Since(t0), failed: failed, toolErr: toolErr, rev: rev, end: time.Now()})
				if err != nil && failed {
					fmt.Fprintf(os.Stderr, "load: %s %s: %v\n", r.op, r.args, err)
				}
			}
		}(c, call)
	}
	wg.Wait()
	<-pubDone
	elapsed := time.Since(start)
	rssAfter, hwm := memory(pid)
	if o.mutex != "" {
		writeProfile("mutex", o.mutex)
	}
	if o.block != "" {
		writeProfile("block", o.block)
	}
	var all []sample
	for _, s := range samples {
		all = append(all, s...)
	}
	report(o, all, elapsed, rssBefore, rssAfter, hwm)
	if o.publish {
		if publishErr != nil {
			return publishErr
		}
		fmt.Printf("\npublish: `ragraf index` took %.1f s under the load\n\n", published.Seconds())
		fmt.Println("| phase | calls | p50 ms | p95 ms | p99 ms | max ms | failed | error answers |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
		for ph, name := range []string{"before the build", "during the build", "after the publish"} {
			var ss []sample
			for _, s := range all {
				if s.phase == ph {
					ss = append(ss, s)
				}
			}
			st := summarize(ss)
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %d | %d |\n", name, st.n, ms(st.p50), ms(st.p95), ms(st.p99), ms(st.max), st.failed, st.toolErr)
		}
		// after the publish, by the revision that answered: the previous
		// one while the new one warms, then the new one
		var revs []string
		for _, s := range all {
			if s.phase == 2 && !slices.Contains(revs, s.rev) {
				revs = append(revs, s.rev)
			}
		}
		slices.Sort(revs)
		for _, rev := range revs {
			var ss []sample
			for _, s := range all {
				if s.phase == 2 && s.rev == rev {
					ss = append(ss, s)
				}
			}
			st := summarize(ss)
			first := ss[0].end
			for _, s := range ss {
				if s.end.Before(first) {
					first = s.end
				}
			}
			fmt.Printf("| after the publish, answered from %s (first answer %+.1f s after it) | %d | %s | %s | %s | %s | %d | %d |\n", cmp.Or(rev, "?"), first.Sub(publishedAt).Seconds(), st.n, ms(st.p50), ms(st.p95), ms(st.p99), ms(st.max), st.failed, st.toolErr)
		}
		fmt.Println()
		fmt.Println("After the publish, by operation:")
		var after []sample
		for _, s := range all {
			if s.phase == 2 {
				after = append(after, s)
			}
		}
		byOpTable(after)
		if len(revs) > 1 {
			newest := revs[len(revs)-1]
			fmt.Printf("\nAnswered from the new revision %s, by operation:\n", newest)
			var onNew []sample
			for _, s := range after {
				if s.rev == newest {
					onNew = append(onNew, s)
				}
			}
			byOpTable(onNew)
		}
	}
	return nil
}

func writeProfile(name, path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		return
	}
	defer f.Close()
	_ = pprof.Lookup(name).WriteTo(f, 0)
}

// startServer runs `ragraf mcp --http 127.0.0.1:0` on the project.
func startServer(o options) (string, int, func(), error) {
	args := []string{"mcp", "--project", o.project, "--http", "127.0.0.1:0"}
	if o.sessionIdle != "" {
		args = append(args, "--session-idle", o.sessionIdle)
	}
	if o.publish {
		// answers in JSON name their revision (index_rev): the calls after
		// the publish are reported by the revision that answered
		args = append(args, "--format", "json")
	}
	cmd := exec.Command(o.binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", 0, nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", 0, nil, fmt.Errorf("starting %s: %w", o.binary, err)
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	line, err := bufio.NewReader(stderr).ReadString('\n')
	i := strings.Index(line, "http://")
	if err != nil || i < 0 {
		stop()
		return "", 0, nil, fmt.Errorf("no address from the server: %q %v", line, err)
	}
	return strings.TrimSpace(line[i:]), cmd.Process.Pid, stop, nil
}

// checkLoopback refuses a URL whose host is not a loopback address.
func checkLoopback(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return err
	}
	ip := net.ParseIP(u.Hostname())
	if u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address; load runs on loopback only", u.Host)
	}
	return nil
}

// revRE finds the answering revision in an answer's text.
var revRE = regexp.MustCompile(`"index_rev": ?"([^"]+)"`)

// overHTTP connects n clients, each with its own session, before the clock
// starts.
func overHTTP(ctx context.Context, endpoint string, n int) ([]caller, func(), error) {
	var sessions []*mcp.ClientSession
	closeAll := func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}
	callers := make([]caller, n)
	for i := range n {
		client := mcp.NewClient(&mcp.Implementation{Name: "ragraf-load", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("client %d: %w", i, err)
		}
		sessions = append(sessions, cs)
		callers[i] = func(ctx context.Context, r request) (bool, bool, string, error) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(r.args)})
			if err != nil {
				return true, false, "", err
			}
			rev := ""
			if len(res.Content) > 0 {
				if tc, ok := res.Content[0].(*mcp.TextContent); ok {
					if m := revRE.FindStringSubmatch(tc.Text); m != nil {
						rev = m[1]
					}
				}
			}
			return false, res.IsError, rev, nil
		}
	}
	return callers, closeAll, nil
}

// inProcess calls one shared facade.Service from n goroutines.
func inProcess(o options) ([]caller, func(), error) {
	svc, err := facade.New(o.project, facade.Options{})
	if err != nil {
		return nil, nil, err
	}
	call := func(ctx context.Context, r request) (bool, bool, string, error) {
		var env *facade.Envelope
		var err error
		if r.op == "drift" {
			env, err = svc.CallDrift(ctx, r.op, []byte(r.args))
		} else {
			env, err = svc.Call(ctx, r.op, []byte(r.args))
		}
		if err != nil {
			fe := facade.AsError(err)
			return fe.Code == facade.ErrInternal, true, "", err
		}
		return false, false, env.IndexRev, nil
	}
	callers := make([]caller, o.clients)
	for i := range callers {
		callers[i] = call
	}
	return callers, func() { svc.Close() }, nil
}

// memory returns the server's VmRSS and VmHWM in MB (0 when unknown).
func memory(pid int) (rss, hwm float64) {
	if pid == 0 {
		return 0, 0
	}
	b, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "status"))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if n, _ := fmt.Sscanf(l, "VmRSS: %f kB", &kb); n == 1 {
			rss = kb / 1024
		}
		if n, _ := fmt.Sscanf(l, "VmHWM: %f kB", &kb); n == 1 {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

type stats struct {
	n, failed, toolErr int
	p50, p95, p99, max time.Duration
}

func summarize(ss []sample) stats {
	st := stats{n: len(ss)}
	ds := make([]time.Duration, 0, len(ss))
	for _, s := range ss {
		ds = append(ds, s.d)
		if s.failed {
			st.failed++
		} else if s.toolErr {
			st.toolErr++
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		return ds[min(len(ds)-1, int(q*float64(len(ds))))]
	}
	st.p50, st.p95, st.p99 = at(0.50), at(0.95), at(0.99)
	if len(ds) > 0 {
		st.max = ds[len(ds)-1]
	}
	return st
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func report(o options, all []sample, elapsed time.Duration, rssBefore, rssAfter, hwm float64) {
	mode := "MCP streamable HTTP, one session per client"
	if o.inprocess {
		mode = "in process (facade.Service.Call), no transport"
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("clients %d, %s, %d calls in %.1f s: %.1f calls/s on %d CPUs (load average %s)\n", o.clients, mode, len(all), elapsed.Seconds(),
		float64(len(all))/elapsed.Seconds(), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	if rssBefore > 0 {
		fmt.Printf("server memory: VmRSS %.0f MB before, %.0f MB after, peak (VmHWM) %.0f MB\n", rssBefore, rssAfter, hwm)
	}
	fmt.Println()
	byOpTable(all)
}

// byOpTable prints the latencies of all by operation, and of all together.
func byOpTable(all []sample) {
	fmt.Println("| operation | calls | p50 ms | p95 ms | p99 ms | max ms | failed | error answers |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	byOp := map[string][]sample{}
	for _, s := range all {
		byOp[s.op] = append(byOp[s.op], s)
	}
	row := func(name string, ss []sample) {
		st := summarize(ss)
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %d | %d |\n", name, st.n, ms(st.p50), ms(st.p95), ms(st.p99), ms(st.max), st.failed, st.toolErr)
	}
	for _, op := range slices.Sorted(maps.Keys(byOp)) {
		row(op, byOp[op])
	}
	row("**all**", all)
}

// sessions opens o.sessions sessions with bare initialize requests, three
// rounds 8 s apart, and prints the server's memory after each: with sessions
// that expire (--session-idle shorter than the pause) it stays level.
func sessions(o options) error {
	endpoint, pid, stop, err := startServer(o)
	if err != nil {
		return err
	}
	defer stop()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ragraf-load","version":"1"}}}`
	rss, _ := memory(pid)
	fmt.Printf("start: VmRSS %.0f MB\n", rss)
	for round := 1; round <= 3; round++ {
		if round > 1 {
			time.Sleep(8 * time.Second)
		}
		failed := 0
		for range o.sessions {
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				failed++
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				failed++
			}
		}
		rss, _ = memory(pid)
		fmt.Printf("after round %d (%d sessions, %d failed): VmRSS %.0f MB\n", round, o.sessions, failed, rss)
	}
	return nil
}
