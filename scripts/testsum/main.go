// Command testsum reads `go test -json` on stdin, prints what go test
// prints without -v (a package's result line; a failed test's output, which
// -json otherwise gives for every test), and ends with one line a person
// and CI can read:
// "N passed, N failed, N skipped" (every test and subtest counted once),
// followed by the names of the failed tests. It exits 1 when a test or a
// package failed, 0 otherwise.
//
//	go test -json ./... | go run ./scripts/testsum
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// event is one line of test2json's output.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var passed, failed, skipped int
	var failures []string
	pkgFailed := false
	held := map[string][]string{} // output of a running test, printed if it fails
	for in.Scan() {
		line := in.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil {
			// not an event (a build error printed as is)
			out.Write(line)
			out.WriteByte('\n')
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			if e.Test == "" {
				// package lines: ok, FAIL, build errors, a panic's trace
				if !isVerbose(e.Output) {
					out.WriteString(e.Output)
					out.Flush()
				}
			} else {
				held[key] = append(held[key], e.Output)
			}
		case "pass":
			if e.Test != "" {
				passed++
			}
			delete(held, key)
		case "fail":
			if e.Test != "" {
				failed++
				failures = append(failures, key)
				for _, l := range held[key] {
					out.WriteString(l)
				}
				out.Flush()
			} else {
				pkgFailed = true
			}
			delete(held, key)
		case "skip":
			if e.Test != "" {
				skipped++
			}
			delete(held, key)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(out, "testsum: reading the test output:", err)
		pkgFailed = true
	}
	for _, f := range failures {
		fmt.Fprintln(out, "FAILED:", f)
	}
	fmt.Fprintf(out, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	out.Flush()
	if failed > 0 || pkgFailed {
		os.Exit(1)
	}
}

// isVerbose reports whether a package-level output line is one that -json's
// implied -v adds and go test alone does not print.
func isVerbose(line string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "PASS\n", "testing: warning: no tests to run"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}
