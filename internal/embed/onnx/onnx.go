// Package onnx runs sentence-transformer models in ONNX through ONNX Runtime
// (github.com/yalue/onnxruntime_go), loaded at run time: ragraf builds and
// runs without the library, and a missing one is an error that says where
// it was looked for, never a crash.
//
// A model's token embeddings (last_hidden_state) are mean-pooled over the
// attention mask and L2-normalised, the sentence-transformers recipe for
// MiniLM models. Inputs are batched by length so that padding stays short;
// padding is masked, so a text's vector does not depend on its batch.
package onnx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	ort "github.com/yalue/onnxruntime_go"
)

// LibEnv names the environment variable holding the shared library's path.
const LibEnv = "RAGRAF_ORT_LIB"

// libNames are the file names of the shared library, looked for in order.
var libNames = []string{"libonnxruntime.so", "libonnxruntime.so.1", "libonnxruntime.dylib", "onnxruntime.dll"}

// systemDirs are the directories searched after the flag and the variable.
var systemDirs = []string{"/usr/local/lib", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/opt/homebrew/lib"}

// ErrNoLibrary is returned when no ONNX Runtime shared library is found.
var ErrNoLibrary = errors.New("no ONNX Runtime library found")

// FindLibrary returns the path of the ONNX Runtime shared library: flag
// (the --ort-lib value) when set, else $RAGRAF_ORT_LIB, else the first of the
// system paths and then of runtimeDir (where `ragraf model pull` puts it;
// "" skips it) that exists.
func FindLibrary(flag, runtimeDir string) (string, error) {
	for _, p := range []struct{ from, path string }{{"--ort-lib", flag}, {LibEnv, os.Getenv(LibEnv)}} {
		if p.path == "" {
			continue
		}
		if _, err := os.Stat(p.path); err != nil {
			return "", fmt.Errorf("%w: %s %s does not exist", ErrNoLibrary, p.from, p.path)
		}
		return p.path, nil
	}
	dirs := slices.Clone(systemDirs)
	if runtimeDir != "" {
		dirs = append(dirs, runtimeDir)
	}
	for _, d := range dirs {
		for _, n := range libNames {
			p := filepath.Join(d, n)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%w (looked at --ort-lib, $%s, the system library directories and %s; `ragraf model pull` installs one)", ErrNoLibrary, LibEnv, runtimeDir)
}

var (
	initMu  sync.Mutex
	initLib string
	initErr error
)

// Init loads the shared library at lib and creates the runtime's
// environment, once per process; later calls return the first call's result.
func Init(lib string) error {
	initMu.Lock()
	defer initMu.Unlock()
	if initLib != "" {
		if initErr == nil && lib != initLib {
			return fmt.Errorf("ONNX Runtime is already loaded from %s, not %s", initLib, lib)
		}
		return initErr
	}
	initLib = lib
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		initErr = fmt.Errorf("loading ONNX Runtime from %s: %w", lib, err)
	}
	return initErr
}

// Version is the loaded runtime's version, "" before Init.
func Version() string {
	if !ort.IsInitialized() {
		return ""
	}
	return ort.GetVersion()
}

// Options tune a Model.
type Options struct {
	Threads   int // intra-op threads; 2 by default
	MaxTokens int // longer inputs are cut; 128 by default
	Batch     int // texts per run; 32 by default
	PadID     int64
}

// SetDefaults fills the zero fields.
func (o *Options) SetDefaults() {
	if o.Threads <= 0 {
		o.Threads = 2
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = 128
	}
	if o.Batch <= 0 {
		o.Batch = 32
	}
}

// Input is one tokenised text: token ids, token type ids (nil: all 0) and
// the attention mask (nil: all 1).
type Input struct {
	IDs, TypeIDs, Mask []int64
}

// Model is an open sentence model. Its methods are safe for concurrent use.
type Model struct {
	opts    Options
	sess    *ort.DynamicAdvancedSession
	inputs  []string // the model's input names in the order they are fed
	typeIDs bool     // the model takes token_type_ids
	dim     atomic.Int64
}

// Open loads the ONNX file at path; Init must have succeeded.
func Open(path string, opts Options) (*Model, error) {
	opts.SetDefaults()
	if !ort.IsInitialized() {
		return nil, errors.New("ONNX Runtime is not loaded")
	}
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("session options: %w", err)
	}
	defer so.Destroy()
	if err := so.SetIntraOpNumThreads(opts.Threads); err != nil {
		return nil, err
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	ins, outs, err := ort.GetInputOutputInfoWithOptions(path, so)
	if err != nil {
		return nil, fmt.Errorf("reading model %s: %w", path, err)
	}
	m := &Model{opts: opts}
	have := map[string]bool{}
	for _, in := range ins {
		have[in.Name] = true
	}
	for _, n := range []string{"input_ids", "attention_mask"} {
		if !have[n] {
			return nil, fmt.Errorf("model %s has no input %s", path, n)
		}
	}
	m.inputs = []string{"input_ids", "attention_mask"}
	if have["token_type_ids"] {
		m.inputs = append(m.inputs, "token_type_ids")
		m.typeIDs = true
	}
	if len(ins) != len(m.inputs) {
		return nil, fmt.Errorf("model %s has inputs other than input_ids, attention_mask and token_type_ids", path)
	}
	out := -1
	for i, o := range outs {
		if o.Name == "last_hidden_state" || o.Name == "token_embeddings" {
			out = i
			break
		}
		if out < 0 && len(o.Dimensions) == 3 {
			out = i
		}
	}
	if out < 0 {
		return nil, fmt.Errorf("model %s has no token-embedding output [batch, sequence, hidden]", path)
	}
	if d := outs[out].Dimensions; len(d) == 3 && d[2] > 0 {
		m.dim.Store(d[2])
	}
	m.sess, err = ort.NewDynamicAdvancedSession(path, m.inputs, []string{outs[out].Name}, so)
	if err != nil {
		return nil, fmt.Errorf("opening model %s: %w", path, err)
	}
	return m, nil
}

// Dim is the number of dimensions of a vector (0 until known: a model whose
// output size is dynamic tells it on the first run).
func (m *Model) Dim() int { return int(m.dim.Load()) }

// MaxTokens is the longest input the model reads.
func (m *Model) MaxTokens() int { return m.opts.MaxTokens }

// Close frees the session.
func (m *Model) Close() error {
	if m.sess == nil {
		return nil
	}
	err := m.sess.Destroy()
	m.sess = nil
	return err
}

// Embed returns one L2-normalised vector per input, in order. An empty input
// (no tokens) gets a zero vector.
func (m *Model) Embed(ctx context.Context, in []Input) ([][]float32, error) {
	out := make([][]float32, len(in))
	order := make([]int, 0, len(in))
	for i := range in {
		if len(in[i].IDs) > 0 {
			order = append(order, i)
		}
	}
	// by length, so that a batch pads little; stable, so runs repeat
	slices.SortStableFunc(order, func(a, b int) int { return len(in[a].IDs) - len(in[b].IDs) })
	for start := 0; start < len(order); start += m.opts.Batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := order[start:min(start+m.opts.Batch, len(order))]
		vecs, err := m.run(in, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range batch {
			out[i] = vecs[j]
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, m.Dim())
		}
	}
	return out, nil
}

// run embeds the inputs in[batch...] in one session run.
func (m *Model) run(in []Input, batch []int) ([][]float32, error) {
	seq := 0
	for _, i := range batch {
		seq = max(seq, min(len(in[i].IDs), m.opts.MaxTokens))
	}
	n := len(batch) * seq
	ids, mask, types := make([]int64, n), make([]int64, n), make([]int64, n)
	for r, i := range batch {
		x := &in[i]
		for t := range seq {
			k := r*seq + t
			if t >= len(x.IDs) || t >= m.opts.MaxTokens {
				ids[k] = m.opts.PadID
				continue
			}
			ids[k], mask[k] = x.IDs[t], 1
			if x.Mask != nil && t < len(x.Mask) {
				mask[k] = x.Mask[t]
			}
			if x.TypeIDs != nil && t < len(x.TypeIDs) {
				types[k] = x.TypeIDs[t]
			}
		}
	}
	shape := ort.NewShape(int64(len(batch)), int64(seq))
	var values []ort.Value
	defer func() {
		for _, v := range values {
			v.Destroy()
		}
	}()
	feeds := [][]int64{ids, mask}
	if m.typeIDs {
		feeds = append(feeds, types)
	}
	for _, f := range feeds {
		t, err := ort.NewTensor(shape, f)
		if err != nil {
			return nil, fmt.Errorf("input tensor: %w", err)
		}
		values = append(values, t)
	}
	outputs := []ort.Value{nil}
	if err := m.sess.Run(values, outputs); err != nil {
		return nil, fmt.Errorf("running the model: %w", err)
	}
	defer outputs[0].Destroy()
	hidden, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("the model's output is %s, not float32", outputs[0].GetONNXType())
	}
	sh := hidden.GetShape()
	if len(sh) != 3 || sh[0] != int64(len(batch)) || sh[1] != int64(seq) {
		return nil, fmt.Errorf("the model's output has shape %v, want [%d %d hidden]", sh, len(batch), seq)
	}
	dim := int(sh[2])
	m.dim.CompareAndSwap(0, int64(dim))
	return Pool(hidden.GetData(), mask, len(batch), seq, dim), nil
}

// Pool mean-pools token embeddings h [rows, seq, dim] over the mask [rows,
// seq] and L2-normalises each row's mean; sums run in float64.
func Pool(h []float32, mask []int64, rows, seq, dim int) [][]float32 {
	out := make([][]float32, rows)
	acc := make([]float64, dim)
	for r := range rows {
		clear(acc)
		var cnt float64
		for t := range seq {
			if mask[r*seq+t] == 0 {
				continue
			}
			cnt++
			row := h[(r*seq+t)*dim : (r*seq+t+1)*dim]
			for d, x := range row {
				acc[d] += float64(x)
			}
		}
		v := make([]float32, dim)
		var norm float64
		for d := range acc {
			acc[d] /= max(cnt, 1e-9)
			norm += acc[d] * acc[d]
		}
		norm = math.Max(math.Sqrt(norm), 1e-12)
		for d := range acc {
			v[d] = float32(acc[d] / norm)
		}
		out[r] = v
	}
	return out
}
