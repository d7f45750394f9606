// This file holds PHP's built-in names, generated from php-cli by
// builtins/gen.sh: a reference to one of them is external, neither an edge
// nor unresolved.

package resolve

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
)

//go:embed builtins/php.txt
var builtinsTxt string

type builtinSet struct {
	funcs, classes map[string]bool // lower-cased names
	consts         map[string]bool // as written (constants are case-sensitive)
}

var builtins = sync.OnceValue(func() *builtinSet {
	b := &builtinSet{funcs: map[string]bool{}, classes: map[string]bool{}, consts: map[string]bool{}}
	for _, ln := range strings.Split(builtinsTxt, "\n") {
		kind, name, ok := strings.Cut(ln, " ")
		if !ok {
			continue
		}
		switch kind {
		case "f":
			b.funcs[fact.Lower(name)] = true
		case "c":
			b.classes[fact.Lower(name)] = true
		case "k":
			b.consts[name] = true
		}
	}
	// language constructs that parse as calls
	for _, f := range []string{"isset", "empty", "die", "exit", "eval", "unset", "list", "print", "echo", "array"} {
		b.funcs[f] = true
	}
	return b
})
