// Package typ holds type descriptors: what a front end knows, from one file,
// about the type of a value, for package resolve to evaluate against the
// whole project. A descriptor is one or more alternatives (the value is one of
// them); an alternative is a base (a class, an array of a class, the class a
// method is called on, a function's result, a global variable or a group of
// alternatives) followed by steps (a method's result, a property, an element
// of an iterable). The zero Desc is unknown.
//
// null adds no alternative (`?Foo` is described as Foo): a descriptor names
// what a value may be when it is an object, which is what resolution needs.
//
// A Desc is immutable. Its text form (String, Parse) exists for the
// extraction cache and for test output; code never takes it apart.
package typ

import (
	"strings"
)

// Kind is what the base of an alternative is.
type Kind uint8

// Base kinds.
const (
	// Class is a class, interface or enum named by Name (fully qualified,
	// without a leading backslash), or an array of one when Dims > 0.
	Class Kind = iota + 1
	// Static is the class the enclosing method is called on (`static`,
	// `self` and `$this` in a return type).
	Static
	// Func is the result of a function: Funcs are the candidate names in
	// order (a namespaced name and its global fallback).
	Func
	// Global is global variable Name (without $): the union of what the
	// project assigns to it.
	Global
	// Group is the alternatives of Group taken as one base, so that steps
	// apply to each. A Strict group is a value that is one of several
	// expressions: it is typed only when every alternative is.
	Group
)

// Base is the start of an alternative.
type Base struct {
	Kind   Kind
	Name   string   // Class: the class; Global: the variable
	Dims   int      // Class: array-of nesting (`Foo[][]` is 2)
	Funcs  []string // Func: candidate names
	Group  Desc     // Group: the alternatives
	Strict bool     // Group: typed only when each alternative is
}

// StepKind is what a step takes from the value before it.
type StepKind uint8

// Step kinds.
const (
	Method       StepKind = iota + 1 // ->m(): the method's result
	Prop                             // ->p: the property
	StaticMethod                     // ::m(): the static method's result
	StaticProp                       // ::$p: the static property
	Elem                             // an element of an array or an ArrayAccess object
)

// Step is one step of an alternative; Name is empty for Elem.
type Step struct {
	Kind StepKind
	Name string
}

// Alt is one alternative: a base and its steps.
type Alt struct {
	base  Base
	steps []Step
	text  string
}

// Base returns the alternative's base.
func (a Alt) Base() Base { return a.base }

// Steps returns the alternative's steps; the caller must not modify them.
func (a Alt) Steps() []Step { return a.steps }

// Desc returns the descriptor whose only alternative is a.
func (a Alt) Desc() Desc { return Desc{alts: []Alt{a}, text: a.text} }

// String returns the alternative's text form.
func (a Alt) String() string { return a.text }

// Desc is a type descriptor: the alternatives a value may be. The zero Desc
// is unknown.
type Desc struct {
	alts []Alt
	text string
}

// Known reports whether d describes anything.
func (d Desc) Known() bool { return len(d.alts) > 0 }

// Alts returns the alternatives; the caller must not modify them.
func (d Desc) Alts() []Alt { return d.alts }

// Equal reports whether d and e describe the same alternatives in the same
// order.
func (d Desc) Equal(e Desc) bool { return d.text == e.text }

// String returns the text form of d ("" when unknown). Distinct descriptors
// have distinct texts, so the text is also a key.
func (d Desc) String() string { return d.text }

// Len is the length of d's text form: a front end bounds descriptors by it.
func (d Desc) Len() int { return len(d.text) }

