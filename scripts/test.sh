#!/usr/bin/env bash
# Runs every test of ragraf on a fresh machine: installs what the tests need
# (php-cli for the tokenizer oracle; MariaDB and PostgreSQL for the database
# tests, started on loopback by scripts/testdb.sh), then vet, format check and
# `go test ./...`. Tests whose tools are missing skip and say why.
set -uo pipefail
cd "$(dirname "$0")/.."

# Each stage prints its time when the next starts, and the total at the end.
run_start=$SECONDS stage_start=$SECONDS stage_name=""
stage() {
  [ -n "$stage_name" ] && echo "-- $stage_name: $((SECONDS - stage_start)) s"
  stage_name=$1 stage_start=$SECONDS
  [ -n "$1" ] && echo "== $1"
}
stage "installing test tools"

need_apt=()
command -v php >/dev/null 2>&1 || need_apt+=(php-cli)
# Debian's chromium, for the browser tests of `ragraf ui` (internal/ui TestUI_Browser*)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# FreeDict's English-Russian dictionary, read at run time to translate questions in Russian (internal/bilingual)
[ -f /usr/share/dictd/freedict-eng-rus.index ] || need_apt+=(dict-freedict-eng-rus)
if [ ${#need_apt[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
  echo "== installing ${need_apt[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}" >/dev/null 2>&1; } ||
    echo "warning: could not install ${need_apt[*]}; tests that need them will skip"
fi

# The official MCP Inspector CLI, for the conformance test of the MCP server
# (internal/mcpserver TestMCPInspectorConformance); outside the repository.
INSPECTOR_DIR=${RAGRAF_INSPECTOR_DIR:-$HOME/.cache/ragraf-inspector}
if command -v npm >/dev/null 2>&1 && [ ! -x "$INSPECTOR_DIR/node_modules/.bin/mcp-inspector" ]; then
  echo "== installing the MCP Inspector (npm)"
  mkdir -p "$INSPECTOR_DIR"
  timeout 600 npm install --prefix "$INSPECTOR_DIR" --no-audit --no-fund \
    @modelcontextprotocol/inspector@2.12.0 >"$INSPECTOR_DIR/install.log" 2>&1 ||
    echo "warning: the MCP Inspector could not be installed (see $INSPECTOR_DIR/install.log); its test will skip"
fi
export RAGRAF_INSPECTOR="$INSPECTOR_DIR/node_modules/.bin/mcp-inspector"

# ONNX Runtime for the sentence-model tests (internal/embed/onnx): npm
# onnxruntime-node ships libonnxruntime.so.1, which the Go tests load, and
# runs the same model in testdata/oracle.js. --ignore-scripts: its install
# script downloads, and only registries are reachable. Outside the repository.
ORT_DIR=${RAGRAF_ORT_NODE_DIR:-$HOME/.cache/ragraf-ort}
ORT_PKG="$ORT_DIR/node_modules/onnxruntime-node"
if command -v npm >/dev/null 2>&1 && [ ! -f "$ORT_PKG/package.json" ]; then
  echo "== installing onnxruntime-node (npm)"
  mkdir -p "$ORT_DIR"
  timeout 600 npm install --prefix "$ORT_DIR" --ignore-scripts --no-audit --no-fund \
    onnxruntime-node@1.30.0 >"$ORT_DIR/install.log" 2>&1 ||
    echo "warning: onnxruntime-node could not be installed (see $ORT_DIR/install.log); the ONNX tests will skip"
fi
export RAGRAF_ORT_NODE_DIR="$ORT_DIR"
if [ -z "${RAGRAF_ORT_LIB:-}" ] && [ -f "$ORT_PKG/bin/napi-v6/linux/x64/libonnxruntime.so.1" ]; then
  export RAGRAF_ORT_LIB="$ORT_PKG/bin/napi-v6/linux/x64/libonnxruntime.so.1"
fi

# The reference tokenizer (internal/embed/tokenizer, TestTokenizerMatchesHuggingFace_*):
# @huggingface/tokenizers, pure JS, outside the repository; and the real BERT
# tokenizer.json files in the test data of the Go module daulet/tokenizers,
# downloaded into the module cache only (it is no dependency of ragraf).
ORACLE_DIR=${RAGRAF_TOKENIZERS_ORACLE:-$HOME/.cache/ragraf-tokenizers-oracle}
if command -v npm >/dev/null 2>&1 && [ ! -f "$ORACLE_DIR/node_modules/@huggingface/tokenizers/package.json" ]; then
  echo "== installing @huggingface/tokenizers (npm)"
  mkdir -p "$ORACLE_DIR"
  timeout 300 npm install --prefix "$ORACLE_DIR" --no-audit --no-fund \
    @huggingface/tokenizers@0.2.0 >"$ORACLE_DIR/install.log" 2>&1 ||
    echo "warning: @huggingface/tokenizers could not be installed (see $ORACLE_DIR/install.log); the tokenizer oracle tests will skip"
fi
export RAGRAF_TOKENIZERS_ORACLE="$ORACLE_DIR"
(cd / && timeout 300 go mod download github.com/daulet/tokenizers@v1.24.0 >/dev/null 2>&1) ||
  echo "warning: github.com/daulet/tokenizers could not be downloaded; the WordPiece oracle test will skip"

if [ -x scripts/testdb.sh ]; then
  stage "starting test databases"
  if scripts/testdb.sh start; then
    eval "$(scripts/testdb.sh env | sed 's/^/export /')"
  else
    echo "warning: test databases did not start; database tests will skip"
  fi
fi

stage "gofmt"
bad=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$bad" ]; then echo "gofmt would change:"; echo "$bad"; exit 1; fi

stage "go vet"
go vet ./... || exit 1

stage "staticcheck"
SC=$(go env GOPATH)/bin/staticcheck
[ -x "$SC" ] || (cd /tmp && GOFLAGS=-mod=mod go install honnef.co/go/tools/cmd/staticcheck@v0.8.2) >/dev/null 2>&1
if [ -x "$SC" ]; then
  "$SC" ./... || exit 1
else
  echo "warning: staticcheck could not be installed; skipped"
fi

# The binary is built once and shared by every package whose tests run it
# as a process (their TestMain takes RAGRAF_TEST_BIN instead of building).
stage "building the binary and the test summariser"
TEST_TMP=$(mktemp -d /tmp/ragraf-test.XXXXXX)
trap 'rm -rf "$TEST_TMP"' EXIT
go build -o "$TEST_TMP/ragraf" ./cmd/ragraf || exit 1
go build -o "$TEST_TMP/testsum" ./scripts/testsum || exit 1
export RAGRAF_TEST_BIN="$TEST_TMP/ragraf"

stage "go test"
status=0
# testsum prints what go test prints without -v, failed tests' output, and
# one last line: "N passed, N failed, N skipped"
go test -json -timeout 40m -count=1 ./... | "$TEST_TMP/testsum" | tee "$TEST_TMP/summary.log" || status=1
summary=$(tail -1 "$TEST_TMP/summary.log")

# Random fuzzing on top of the seeds (which go test above ran, every
# target): off by default, since it costs a compile of each package with
# coverage instrumentation and what a few random seconds find differs from
# one run to the next. A scheduled run sets RAGRAF_FUZZTIME (e.g. 8s a
# target). A finding is printed with its input; it fails the run only with
# RAGRAF_FUZZ_STRICT=1 (a new finding is a report, not a change's
# regression; the seeds, which every run checks, are).
FUZZTIME=${RAGRAF_FUZZTIME:-0}
fuzz_failed=0
if [ "$FUZZTIME" != 0 ]; then
  stage "fuzz ($FUZZTIME each)"
  while IFS=: read -r file name; do
    pkg=./$(dirname "$file")
    if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >/tmp/ragraf-fuzz.log 2>&1; then
      # Go's fuzzer reports its own time limit reached in the middle of an
      # input as "context deadline exceeded", with no failing input: say so,
      # do not fail; a real failure writes its input to testdata/fuzz
      if grep -q "context deadline exceeded" /tmp/ragraf-fuzz.log && ! grep -q "Failing input written" /tmp/ragraf-fuzz.log; then
        echo "warning: fuzz $name ($pkg) hit its time limit in the middle of an input; no failing input"
      else
        echo "FUZZ FINDING in $name ($pkg):"; tail -30 /tmp/ragraf-fuzz.log; fuzz_failed=1
      fi
    fi
  done < <(git grep -oE '^func Fuzz[A-Za-z0-9_]+' -- '*_test.go' | sed -E 's/:func /:/')
  if [ "$fuzz_failed" = 1 ]; then
    echo "the fuzzers found failures (above); the inputs are in testdata/fuzz of this checkout"
    [ "${RAGRAF_FUZZ_STRICT:-0}" = 1 ] && status=1
  fi
fi

stage ""
[ -x scripts/testdb.sh ] && scripts/testdb.sh stop >/dev/null 2>&1
echo "total: $((SECONDS - run_start)) s"
echo "$summary"
exit $status
