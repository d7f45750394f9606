// This file holds the bytes of stored summaries: the models' fingerprint
// they were made with, and the encoding of one file's summaries.

package dataflow

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
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
	b := []byte{summaryVersion}
	b = binary.LittleEndian.AppendUint64(b, models)
	n := 0
	for _, id := range ids {
		if sums[id] != nil {
			n++
		}
	}
	b = binary.AppendVarint(b, int64(n))
	for _, id := range ids {
		if s := sums[id]; s != nil {
			b = encodeSummary(b, id, s)
		}
	}
	return b
}

func encodeSummary(b []byte, id string, s *Summary) []byte {
	e := &enc{b: b}
	e.str(id)
	e.b = binary.LittleEndian.AppendUint64(e.b, s.Input)
	e.bool(s.Capped)
	e.int(len(s.Params))
	for i := range s.Params {
		p := &s.Params[i]
		e.bool(p.Return)
		e.int(int(p.Conf * 1000))
		e.bool(p.Open)
		e.strs(p.Stores)
		e.strs(p.Sinks)
	}
	e.ints(s.Ret.Params)
	e.int(len(s.Ret.Conf))
	for _, c := range s.Ret.Conf {
		e.int(int(c * 1000))
	}
	e.strs(s.Ret.Sources)
	e.bool(s.Ret.Open)
	return e.b
}

// ErrSummary is returned for bytes that are not summaries of this version.
var ErrSummary = errors.New("dataflow: not a summary encoding of this version")

// DecodeSummaries reads what EncodeSummaries wrote: the models' fingerprint
// and the summaries by function id.
func DecodeSummaries(b []byte) (uint64, map[string]*Summary, error) {
	if len(b) < 9 || b[0] != summaryVersion {
		return 0, nil, ErrSummary
	}
	models := binary.LittleEndian.Uint64(b[1:9])
	d := &dec{b: b[9:], interned: map[string]string{}}
	n := d.count()
	out := make(map[string]*Summary, n)
	for k := 0; k < n && !d.err; k++ {
		id := d.str()
		if len(d.b) < 8 {
			return 0, nil, ErrSummary
		}
		s := &Summary{Input: binary.LittleEndian.Uint64(d.b[:8])}
		d.b = d.b[8:]
		s.Capped = d.bool()
		s.Params = make([]ParamSummary, d.count())
		for i := range s.Params {
			p := &s.Params[i]
			p.Return = d.bool()
			p.Conf = float64(d.int()) / 1000
			p.Open = d.bool()
			p.Stores = d.strs()
			p.Sinks = d.strs()
		}
		s.Ret.Params = d.ints()
		s.Ret.Conf = make([]float64, d.count())
		for i := range s.Ret.Conf {
			s.Ret.Conf[i] = float64(d.int()) / 1000
		}
		if len(s.Ret.Conf) == 0 {
			s.Ret.Conf = nil
		}
		s.Ret.Sources = d.strs()
		s.Ret.Open = d.bool()
		if len(s.Ret.Conf) != len(s.Ret.Params) {
			return 0, nil, ErrSummary
		}
		out[id] = s
	}
	if d.err || len(d.b) != 0 {
		return 0, nil, ErrSummary
	}
	return models, out, nil
}
