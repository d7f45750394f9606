package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDictd writes a two-entry dictd database in FreeDict's layout and
// returns its path without the extensions.
func writeDictd(t *testing.T) string {
	t.Helper()
	body := "00-database-short\n     Small English-Russian\nweather /x/\nпогода\n"
	index := "00databaseshort\tA\tt\nweather\tt\tZ\n" // offsets and lengths in bytes, in dictd's base64: 0, 45; 45, 25
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(body))
	zw.Close()
	base := filepath.Join(t.TempDir(), "freedict-eng-rus")
	if err := os.WriteFile(base+".dict.dz", z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".index", []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	return base
}

func russianProject(t *testing.T) string {
	root := writeFiles(t, map[string]string{"src/Shop.php": "<?php\nclass OrderService {\n    public function createOrder($cart) { return $cart; }\n    public function weatherReport() { return 1; }\n}\n"})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	return root
}

type searchAnswer struct {
	Result struct {
		Translation struct {
			Dictionary string `json:"dictionary"`
			Missing    string `json:"missing"`
			English    string `json:"english"`
		} `json:"translation"`
		Hits []struct {
			Name string `json:"name"`
		} `json:"hits"`
	} `json:"result"`
}

func russianSearch(t *testing.T, root, q string) searchAnswer {
	t.Helper()
	r := run(t, root, "query", "search", "--args", `{"query":"`+q+`","mode":"lexical"}`)
	if r.code != 0 {
		t.Fatalf("search: %d %s", r.code, r.stderr)
	}
	var a searchAnswer
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRussianQuestions_VersionAndStatusNameTheDictionary: with the dictionary installed
// (here a small one where RAGRAF_DICT points) version and status name it and
// a Russian question is translated by it.
func TestRussianQuestions_VersionAndStatusNameTheDictionary(t *testing.T) {
	t.Setenv("RAGRAF_DICT", writeDictd(t))
	root := russianProject(t)
	for _, args := range [][]string{{"version"}, {"status"}} {
		if r := run(t, root, args...); r.code != 0 || !strings.Contains(r.stdout, "Small English-Russian (1 words") {
			t.Errorf("%v: %d %s", args, r.code, r.stdout)
		}
	}
	a := russianSearch(t, root, "прогноз погоды")
	if a.Result.Translation.Dictionary != "Small English-Russian" || a.Result.Translation.Missing != "" ||
		len(a.Result.Hits) == 0 || a.Result.Hits[0].Name != "weatherReport" {
		t.Errorf("search: %+v", a.Result)
	}
}

// TestRussianQuestions_WithoutDictionaryTheGlossaryAnswers: without the dictionary,
// version and status say so, and a Russian question is still answered
// through the glossary, the answer saying the dictionary is missing.
func TestRussianQuestions_WithoutDictionaryTheGlossaryAnswers(t *testing.T) {
	t.Setenv("RAGRAF_DICT", filepath.Join(t.TempDir(), "absent"))
	root := russianProject(t)
	for _, args := range [][]string{{"version"}, {"status"}} {
		if r := run(t, root, args...); r.code != 0 || !strings.Contains(r.stdout, "no dictionary") {
			t.Errorf("%v: %d %s", args, r.code, r.stdout)
		}
	}
	a := russianSearch(t, root, "создать заказ")
	if a.Result.Translation.Dictionary != "" || !strings.Contains(a.Result.Translation.Missing, "dict-freedict-eng-rus") ||
		len(a.Result.Hits) == 0 || a.Result.Hits[0].Name != "createOrder" {
		t.Errorf("search: %+v", a.Result)
	}
}