// NewClass describes an object of class name (fully qualified, a leading
// backslash is dropped). A name that cannot be written gives the unknown
// Desc.
func NewClass(name string) Desc {
	name = strings.TrimPrefix(name, `\`)
	if !validName(name) {
		return Desc{}
	}
	return alt(Base{Kind: Class, Name: name}, nil).Desc()
}

// NewStatic describes the class a method is called on.
func NewStatic() Desc { return alt(Base{Kind: Static}, nil).Desc() }

// NewFunc describes the result of the first of the functions names that
// exists.
func NewFunc(names ...string) Desc {
	if len(names) == 0 {
		return Desc{}
	}
	fs := make([]string, len(names))
	for i, n := range names {
		fs[i] = strings.TrimPrefix(n, `\`)
		if !validName(fs[i]) {
			return Desc{}
		}
	}
	return alt(Base{Kind: Func, Funcs: fs}, nil).Desc()
}

// NewGlobal describes global variable name (without $).
func NewGlobal(name string) Desc {
	if !validName(name) {
		return Desc{}
	}
	return alt(Base{Kind: Global, Name: name}, nil).Desc()
}

// Join returns the alternatives of each of ds in order, duplicates kept.
func Join(ds ...Desc) Desc {
	var out Desc
	for _, d := range ds {
		if !d.Known() {
			continue
		}
		if !out.Known() {
			out = d
			continue
		}
		out = Desc{alts: append(append([]Alt(nil), out.alts...), d.alts...), text: out.text + "|" + d.text}
	}
	return out
}

// Union returns the alternatives of a and then those of b that a lacks; an
// unknown side adds nothing.
func Union(a, b Desc) Desc {
	switch {
	case !a.Known():
		return b
	case !b.Known() || a.Equal(b):
		return a
	}
	var out []Alt
	seen := map[string]bool{}
	for _, x := range append(append([]Alt(nil), a.alts...), b.alts...) {
		if !seen[x.text] {
			seen[x.text] = true
			out = append(out, x)
		}
	}
	return fromAlts(out)
}

// Either describes a value that is an a or a b, typed only where both are:
// the strict group of their union, or a itself when they are equal. It is
// unknown when either is.
func Either(a, b Desc) Desc {
	switch {
	case !a.Known() || !b.Known():
		return Desc{}
	case a.Equal(b):
		return a
	}
	return alt(Base{Kind: Group, Group: Union(a, b), Strict: true}, nil).Desc()
}

// Then returns d followed by step s: the step applies to each alternative.
// Several alternatives are grouped first, and so is one that starts from a
// group, which keeps one step on a group (`((!A|B)->m())->n()`, not
// `(!A|B)->m()->n()`: both evaluate alike, the text is the one front ends
// have always bounded by length). It is unknown when d is.
func (d Desc) Then(s Step) Desc {
	if !d.Known() || s.Kind < Method || s.Kind > Elem || (s.Kind != Elem && !validName(s.Name)) {
		return Desc{}
	}
	if s.Kind == Elem {
		s.Name = ""
	}
	if len(d.alts) > 1 || d.alts[0].base.Kind == Group {
		return alt(Base{Kind: Group, Group: d}, []Step{s}).Desc()
	}
	a := d.alts[0]
	return alt(a.base, append(append([]Step(nil), a.steps...), s)).Desc()
}

// ArrayOf describes an array of d, which must be one class or array of a
// class without steps; anything else gives the unknown Desc.
func (d Desc) ArrayOf() Desc {
	if len(d.alts) != 1 || d.alts[0].base.Kind != Class || len(d.alts[0].steps) > 0 {
		return Desc{}
	}
	b := d.alts[0].base
	b.Dims++
	return alt(b, nil).Desc()
}

// Dims is the array nesting of a class alternative, 0 for any other.
func (a Alt) Dims() int {
	if a.base.Kind == Class && len(a.steps) == 0 {
		return a.base.Dims
	}
	return 0
}

// IsStatic reports whether a is `static` without steps.
func (a Alt) IsStatic() bool { return a.base.Kind == Static && len(a.steps) == 0 }

// alt builds an alternative and its text.
func alt(b Base, steps []Step) Alt {
	var sb strings.Builder
	switch b.Kind {
	case Class:
		sb.WriteString(`\`)
		sb.WriteString(b.Name)
		for i := 0; i < b.Dims; i++ {
			sb.WriteString("[]")
		}
	case Static:
		sb.WriteString("static")
	case Func:
		sb.WriteString("@")
		for i, f := range b.Funcs {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(`\`)
			sb.WriteString(f)
		}
	case Global:
		sb.WriteString("$")
		sb.WriteString(b.Name)
	case Group:
		sb.WriteString("(")
		if b.Strict {
			sb.WriteString("!")
		}
		sb.WriteString(b.Group.text)
		sb.WriteString(")")
	}
	for _, s := range steps {
		sb.WriteString(s.String())
	}
	return Alt{base: b, steps: steps, text: sb.String()}
}

// String returns the step's text form.
func (s Step) String() string {
	switch s.Kind {
	case Method:
		return "->" + s.Name + "()"
	case Prop:
		return "->" + s.Name
	case StaticMethod:
		return "::" + s.Name + "()"
	case StaticProp:
		return "::$" + s.Name
	case Elem:
		return "*"
	}
	return ""
}

func fromAlts(alts []Alt) Desc {
	if len(alts) == 0 {
		return Desc{}
	}
	texts := make([]string, len(alts))
	for i, a := range alts {
		texts[i] = a.text
	}
	return Desc{alts: alts, text: strings.Join(texts, "|")}
}

// reserved are the bytes of the text form's punctuation; a name holds none.
const reserved = "|()!*,[]:-<>$@"

// validName reports whether s can be written as a name in the text form.
func validName(s string) bool {
	return s != "" && !strings.ContainsAny(s, reserved) && !strings.HasPrefix(s, `\`)
}

// Last returns the alternative without its last step, and that step; ok is
// false when a has no steps.
func (a Alt) Last() (rest Desc, last Step, ok bool) {
	if len(a.steps) == 0 {
		return Desc{}, Step{}, false
	}
	n := len(a.steps) - 1
	return alt(a.base, a.steps[:n:n]).Desc(), a.steps[n], true
}
