// Package version reports ragraf's version and the versions of the components
// built into the binary: Go, SQLite, tree-sitter and each grammar (NFR-7).
package version

import (
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
)

// Version is ragraf's release; a release build sets it with
// -ldflags "-X github.com/ragraf/ragraf/internal/version.Version=v1.2.3".
var Version = "0.1.0-dev"

// Component is one named dependency and its version.
type Component struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// modules whose versions are reported, with the name shown for each.
var reported = map[string]string{
	"github.com/tree-sitter/go-tree-sitter":              "tree-sitter (go bindings)",
	"github.com/tree-sitter/tree-sitter-php":             "tree-sitter-php grammar",
	"github.com/tree-sitter/tree-sitter-javascript":      "tree-sitter-javascript grammar",
	"github.com/tree-sitter/tree-sitter-typescript":      "tree-sitter-typescript grammar (+tsx)",
	"github.com/tree-sitter/tree-sitter-python":          "tree-sitter-python grammar",
	"github.com/tree-sitter/tree-sitter-go":              "tree-sitter-go grammar",
	"github.com/tree-sitter/tree-sitter-java":            "tree-sitter-java grammar",
	"github.com/tree-sitter/tree-sitter-c-sharp":         "tree-sitter-c-sharp grammar",
	"github.com/tree-sitter/tree-sitter-ruby":            "tree-sitter-ruby grammar",
	"github.com/tree-sitter/tree-sitter-rust":            "tree-sitter-rust grammar",
	"github.com/tree-sitter/tree-sitter-c":               "tree-sitter-c grammar",
	"github.com/tree-sitter/tree-sitter-cpp":             "tree-sitter-cpp grammar",
	"github.com/tree-sitter/tree-sitter-bash":            "tree-sitter-bash grammar",
	"github.com/tree-sitter/tree-sitter-scala":           "tree-sitter-scala grammar",
	"github.com/tree-sitter-grammars/tree-sitter-kotlin": "tree-sitter-kotlin grammar",
	"github.com/tree-sitter-grammars/tree-sitter-lua":    "tree-sitter-lua grammar",
	"modernc.org/sqlite":                                 "sqlite driver (modernc)",
	"github.com/mattn/go-sqlite3":                        "sqlite driver (mattn, graph writes)",
	"github.com/modelcontextprotocol/go-sdk":             "mcp go-sdk",
	"github.com/pkoukk/tiktoken-go":                      "tiktoken-go (cl100k_base)",
	"github.com/kljensen/snowball":                       "snowball stemmer (russian)",
}

// Components lists Go and the reported modules as the binary was built.
// sqliteVersion and nativeVersion are the versions of the two SQLite
// libraries (portable, C), read at run time by the caller (this package
// imports no store).
func Components(sqliteVersion, nativeVersion string) []Component {
	out := []Component{{Name: "go", Version: runtime.Version()}}
	if sqliteVersion != "" {
		out = append(out, Component{Name: "sqlite", Version: sqliteVersion})
	}
	if nativeVersion != "" {
		out = append(out, Component{Name: "sqlite (C library, graph writes)", Version: nativeVersion})
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if name, ok := reported[m.Path]; ok {
				v := m.Version
				if m.Replace != nil {
					v = m.Replace.Version
				}
				out = append(out, Component{Name: name, Version: v})
			}
		}
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return strings.ToLower(out[1+i].Name) < strings.ToLower(out[1+j].Name) })
	return out
}
