// Package onnxtest writes a tiny randomly initialised BERT encoder as an ONNX
// file, for tests that need a sentence model without downloading weights.
// The protobuf is encoded by hand with protowire (the few ONNX messages it
// needs: ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto), so no ONNX library is needed.
//
// The graph is a standard BERT: word, position and token-type embeddings,
// LayerNormalization, Layers self-attention blocks (Heads heads, GELU by erf
// in the feed-forward part) and the output last_hidden_state [batch, seq,
// Hidden]. Inputs input_ids, attention_mask and token_type_ids are int64
// [batch, seq]. Opset 17.
package onnxtest

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/encoding/protowire"
)

// BERT is the shape of the model to write.
type BERT struct {
	Vocab, Hidden, Layers, Heads, Intermediate, MaxPos int
	Seed                                               uint64
}

// Tiny is the default test shape: 2 layers, hidden 32, about 220 KB.
var Tiny = BERT{Vocab: 1000, Hidden: 32, Layers: 2, Heads: 4, Intermediate: 64, MaxPos: 130, Seed: 1}

// Write writes the model as dir/model.onnx and returns its path.
func Write(dir string, b BERT) (string, error) {
	p := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(p, b.Encode(), 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	return p, nil
}

// ONNX enum values used here.
const (
	tFloat = 1
	tInt64 = 7

	aFloat = 1
	aInt   = 2
	aInts  = 7
)

type graph struct {
	body []byte // repeated fields of GraphProto, in order
	rng  *rand.Rand
	n    int
}

func msg(b []byte, num protowire.Number, sub []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, sub)
}

func str(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func varint(b []byte, num protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

type attr []byte

func attrInt(name string, v int64) attr {
	b := str(nil, 1, name)
	b = varint(b, 3, v)
	return varint(b, 20, aInt)
}

func attrInts(name string, vs ...int64) attr {
	b := str(nil, 1, name)
	for _, v := range vs {
		b = varint(b, 8, v)
	}
	return varint(b, 20, aInts)
}

func attrFloat(name string, v float32) attr {
	b := str(nil, 1, name)
	b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, math.Float32bits(v))
	return varint(b, 20, aFloat)
}

// node appends one node and returns its output's name.
func (g *graph) node(op string, in []string, attrs ...attr) string {
	g.n++
	return g.nodeTo(fmt.Sprintf("%s_%d", op, g.n), op, in, attrs...)
}

// nodeTo appends one node whose output is named out.
func (g *graph) nodeTo(out, op string, in []string, attrs ...attr) string {
	var b []byte
	for _, s := range in {
		b = str(b, 1, s)
	}
	b = str(b, 2, out)
	b = str(b, 3, out)
	b = str(b, 4, op)
	for _, a := range attrs {
		b = msg(b, 5, a)
	}
	g.body = msg(g.body, 1, b)
	return out
}

func tensor(name string, dtype int64, dims []int64, raw []byte) []byte {
	var b []byte
	for _, d := range dims {
		b = varint(b, 1, d)
	}
	b = varint(b, 2, dtype)
	b = str(b, 8, name)
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

func (g *graph) floats(name string, data []float32, dims ...int64) string {
	raw := make([]byte, 4*len(data))
	for i, x := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	g.body = msg(g.body, 5, tensor(name, tFloat, dims, raw))
	return name
}

func (g *graph) ints(name string, data []int64, dims ...int64) string {
	raw := make([]byte, 8*len(data))
	for i, x := range data {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(x))
	}
	g.body = msg(g.body, 5, tensor(name, tInt64, dims, raw))
	return name
}

// random is a weight of the given shape, uniform in [-scale, scale).
func (g *graph) random(name string, scale float64, dims ...int64) string {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32((g.rng.Float64()*2 - 1) * scale)
	}
	return g.floats(name, data, dims...)
}

func (g *graph) constant(name string, v float32, n int) string {
	data := make([]float32, n)
	for i := range data {
		data[i] = v
	}
	return g.floats(name, data, int64(n))
}

// valueInfo is a ValueInfoProto with a tensor type whose dims are symbolic
// names ("" for none) or fixed sizes.
func valueInfo(name string, elem int64, dims ...any) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		switch d := d.(type) {
		case int:
			dim = varint(nil, 1, int64(d))
		case string:
			dim = str(nil, 2, d)
		}
		shape = msg(shape, 1, dim)
	}
	tt := varint(nil, 1, elem)
	tt = msg(tt, 2, shape)
	typ := msg(nil, 1, tt)
	b := str(nil, 1, name)
	return msg(b, 2, typ)
}

