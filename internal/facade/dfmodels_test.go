package facade

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/rev"
)

// modelsProject indexes a project whose input and query functions are its
// own (fetch_param, run_sql, clean_id), which no shipped model names, and
// writes yaml as its project.yaml after the build.
func modelsProject(t *testing.T, yaml string) *Service {
	t.Helper()
	root := t.TempDir()
	src := `<?php
function fetch_param($k) { return getenv($k); }
function run_sql($q) { return $q; }
function clean_id($v) { return $v; }
$v = fetch_param('id');
$w = clean_id($v);
run_sql("SELECT * FROM t WHERE id = " . $w);
`
	if err := os.WriteFile(filepath.Join(root, "a.php"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	if yaml != "" {
		if err := os.WriteFile(rev.Layout{Root: root}.Config(), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestFT43_ProjectModelsExtendShipped: sources, sinks and sanitizers written
// in project.yaml's dataflow.models join the shipped ones at query time: a
// new source name, a shipped sink (sql) gaining a function, a sanitizer noted
// on the path; without them the same flow is an unknown model or not found.
func TestFT43_ProjectModelsExtendShipped(t *testing.T) {
	back := map[string]any{"from": "source:app_input", "to": "a.php:7", "max_ms": 10000}
	fwd := map[string]any{"from": "a.php:5", "to": "sink:sql", "max_ms": 10000}
	plain := modelsProject(t, "")
	raw, _ := json.Marshal(back)
	_, err := plain.Call(context.Background(), "flow", raw)
	if e := AsError(err); err == nil || e.Code != ErrBadInput || !strings.Contains(e.Message, "app_input") {
		t.Fatalf("unknown source model without project models: %v", err)
	}
	env := dfCall(t, plain, "flow", fwd)
	if env.Result.(FlowResult).Found {
		t.Fatalf("run_sql is no shipped sql sink, yet the flow was found: %+v", env.Result)
	}

	s := modelsProject(t, `dataflow:
  models:
    sources:
      app_input:
        calls:
          - {function: fetch_param}
    sinks:
      sql:
        calls:
          - {function: run_sql}
    sanitizers:
      - {function: clean_id}
`)
	for _, args := range []map[string]any{back, fwd} {
		env = dfCall(t, s, "flow", args)
		fr := env.Result.(FlowResult)
		if !fr.Found || len(fr.Path) < 2 {
			t.Fatalf("flow %v with project models: found=%v path=%+v cuts=%+v", args, fr.Found, fr.Path, fr.CutPoints)
		}
		if first, last := fr.Path[0], fr.Path[len(fr.Path)-1]; first.Line != 5 || last.Line != 7 {
			t.Errorf("flow %v runs %d → %d, want 5 → 7", args, first.Line, last.Line)
		}
		if !slices.Contains(fr.Sanitizers, "clean_id") {
			t.Errorf("flow %v: sanitizers %v, want clean_id", args, fr.Sanitizers)
		}
	}
	// the shipped models stay: http_input is still a source
	raw, _ = json.Marshal(map[string]any{"from": "source:http_input", "to": "a.php:7"})
	if _, err := s.Call(context.Background(), "flow", raw); err != nil {
		t.Errorf("shipped source model after extension: %v", err)
	}
}

// TestFT43_BrokenProjectYAMLRefusesDataflow: when project.yaml no longer
// loads, slice and flow say so instead of answering under defaults the user
// did not write.
func TestFT43_BrokenProjectYAMLRefusesDataflow(t *testing.T) {
	s := modelsProject(t, "dataflow:\n  models:\n    sinks:\n      sql:\n        calls:\n          - {function: run_sql, method: q}\n")
	raw, _ := json.Marshal(map[string]any{"from": "a.php:5", "to": "sink:sql"})
	_, err := s.Call(context.Background(), "flow", raw)
	if e := AsError(err); err == nil || e.Code != ErrBadInput || !strings.Contains(e.Message, "project.yaml") || !strings.Contains(e.Message, "not both") {
		t.Fatalf("flow under a broken project.yaml: %v", err)
	}
}

// TestFT43_FlowSchemaNamesEveryModel: the flow tool's argument hints name
// every shipped source and sink model, so an agent reading tools/list knows
// them all.
func TestFT43_FlowSchemaNamesEveryModel(t *testing.T) {
	m, err := dataflow.DefaultModels()
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(FlowArgs{})
	for field, names := range map[string][]string{"From": m.SourceNames(), "To": m.SinkNames()} {
		f, _ := typ.FieldByName(field)
		hint := f.Tag.Get("jsonschema")
		for _, n := range names {
			if !strings.Contains(hint, n) {
				t.Errorf("flow's %s hint %q does not name model %s", field, hint, n)
			}
		}
	}
}
