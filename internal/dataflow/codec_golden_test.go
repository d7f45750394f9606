package dataflow

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateCodec = flag.Bool("update-codec", false, "rewrite testdata/codec from the current encoders")

func sampleSummaries() ([]string, map[string]*Summary) {
	ids := []string{"n1", "n2", "n3", "n4"}
	return ids, map[string]*Summary{
		"n1": {Input: 0x9e3779b97f4a7c15, Capped: true,
			Params: []ParamSummary{{Return: true, Conf: 0.75, Open: true, Stores: []string{"Cart::$items"}, Sinks: []string{"sql", "shell"}},
				{Conf: 1}},
			Ret: RetSummary{Params: []int{0, 1}, Conf: []float64{0.5, 1}, Sources: []string{"_GET"}, Open: true}},
		"n2": {},
		"n4": {Input: 1, Ret: RetSummary{Params: []int{-3}, Conf: []float64{-0.25}}},
	}
}

// TestCodecBytesUnchanged: the IR and summary encoders write the bytes
// they wrote before the shared codec package (committed golden files);
// stores built before and after read the same.
func TestCodecBytesUnchanged(t *testing.T) {
	ids, sums := sampleSummaries()
	for name, got := range map[string][]byte{
		"ir.bin":        Encode(sampleFuncs()),
		"ir-empty.bin":  Encode(nil),
		"summaries.bin": EncodeSummaries(0x0123456789abcdef, ids, sums),
	} {
		path := filepath.Join("testdata", "codec", name)
		if *updateCodec {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the encoding changed:\n got %x\nwant %x", name, got, want)
		}
	}
	models, back, err := DecodeSummaries(EncodeSummaries(7, ids, sums))
	if err != nil || models != 7 || len(back) != 3 || back["n1"].Params[0].Conf != 0.75 || back["n4"].Ret.Params[0] != -3 {
		t.Errorf("summaries round trip: %v %d %+v", err, models, back)
	}
}
