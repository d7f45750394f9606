// This file reads the text form of a descriptor, which the extraction cache
// stores and test output shows. The grammar (String writes it):
//
//	desc  = alt { "|" alt }                          ("" is unknown)
//	alt   = base { step }
//	base  = "\" name { "[]" }                         a class, an array of one
//	      | "static"                                  the class a method is called on
//	      | "@\" name { ",\" name }                   a function's result
//	      | "$" name                                  a global variable
//	      | "(" [ "!" ] desc ")"                      a group; "!" strict
//	step  = "->" name "()" | "->" name | "::" name "()" | "::$" name | "*"

package typ

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSyntax is returned, wrapped, for text that is not a descriptor.
var ErrSyntax = errors.New("not a type descriptor")

// maxGroupDepth bounds the nesting of groups Parse accepts.
const maxGroupDepth = 64

// Parse reads the text form of a descriptor: Parse(d.String()) equals d.
func Parse(s string) (Desc, error) {
	if s == "" {
		return Desc{}, nil
	}
	p := parser{s: s}
	d := p.desc(0)
	if p.err == nil && p.i < len(s) {
		p.fail("unexpected %q", s[p.i])
	}
	if p.err != nil {
		return Desc{}, p.err
	}
	return d, nil
}

// MustParse is Parse for text known to be valid; it panics otherwise.
func MustParse(s string) Desc {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

type parser struct {
	s   string
	i   int
	err error
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: %q at %d: %s", ErrSyntax, p.s, p.i, fmt.Sprintf(format, args...))
	}
}

func (p *parser) desc(depth int) Desc {
	var alts []Alt
	for p.err == nil {
		alts = append(alts, p.alt(depth))
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		break
	}
	if p.err != nil {
		return Desc{}
	}
	return fromAlts(alts)
}

func (p *parser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

// name reads a name: the bytes up to the next punctuation.
func (p *parser) name() string {
	j := p.i
	for j < len(p.s) && strings.IndexByte(reserved, p.s[j]) < 0 {
		j++
	}
	n := p.s[p.i:j]
	p.i = j
	if !validName(n) {
		p.fail("bad name %q", n)
	}
	return n
}

func (p *parser) alt(depth int) Alt {
	var b Base
	switch {
	case p.eat(`\`):
		b = Base{Kind: Class, Name: p.name()}
		for p.eat("[]") {
			b.Dims++
		}
	case p.eat("@"):
		b = Base{Kind: Func}
		for {
			if !p.eat(`\`) {
				p.fail(`function name without \`)
				return Alt{}
			}
			b.Funcs = append(b.Funcs, p.name())
			if p.err != nil || !p.eat(",") {
				break
			}
		}
	case p.eat("$"):
		b = Base{Kind: Global, Name: p.name()}
	case p.eat("("):
		if depth >= maxGroupDepth {
			p.fail("groups nested too deep")
			return Alt{}
		}
		b = Base{Kind: Group, Strict: p.eat("!")}
		b.Group = p.desc(depth + 1)
		if !p.eat(")") {
			p.fail("unclosed group")
		}
	case p.eat("static"):
		b = Base{Kind: Static}
	default:
		p.fail("no base")
	}
	var steps []Step
	for p.err == nil && p.i < len(p.s) {
		var s Step
		switch {
		case p.eat("*"):
			s = Step{Kind: Elem}
		case p.eat("::$"):
			s = Step{Kind: StaticProp, Name: p.name()}
		case p.eat("::"):
			s = Step{Kind: StaticMethod, Name: p.name()}
			if !p.eat("()") {
				p.fail("static step without ()")
			}
		case p.eat("->"):
			s = Step{Kind: Prop, Name: p.name()}
			if p.eat("()") {
				s.Kind = Method
			}
		default:
			return alt(b, steps)
		}
		steps = append(steps, s)
	}
	if p.err != nil {
		return Alt{}
	}
	return alt(b, steps)
}
