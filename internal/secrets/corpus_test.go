package secrets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/secrets"
	"github.com/ragraf/ragraf/internal/secrets/secretstest"
)

// TestFT39_PlantedCorpusRedacted: Redact leaves no planted value of the
// planted-secrets corpus in any of its files, and keeps every line.
func TestFT39_PlantedCorpusRedacted(t *testing.T) {
	for seed := range uint64(20) {
		plantedCorpusRedacted(t, seed)
	}
}

func plantedCorpusRedacted(t *testing.T, seed uint64) {
	dir := t.TempDir()
	plants, err := secretstest.Write(dir, seed)
	if err != nil {
		t.Fatal(err)
	}
	if len(plants) < 100 {
		t.Fatalf("%d plants, want at least 100", len(plants))
	}
	f := secretstest.NewFinder(plants)
	left := 0
	for _, p := range secretstest.Paths() {
		in, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		out, _ := secrets.Redact(in)
		if bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
			t.Errorf("%s: line count changed", p)
		}
		for _, pl := range f.Find(out) {
			left++
			t.Errorf("seed %d: %s: %s survives: %q", seed, p, pl.Shape, line(out, pl.Value))
		}
	}
	if left > 0 {
		t.Logf("seed %d: %d of %d planted values survive", seed, left, len(plants))
	}
}

func line(out []byte, v string) string {
	for _, l := range bytes.Split(out, []byte("\n")) {
		if bytes.Contains(bytes.ToLower(l), bytes.ToLower([]byte(v[:min(len(v), 6)]))) {
			return string(l)
		}
	}
	return v
}
