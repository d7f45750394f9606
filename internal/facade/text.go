// This file renders an answer as compact text, the form a model reads
// (MCP's default, `ragraf query --format text`): a header line only for what
// is not at its default, then one line per fact, path:line first, then the
// qualified name, the kind, and `derived` only when derived. Ids of 32 hex
// digits are left out: every operation takes the qualified name or the
// path:line the line shows. The JSON envelope (FT-16) is the other encoding.

package facade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// TextDefaults says, for the MCP instructions, how an absent header reads.
const TextDefaults = "no header line means: current revision, full capability, no drift, nothing stale, found, complete"

// RenderText writes env as compact text lines.
func RenderText(env *Envelope) string {
	var b strings.Builder
	textHeader(&b, env)
	raw, err := marshalNoEscape(env.Result)
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	v, err := decodeOrdered(raw)
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	if o, ok := v.(*ordered); ok {
		if xs, ok := soleList(o); ok {
			// the answer is one list: its name says nothing the tool's does not
			for _, x := range xs {
				if xo, ok := x.(*ordered); ok {
					b.WriteString(factLine(xo) + "\n")
					textChildren(&b, "  ", xo)
				}
			}
			return b.String()
		}
		textObject(&b, "", o)
	} else if s := scalar(v); s != "" {
		b.WriteString(s + "\n")
	}
	return b.String()
}

// soleList returns the list of facts that is all o holds, if it is.
func soleList(o *ordered) ([]any, bool) {
	var list []any
	for _, v := range o.vals {
		switch x := v.(type) {
		case []any:
			if len(x) == 0 {
				continue
			}
			if xo, ok := x[0].(*ordered); !ok || !isFact(xo) || list != nil {
				return nil, false
			}
			list = x
		default:
			if inline("v", v) != "" {
				return nil, false
			}
		}
	}
	return list, list != nil
}

// textHeader writes one line for each envelope field that is not at its
// default.
func textHeader(b *strings.Builder, env *Envelope) {
	if c := env.Capability; c.Level != "" && c.Level != "full" {
		line := "capability: " + c.Level
		if c.Reason != "" {
			line += " (" + c.Reason + ")"
		}
		b.WriteString(line + "\n")
	}
	if env.Provenance != "" && env.Provenance != "index" {
		b.WriteString("provenance: " + env.Provenance + "\n")
	}
	if env.Drift.Entries != 0 || env.Drift.Unacked != 0 {
		fmt.Fprintf(b, "drift: %d entries, %d unacknowledged (ragraf_drift lists them)\n", env.Drift.Entries, env.Drift.Unacked)
	}
	for _, sw := range env.StaleWarnings {
		line := "stale: " + sw.Path + " " + sw.Kind
		if r := lineRanges(sw.Lines); r != "" {
			line += " lines " + r
		}
		b.WriteString(line + "\n")
	}
	if env.NotFound {
		b.WriteString("not found\n")
		for _, s := range env.Suggest {
			a, _ := marshalNoEscape(s.Args)
			fmt.Fprintf(b, "try: %s %s (%s)\n", s.Op, a, s.Why)
		}
	}
	if env.Limits.Truncated {
		if env.Limits.Cursor == "" { // cut to a budget (repo_map, context): no next page
			fmt.Fprintf(b, "truncated: %d of %d\n", env.Limits.Returned, env.Limits.Total)
		} else {
			fmt.Fprintf(b, "truncated: %d of %d; next page: cursor %q\n", env.Limits.Returned, env.Limits.Total, env.Limits.Cursor)
		}
	}
}

// lineRanges writes start,end pairs as "40-52,60".
func lineRanges(ls []int) string {
	var parts []string
	for i := 0; i+1 < len(ls); i += 2 {
		if ls[i] == ls[i+1] {
			parts = append(parts, strconv.Itoa(ls[i]))
		} else {
			parts = append(parts, strconv.Itoa(ls[i])+"-"+strconv.Itoa(ls[i+1]))
		}
	}
	return strings.Join(parts, ",")
}

// textObject writes a result object: scalars as "key: value" (zero values
// left out), lists of facts one line each under "key:", nested objects
// with their key as a prefix, multi-line strings as they are.
func textObject(b *strings.Builder, prefix string, o *ordered) {
	for i, k := range o.keys {
		v := o.vals[i]
		switch x := v.(type) {
		case []any:
			textList(b, prefix+k, x)
		case *ordered:
			if isFact(x) {
				b.WriteString(prefix + k + ": " + factLine(x) + "\n")
				textChildren(b, "  ", x)
				continue
			}
			textObject(b, prefix+k+".", x)
		case string:
			if strings.Contains(x, "\n") {
				b.WriteString(prefix + k + ":\n" + x)
				if !strings.HasSuffix(x, "\n") {
					b.WriteString("\n")
				}
				continue
			}
			if x != "" && !isID(k, x) {
				b.WriteString(prefix + k + ": " + x + "\n")
			}
		default:
			if s := scalar(v); s != "" {
				b.WriteString(prefix + k + ": " + s + "\n")
			}
		}
	}
}

func textList(b *strings.Builder, key string, xs []any) {
	if len(xs) == 0 {
		return
	}
	if _, ok := xs[0].(*ordered); !ok {
		var ss []string
		for _, x := range xs {
			if s := scalar(x); s != "" {
				ss = append(ss, s)
			}
		}
		if len(ss) > 0 {
			b.WriteString(key + ": " + strings.Join(ss, ", ") + "\n")
		}
		return
	}
	b.WriteString(key + ":\n")
	for _, x := range xs {
		o, ok := x.(*ordered)
		if !ok {
			continue
		}
		if isFact(o) {
			b.WriteString(factLine(o) + "\n")
			textChildren(b, "  ", o)
			continue
		}
		b.WriteString(compactLine(o) + "\n")
	}
}

