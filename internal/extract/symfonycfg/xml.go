// This file reads Symfony's XML routing format: <route id path controller
// methods> with <default key="_controller">, and <import resource prefix
// name-prefix type>.

package symfonycfg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// readXML reads an XML routing file token by token; entities are not
// expanded (encoding/xml knows only the predefined ones).
func readXML(file string, data []byte) (File, error) {
	var out File
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	var cur *Route // the <route> open
	inCtl := false // inside <default key="_controller">
	var ctl []byte // its text
	lineAt := func() int { l, _ := dec.InputPos(); return l }
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t)
			switch t.Name.Local {
			case "import":
				im := Import{Name: a["id"], Path: file, Line: lineAt(), Prefix: a["prefix"], NamePrefix: a["name-prefix"]}
				if im.Name == "" {
					im.Name = a["resource"]
				}
				out.add(im, a["resource"], a["type"])
			case "route":
				r := Route{Name: a["id"], Path: CleanPath(a["path"]), Controller: a["controller"], Line: lineAt()}
				for _, m := range strings.FieldsFunc(a["methods"], func(r rune) bool { return r == '|' || r == ',' || r == ' ' }) {
					r.Methods = append(r.Methods, strings.ToUpper(m))
				}
				cur = &r
			case "default":
				if cur != nil && a["key"] == "_controller" {
					inCtl, ctl = true, ctl[:0]
				}
			}
		case xml.CharData:
			if inCtl {
				ctl = append(ctl, t...)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "default":
				if inCtl && cur.Controller == "" {
					cur.Controller = strings.TrimSpace(string(ctl))
				}
				inCtl = false
			case "route":
				if cur != nil {
					cur.EndLine = lineAt()
					if cur.Name != "" && cur.Path != "" {
						out.Routes = append(out.Routes, *cur)
					}
					cur = nil
				}
			}
		}
	}
	return out, nil
}

func attrs(t xml.StartElement) map[string]string {
	m := make(map[string]string, len(t.Attr))
	for _, a := range t.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}
