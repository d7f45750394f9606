// This file holds the bytes of stored summaries: the models' fingerprint
// they were made with, and the encoding of one file's summaries.

package dataflow

import (
	"encoding/json"
	"errors"
	"hash/fnv"

	"github.com/ragraf/ragraf/internal/codec"
)

// Fingerprint identifies the models' content: summaries record the sinks
// and sources of the models they were made with, and are not applied under
// others (a project.yaml changed since the build).
func (m *Models) Fingerprint() uint64 {
	b, _ := json.Marshal(m) // maps marshal in key order
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// summaryVersion is the first byte of EncodeSummaries' output.
const summaryVersion = 1

// EncodeSummaries returns the summaries of one file's functions (ids in
// order) as bytes, with the fingerprint of the models they were made with.
func EncodeSummaries(models uint64, ids []string, sums map[string]*Summary) []byte {
	e := &enc{codec.Writer{B: []byte{summaryVersion}}}
	e.Fixed64(models)
	n := 0
	for _, id := range ids {
		if sums[id] != nil {
			n++
		}
	}
	e.Int(n)
	for _, id := range ids {
		if s := sums[id]; s != nil {
			e.summary(id, s)
		}
	}
	return e.B
}

// encodeSummary appends one summary's encoding to b (also what outputHash
// and sameSummary compare).
func encodeSummary(b []byte, id string, s *Summary) []byte {
	e := &enc{codec.Writer{B: b}}
	e.summary(id, s)
	return e.B
}

func (e *enc) summary(id string, s *Summary) {
	e.IntStr(id)
	e.Fixed64(s.Input)
	e.Bool(s.Capped)
	e.Int(len(s.Params))
	for i := range s.Params {
		p := &s.Params[i]
		e.Bool(p.Return)
		e.Int(int(p.Conf * 1000))
		e.Bool(p.Open)
		e.strs(p.Stores)
		e.strs(p.Sinks)
	}
	e.ints(s.Ret.Params)
	e.Int(len(s.Ret.Conf))
	for _, c := range s.Ret.Conf {
		e.Int(int(c * 1000))
	}
	e.strs(s.Ret.Sources)
	e.Bool(s.Ret.Open)
}

// ErrSummary is returned for bytes that are not summaries of this version.
var ErrSummary = errors.New("dataflow: not a summary encoding of this version")

// DecodeSummaries reads what EncodeSummaries wrote: the models' fingerprint
// and the summaries by function id.
func DecodeSummaries(b []byte) (uint64, map[string]*Summary, error) {
	if len(b) < 9 || b[0] != summaryVersion {
		return 0, nil, ErrSummary
	}
	d := newDec(b[1:])
	models := d.Fixed64()
	n := d.IntCount()
	out := make(map[string]*Summary, n)
	for k := 0; k < n && d.Err() == nil; k++ {
		id := d.IntStr()
		s := &Summary{Input: d.Fixed64()}
		s.Capped = d.Bool()
		s.Params = make([]ParamSummary, d.IntCount())
		for i := range s.Params {
			p := &s.Params[i]
			p.Return = d.Bool()
			p.Conf = float64(d.Int()) / 1000
			p.Open = d.Bool()
			p.Stores = d.strs()
			p.Sinks = d.strs()
		}
		s.Ret.Params = d.ints()
		s.Ret.Conf = make([]float64, d.IntCount())
		for i := range s.Ret.Conf {
			s.Ret.Conf[i] = float64(d.Int()) / 1000
		}
		if len(s.Ret.Conf) == 0 {
			s.Ret.Conf = nil
		}
		s.Ret.Sources = d.strs()
		s.Ret.Open = d.Bool()
		if len(s.Ret.Conf) != len(s.Ret.Params) {
			return 0, nil, ErrSummary
		}
		out[id] = s
	}
	if d.Err() != nil || d.Len() != 0 {
		return 0, nil, ErrSummary
	}
	return models, out, nil
}
