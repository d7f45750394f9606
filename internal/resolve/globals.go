package resolve

import "github.com/ragraf/ragraf/internal/typ"

// maxGlobalAlts bounds the alternatives a global variable's type collects;
// a variable assigned many different types is left untyped.
const maxGlobalAlts = 4

func (r *resolver) addGlobal(name string, desc typ.Desc) {
	if !desc.Known() {
		return
	}
	cur, ok := r.globals[name]
	if ok && !cur.Known() {
		return // too many alternatives
	}
	for _, a := range cur.Alts() {
		if a.Desc().Equal(desc) {
			return
		}
	}
	desc = typ.Join(cur, desc)
	if len(desc.Alts()) > maxGlobalAlts {
		desc = typ.Desc{}
	}
	r.globals[name] = desc
}