// textChildren writes an outline item's members, indented.
func textChildren(b *strings.Builder, indent string, o *ordered) {
	kids, _ := o.get("children").([]any)
	for _, k := range kids {
		if ko, ok := k.(*ordered); ok {
			b.WriteString(indent + factLine(ko) + "\n")
			textChildren(b, indent+"  ", ko)
		}
	}
}

// isFact says whether o names a place: at, or path (with line).
func isFact(o *ordered) bool {
	if s, ok := o.get("at").(string); ok && s != "" {
		return true
	}
	_, hasLine := o.get("line").(json.Number)
	s, ok := o.get("path").(string)
	return ok && s != "" && hasLine
}

// factKeys are written by factLine in its fixed columns.
var factKeys = map[string]bool{
	"at": true, "path": true, "line": true, "end_line": true, "qname": true, "name": true, "kind": true,
	"derived": true, "provenance": true, "depth": true, "stale": true, "children": true, "id": true,
	"container_id": true, "signature": true,
}

// factLine is one fact: place, name, kind, then what is not at its default.
func factLine(o *ordered) string {
	place, _ := o.get("at").(string)
	if place == "" {
		place, _ = o.get("path").(string)
		if l, ok := o.get("line").(json.Number); ok {
			place += ":" + l.String()
		}
	}
	if e, ok := o.get("end_line").(json.Number); ok && e.String() != "0" && !strings.HasSuffix(place, ":"+e.String()) {
		place += "-" + e.String()
	}
	cols := []string{place}
	name, _ := o.get("qname").(string)
	if name == "" {
		name, _ = o.get("name").(string)
	}
	if name == "" {
		if id, ok := o.get("id").(string); ok && !isID("id", id) {
			name = id
		}
	}
	if name != "" {
		cols = append(cols, name)
	}
	if k, _ := o.get("kind").(string); k != "" {
		cols = append(cols, k)
	}
	if d, _ := o.get("derived").(bool); d || o.get("provenance") == "derived" {
		cols = append(cols, "derived")
	}
	if d, ok := o.get("depth").(json.Number); ok && d.String() != "0" && d.String() != "1" {
		cols = append(cols, "depth "+d.String())
	}
	switch st := o.get("stale").(type) {
	case bool:
		if st {
			cols = append(cols, "stale")
		}
	case *ordered:
		mark := "stale"
		if k, _ := st.get("kind").(string); k != "" {
			mark += " (" + k + ")"
		}
		cols = append(cols, mark)
	}
	for i, k := range o.keys {
		if factKeys[k] {
			continue
		}
		if s := inline(k, o.vals[i]); s != "" {
			cols = append(cols, s)
		}
	}
	if s, _ := o.get("signature").(string); s != "" {
		cols = append(cols, s)
	}
	return strings.Join(cols, "  ")
}

// compactLine is an object that names no place, as key=value pairs.
func compactLine(o *ordered) string {
	var cols []string
	for i, k := range o.keys {
		if s := inline(k, o.vals[i]); s != "" {
			cols = append(cols, s)
		}
	}
	return strings.Join(cols, "  ")
}

// inline writes one field inside a line as key=value; zero values, 32-digit
// ids and empty lists are left out, a nested fact is its place and name.
func inline(k string, v any) string {
	switch x := v.(type) {
	case string:
		if x == "" || isID(k, x) {
			return ""
		}
		if strings.ContainsAny(x, " \n\t") {
			return k + "=" + strconv.Quote(x)
		}
		return k + "=" + x
	case *ordered:
		if isFact(x) {
			return k + "=" + strings.ReplaceAll(factLine(x), "  ", " ")
		}
		if q, _ := x.get("qname").(string); q != "" {
			return k + "=" + q
		}
		if len(x.keys) == 0 {
			return ""
		}
		return k + "={" + compactLine(x) + "}"
	case []any:
		if len(x) == 0 {
			return ""
		}
		var ss []string
		for _, e := range x {
			switch ee := e.(type) {
			case *ordered:
				if isFact(ee) {
					ss = append(ss, strings.ReplaceAll(factLine(ee), "  ", " "))
				} else {
					ss = append(ss, "{"+compactLine(ee)+"}")
				}
			default:
				if s := scalar(e); s != "" {
					ss = append(ss, s)
				}
			}
		}
		return k + "=[" + strings.Join(ss, "; ") + "]"
	default:
		if s := scalar(v); s != "" {
			return k + "=" + s
		}
	}
	return ""
}

// scalar writes a number or true; zero, false and null are "".
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		if x.String() == "0" {
			return ""
		}
		return x.String()
	case bool:
		if x {
			return "true"
		}
	}
	return ""
}

// isID says whether v is a node id of 32 hex digits (or a field that only
// holds one), which the text form leaves out.
func isID(k, v string) bool {
	if k == "container_id" || k == "function" || k == "callee" { // function_name, callee_name beside them name them
		return true
	}
	if len(v) != 32 {
		return false
	}
	for _, c := range v {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ordered is a JSON object with its keys in the order written, so that the
// text follows the order of the result's Go fields.
type ordered struct {
	keys []string
	vals []any
}

func (o *ordered) get(k string) any {
	for i, kk := range o.keys {
		if kk == k {
			return o.vals[i]
		}
	}
	return nil
}

func decodeOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := t.(type) {
	case json.Delim:
		switch d {
		case '{':
			o := &ordered{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, kt.(string))
				o.vals = append(o.vals, v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			xs := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				xs = append(xs, v)
			}
			_, err := dec.Token()
			return xs, err
		}
	}
	return t, nil
}
