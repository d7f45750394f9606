// Package sentence joins a model's tokenizer.json (internal/embed/tokenizer)
// and its ONNX weights (internal/embed/onnx) into one text → vector
// function, for the index (symbols and doc sections) and for search
// (queries). A process loads each model once and shares it.
package sentence

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ragraf/ragraf/internal/embed/models"
	"github.com/ragraf/ragraf/internal/embed/onnx"
	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

// MaxTokens is what a model reads of a text (the spec: 128).
const MaxTokens = 128

// Resolve returns the files of model name: those in dir when dir is set
// (embeddings.path), else the model installed in the user's cache. It needs
// no runtime, so a revision's model id is known even when none is loaded.
func Resolve(name, dir string) (*models.Installed, error) {
	if dir == "" {
		return models.Open(name)
	}
	m := &models.Installed{Name: name, Dir: dir, SHA256: map[string]string{}}
	f, err := os.Open(m.ModelPath())
	if err != nil {
		return nil, fmt.Errorf("embeddings.path: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	m.SHA256["model.onnx"] = hex.EncodeToString(h.Sum(nil))
	if _, err := os.Stat(m.TokenizerPath()); err != nil {
		return nil, fmt.Errorf("embeddings.path: %w", err)
	}
	return m, nil
}

// Model is a loaded sentence model.
type Model struct {
	id  string
	tok *tokenizer.Tokenizer
	m   *onnx.Model
}

// ID is the model's id (models.Installed.ID): vectors with another id are
// not comparable with this model's.
func (m *Model) ID() string { return m.id }

// Dim is the vector size.
func (m *Model) Dim() int { return m.m.Dim() }

// Embed returns one unit vector per text.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	in := make([]onnx.Input, len(texts))
	for i, t := range texts {
		e := m.tok.Encode(t, MaxTokens)
		in[i] = onnx.Input{IDs: e.IDs, TypeIDs: e.TypeIDs, Mask: e.Mask}
	}
	return m.m.Embed(ctx, in)
}

var (
	loadMu sync.Mutex
	loaded = map[string]*Model{}
)

// Load loads inst (once per process): the runtime library, the tokenizer
// and the weights. An error says what is missing; nothing panics when the
// runtime is absent. lib is the ONNX Runtime library to load ("": search
// $RAGRAF_ORT_LIB, the system and the cache, onnx.FindLibrary).
func Load(inst *models.Installed, lib string) (*Model, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	key := inst.ID() + "\x00" + inst.Dir
	if m, ok := loaded[key]; ok {
		return m, nil
	}
	lib, err := onnx.FindLibrary(lib, models.RuntimeDir())
	if err != nil {
		return nil, err
	}
	if err := onnx.Init(lib); err != nil {
		return nil, err
	}
	tok, err := tokenizer.Load(inst.TokenizerPath())
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", inst.Name, err)
	}
	om, err := onnx.Open(inst.ModelPath(), onnx.Options{MaxTokens: MaxTokens})
	if err != nil {
		return nil, err
	}
	m := &Model{id: inst.ID(), tok: tok, m: om}
	if m.Dim() == 0 { // a model whose output size is dynamic: one run tells it
		if _, err := m.Embed(context.Background(), []string{"a"}); err != nil {
			om.Close()
			return nil, err
		}
	}
	loaded[key] = m
	return m, nil
}

// CachePath is the vector cache's file in the user's cache directory.
func CachePath() (string, error) {
	d, err := models.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "vectors.sqlite"), nil
}
