package secrets_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/secrets"
)

// BenchmarkRedactCorpora redacts every indexed file of the Debian corpora
// (~/.cache/ragraf-corpora/{wordpress,phpmyadmin,laravel}) as the index does
// and reports the redactions: the false-positive check. With -v it prints
// every redacted line beside the original (up to 60 per corpus) to read:
//
//	go test ./internal/secrets -run XXX -bench RedactCorpora -benchtime 1x -v
func BenchmarkRedactCorpora(b *testing.B) {
	home, _ := os.UserHomeDir()
	for _, name := range []string{"wordpress", "phpmyadmin", "laravel"} {
		root := filepath.Join(home, ".cache", "ragraf-corpora", name)
		if _, err := os.Stat(root); err != nil {
			b.Logf("%s: no corpus at %s", name, root)
			continue
		}
		files, err := corpus.Walk(context.Background(), corpus.Options{Root: root, Config: config.Default()})
		if err != nil {
			b.Fatal(err)
		}
		var data [][]byte
		size := 0
		for _, f := range files {
			if f.Status != corpus.Pending {
				continue
			}
			c, err := corpus.Read(filepath.Join(root, filepath.FromSlash(f.Path)))
			if err != nil || c.Binary {
				continue
			}
			data = append(data, c.Data)
			size += len(c.Data)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			n := 0
			for b.Loop() {
				n = 0
				for _, d := range data {
					_, k := secrets.Redact(d)
					n += k
				}
			}
			b.ReportMetric(float64(n), "redactions")
			b.ReportMetric(float64(len(data)), "files")
			if testing.Verbose() {
				shown := 0
				for i, d := range data {
					out, k := secrets.Redact(d)
					if k == 0 {
						continue
					}
					in, got := bytes.Split(d, []byte("\n")), bytes.Split(out, []byte("\n"))
					for l := range in {
						if shown < 60 && !bytes.Equal(in[l], got[l]) {
							shown++
							b.Logf("%s file %d line %d\n  in:  %s\n  out: %s", name, i, l+1, bytes.TrimSpace(in[l]), bytes.TrimSpace(got[l]))
						}
					}
				}
			}
		})
	}
}
