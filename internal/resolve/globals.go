package resolve

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
