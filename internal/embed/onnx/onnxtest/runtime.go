package onnxtest

import (
	"os"
	"path/filepath"
	"testing"
)

// npmDir is where scripts/test.sh installs onnxruntime-node (npm, with
// --ignore-scripts): $RAGRAF_ORT_NODE_DIR or ~/.cache/ragraf-ort.
func npmDir() string {
	if d := os.Getenv("RAGRAF_ORT_NODE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "ragraf-ort")
}

// Library returns the ONNX Runtime shared library the tests use:
// $RAGRAF_ORT_LIB, else the one onnxruntime-node ships; the test skips,
// saying why, when neither exists.
func Library(t testing.TB) string {
	t.Helper()
	p := os.Getenv("RAGRAF_ORT_LIB")
	if p == "" {
		p = filepath.Join(npmDir(), "node_modules", "onnxruntime-node", "bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no ONNX Runtime library at %s (scripts/test.sh installs onnxruntime-node@1.30.0; or set RAGRAF_ORT_LIB)", p)
	}
	return p
}

// NodeModules returns the node_modules holding onnxruntime-node for the
// Node oracle; the test skips, saying why, when node or the package is
// missing.
func NodeModules(t testing.TB) string {
	t.Helper()
	d := filepath.Join(npmDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(d, "onnxruntime-node", "package.json")); err != nil {
		t.Skipf("onnxruntime-node is not installed in %s (scripts/test.sh installs it)", d)
	}
	return d
}
