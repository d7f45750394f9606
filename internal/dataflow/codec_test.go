package dataflow

import (
	"errors"
	"reflect"
	"testing"
)

func sampleFuncs() []*Func {
	top := &Func{Path: "a.php", StartLine: 1, EndLine: 20, TopLevel: true,
		Nodes: []Node{{Line: 2, Kind: "source", Loc: Loc{Kind: Superglobal, Name: "_GET", Key: "id"}, Call: -1},
			{Line: 2, Kind: "assign", Loc: Loc{Kind: Local, Name: "id"}, In: []In{{From: 0, Kind: Assign}}, Call: -1},
			{Line: 3, Kind: "arg", Loc: Loc{Kind: Arg, Name: "run", Index: 1}, In: []In{{From: 1, Kind: Sanitize, Note: "(int)"}}, Call: 0, Ctrl: 2},
			{Line: 3, Kind: "call", Loc: Loc{Kind: CallResult, Name: "run"}, In: []In{{From: 2, Kind: CallEdge}}, Call: 0}},
		Calls:     []Call{{Line: 3, Name: "run", Receiver: "db", Method: true, Dynamic: true, Literal: "php://input", Args: []int{2}, Result: 3}},
		Imprecise: []string{"imprecise: global", "variable variable"},
		Conds:     []Cond{{Line: 2, Kind: "if", In: []In{{From: 1, Kind: Operand}}}, {Line: 3, Kind: "?:", Ctrl: 1}}}
	fn := &Func{Path: "a.php", Name: "run", Class: "Db", StartLine: 5, EndLine: 9,
		Nodes: []Node{{Line: 5, Kind: "param", Loc: Loc{Kind: Param, Name: "x", Index: 0}, Call: -1},
			{Line: 7, Kind: "return", Loc: Loc{Kind: Return}, In: []In{{From: 0, Kind: Concat}}, Call: -1}},
		Params: []int{0}, Returns: []int{1}, RestParam: true, Public: []string{"id", "name"}}
	big := &Func{Path: "a.php", Name: "huge", StartLine: 10, EndLine: 19, Skipped: TooLarge}
	return []*Func{top, fn, big}
}

// TestIRCodecRoundTrip: what a build stores decodes to the functions it
// lowered, every field.
func TestIRCodecRoundTrip(t *testing.T) {
	in := sampleFuncs()
	out, err := Decode(Encode(in))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		for i := range in {
			if !reflect.DeepEqual(in[i], out[i]) {
				t.Errorf("func %d:\n got %+v\nwant %+v", i, out[i], in[i])
			}
		}
	}
	if fs, err := Decode(Encode(nil)); err != nil || len(fs) != 0 {
		t.Errorf("empty file: %v %v", fs, err)
	}
}

// TestIRCodecRejectsCorrupt: a cut, altered or foreign encoding is an
// error, never a panic, and never functions whose references leave their
// nodes (a query would index past them).
func TestIRCodecRejectsCorrupt(t *testing.T) {
	b := Encode(sampleFuncs())
	for n := 0; n < len(b); n++ {
		if _, err := Decode(b[:n]); !errors.Is(err, ErrCodec) {
			t.Fatalf("prefix of %d bytes decoded (err %v)", n, err)
		}
	}
	bad := sampleFuncs()
	bad[1].Nodes[1].In[0].From = 7
	if _, err := Decode(Encode(bad)); !errors.Is(err, ErrCodec) {
		t.Errorf("an edge from node 7 of 2 decoded: %v", err)
	}
	bad = sampleFuncs()
	bad[0].Nodes[2].Ctrl = 3
	if _, err := Decode(Encode(bad)); !errors.Is(err, ErrCodec) {
		t.Errorf("a node under condition 3 of 2 decoded: %v", err)
	}
	bad = sampleFuncs()
	bad[0].Conds[0].In[0].From = 9
	if _, err := Decode(Encode(bad)); !errors.Is(err, ErrCodec) {
		t.Errorf("a condition reading node 9 of 4 decoded: %v", err)
	}
	other := append([]byte{9}, b[1:]...)
	if _, err := Decode(other); !errors.Is(err, ErrCodec) {
		t.Errorf("another version decoded: %v", err)
	}
}
