// This file gathers the independent truth the stand judges answers by: PHP's
// own tokenizer (facts.php: declarations with line ranges and heritage, call
// sites by name, SQL literals that write a table) and universal-ctags for
// definitions when it is installed. Nothing here reads ragraf's stores.

package stand

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

//go:embed facts.php
var factsPHP []byte

// Decl is a declaration PHP's tokenizer found: a class, interface, trait or
// enum with what it extends and implements, or a function or method with
// the lines of its whole declaration.
type Decl struct {
	Path  string   `json:"p"`
	Kind  string   `json:"kind"` // class, interface, trait, enum, function, method
	Name  string   `json:"name"`
	NS    string   `json:"ns"`
	Scope string   `json:"scope"` // the class of a method
	Line  int      `json:"line"`
	End   int      `json:"end"`
	Ext   []string `json:"ext"`  // short names
	Impl  []string `json:"impl"` // short names
}

// CallSite is a call by name: via "->" (an instance or nullsafe call), "::"
// (a static call) or "fn" (a function call).
type CallSite struct {
	Path string `json:"p"`
	Name string `json:"name"`
	Via  string `json:"via"`
	Line int    `json:"line"`
}

// SQLWrite is a string literal holding INSERT, REPLACE, UPDATE or DELETE on
// a literally named table.
type SQLWrite struct {
	Path  string `json:"p"`
	Op    string `json:"op"`
	Table string `json:"name"`
	Line  int    `json:"line"`
	End   int    `json:"end"`
}

// Tag is one ctags definition.
type Tag struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Line      int    `json:"line"`
	Scope     string `json:"scope"`
	ScopeKind string `json:"scopeKind"`
}

// Truth is everything the stand knows about a tree without ragraf.
type Truth struct {
	Decls []Decl
	Calls []CallSite
	SQL   []SQLWrite
	Tags  []Tag // nil when ctags is not installed
	// Builtins are PHP's own function names, lowercased.
	Builtins map[string]bool
	// DefSource names where definitions come from: "ctags" or "php-tokenizer".
	DefSource string
}

// phpFacts runs facts.php over paths (relative to root).
func phpFacts(ctx context.Context, root string, paths []string) (Truth, error) {
	var t Truth
	if len(paths) == 0 {
		return t, nil
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("ragraf-stand-facts-%d.php", os.Getpid()))
	if err := os.WriteFile(script, factsPHP, 0o644); err != nil {
		return t, err
	}
	defer os.Remove(script)
	cmd := exec.CommandContext(ctx, "php", "-d", "display_errors=0", script)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return t, fmt.Errorf("php tokenizer: %v: %s", err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var k struct {
			K string `json:"k"`
		}
		if json.Unmarshal(line, &k) != nil {
			continue
		}
		switch k.K {
		case "builtins":
			var b struct {
				Names []string `json:"names"`
			}
			if json.Unmarshal(line, &b) == nil {
				t.Builtins = map[string]bool{}
				for _, n := range b.Names {
					t.Builtins[strings.ToLower(n)] = true
				}
			}
		case "decl":
			var d Decl
			if json.Unmarshal(line, &d) == nil {
				t.Decls = append(t.Decls, d)
			}
		case "call":
			var c CallSite
			if json.Unmarshal(line, &c) == nil {
				t.Calls = append(t.Calls, c)
			}
		case "sql":
			var s SQLWrite
			if json.Unmarshal(line, &s) == nil {
				t.SQL = append(t.SQL, s)
			}
		}
	}
	sortTruth(&t)
	return t, sc.Err()
}

func sortTruth(t *Truth) {
	sort.SliceStable(t.Decls, func(i, j int) bool {
		a, b := t.Decls[i], t.Decls[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	sort.SliceStable(t.Calls, func(i, j int) bool {
		a, b := t.Calls[i], t.Calls[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	sort.SliceStable(t.SQL, func(i, j int) bool {
		a, b := t.SQL[i], t.SQL[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
}

// ctagsTags runs universal-ctags over paths; ok is false when it is not
// installed.
func ctagsTags(ctx context.Context, root string, paths []string) (tags []Tag, ok bool, err error) {
	bin, lerr := exec.LookPath("ctags")
	if lerr != nil {
		return nil, false, nil
	}
	if v, _ := exec.CommandContext(ctx, bin, "--version").Output(); !bytes.Contains(v, []byte("Universal Ctags")) {
		return nil, false, nil
	}
	cmd := exec.CommandContext(ctx, bin, "--languages=PHP", "--output-format=json", "--fields=+nKZ", "-L", "-", "-f", "-")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, true, fmt.Errorf("ctags: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var tg Tag
		if json.Unmarshal(sc.Bytes(), &tg) == nil && tg.Name != "" && tg.Line > 0 {
			tg.Path = filepath.ToSlash(tg.Path)
			tags = append(tags, tg)
		}
	}
	sort.SliceStable(tags, func(i, j int) bool {
		if tags[i].Path != tags[j].Path {
			return tags[i].Path < tags[j].Path
		}
		return tags[i].Line < tags[j].Line
	})
	return tags, true, sc.Err()
}

// gatherTruth reads the tree at root for the PHP files paths.
func gatherTruth(ctx context.Context, root string, paths []string) (Truth, error) {
	t, err := phpFacts(ctx, root, paths)
	if err != nil {
		return t, err
	}
	tags, ok, err := ctagsTags(ctx, root, paths)
	if err != nil {
		return t, err
	}
	t.DefSource = "php-tokenizer"
	if ok {
		t.Tags, t.DefSource = tags, "ctags"
	}
	return t, nil
}
