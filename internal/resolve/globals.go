package resolve

import "github.com/ragraf/ragraf/internal/fact"

// refGlobal is php.RefGlobal: the type of a global variable (Name, without
// $) from an assignment at file scope, through `global` or $GLOBALS, or from
// an `@global Type $name` tag. Descriptors `$name` evaluate to the union of
// all of them, the variable's project-wide type.
const refGlobal fact.RefKind = "global_type"

// maxGlobalAlts bounds the alternatives a global variable's type collects;
// a variable assigned many different types is left untyped.
const maxGlobalAlts = 4

func (r *resolver) addGlobal(name, desc string) {
	if desc == "" {
		return
	}
	cur, ok := r.globals[name]
	if ok && cur == "" {
		return // too many alternatives
	}
	for _, a := range splitTop(cur) {
		if a == desc {
			return
		}
	}
	if cur != "" {
		desc = cur + "|" + desc
	}
	if len(splitTop(desc)) > maxGlobalAlts {
		desc = ""
	}
	r.globals[name] = desc
}