func (g *graph) layerNorm(x, prefix string, h int) string {
	scale := make([]float32, h)
	for i := range scale {
		scale[i] = float32(1 + (g.rng.Float64()*2-1)*0.1)
	}
	g.floats(prefix+".gamma", scale, int64(h))
	g.random(prefix+".beta", 0.1, int64(h))
	return g.node("LayerNormalization", []string{x, prefix + ".gamma", prefix + ".beta"}, attrInt("axis", -1), attrFloat("epsilon", 1e-12))
}

func (g *graph) linear(x, prefix string, in, out int) string {
	w := g.random(prefix+".w", 1/math.Sqrt(float64(in)), int64(in), int64(out))
	b := g.random(prefix+".b", 0.05, int64(out))
	return g.node("Add", []string{g.node("MatMul", []string{x, w}), b})
}

// Encode returns the model's bytes.
func (b BERT) Encode() []byte {
	g := &graph{rng: rand.New(rand.NewPCG(b.Seed, 0x6f6e6e78))}
	h, hd := b.Hidden, b.Hidden/b.Heads

	word := g.random("emb.word", 1, int64(b.Vocab), int64(h))
	pos := g.random("emb.pos", 0.5, int64(b.MaxPos), int64(h))
	typ := g.random("emb.type", 0.5, 2, int64(h))
	seqLen := g.node("Shape", []string{"input_ids"}, attrInt("start", 1), attrInt("end", 2))
	zero := g.ints("c.zero", []int64{0}, 1)
	posRows := g.node("Slice", []string{pos, zero, seqLen, zero})
	x := g.node("Add", []string{g.node("Gather", []string{word, "input_ids"}), posRows})
	x = g.node("Add", []string{x, g.node("Gather", []string{typ, "token_type_ids"})})
	x = g.layerNorm(x, "emb.ln", h)

	// the additive mask: 0 where attended, -10000 where padded, [B,1,1,S]
	mask := g.node("Cast", []string{"attention_mask"}, attrInt("to", tFloat))
	mask = g.node("Sub", []string{g.constant("c.one", 1, 1), mask})
	mask = g.node("Mul", []string{mask, g.constant("c.neg", -10000, 1)})
	mask = g.node("Unsqueeze", []string{mask, g.ints("c.axes12", []int64{1, 2}, 2)})

	heads := g.ints("c.heads", []int64{0, 0, int64(b.Heads), int64(hd)}, 4)
	merged := g.ints("c.merged", []int64{0, 0, int64(h)}, 3)
	scale := g.constant("c.scale", float32(1/math.Sqrt(float64(hd))), 1)
	half := g.constant("c.half", 0.5, 1)
	sqrt2 := g.constant("c.sqrt2", float32(math.Sqrt2), 1)
	one := "c.one"
	for l := 0; l < b.Layers; l++ {
		p := fmt.Sprintf("l%d.", l)
		split := func(name string, perm ...int64) string {
			v := g.linear(x, p+name, h, h)
			return g.node("Transpose", []string{g.node("Reshape", []string{v, heads})}, attrInts("perm", perm...))
		}
		q := split("q", 0, 2, 1, 3)
		k := split("k", 0, 2, 3, 1)
		v := split("v", 0, 2, 1, 3)
		scores := g.node("Add", []string{g.node("Mul", []string{g.node("MatMul", []string{q, k}), scale}), mask})
		probs := g.node("Softmax", []string{scores}, attrInt("axis", -1))
		ctx := g.node("Transpose", []string{g.node("MatMul", []string{probs, v})}, attrInts("perm", 0, 2, 1, 3))
		ctx = g.node("Reshape", []string{ctx, merged})
		x = g.layerNorm(g.node("Add", []string{x, g.linear(ctx, p+"o", h, h)}), p+"ln1", h)

		f := g.linear(x, p+"ff1", h, b.Intermediate)
		erf := g.node("Erf", []string{g.node("Div", []string{f, sqrt2})})
		f = g.node("Mul", []string{g.node("Mul", []string{f, half}), g.node("Add", []string{erf, one})})
		f = g.linear(f, p+"ff2", b.Intermediate, h)
		x = g.layerNorm(g.node("Add", []string{x, f}), p+"ln2", h)
	}
	last := g.nodeTo("last_hidden_state", "Identity", []string{x})

	body := str(g.body, 2, "tiny_bert")
	for _, in := range []string{"input_ids", "attention_mask", "token_type_ids"} {
		body = msg(body, 11, valueInfo(in, tInt64, "batch", "sequence"))
	}
	body = msg(body, 12, valueInfo(last, tFloat, "batch", "sequence", h))

	var m []byte
	m = varint(m, 1, 8) // IR version 8
	m = str(m, 2, "ragraf-onnxtest")
	m = msg(m, 7, body)
	m = msg(m, 8, varint(str(nil, 1, ""), 2, 17))
	return m
}
