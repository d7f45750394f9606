#!/usr/bin/env bash
# Structure plus resolution beside a language server's indexing of the same
# corpus, in the same run (docs/benchmarks.md): ragraf's time to the
# `resolved` log line of a fresh index, and intelephense's time from
# `initialize` to its `indexingEnded` report (`ragraf eval lsp`), best of RUNS
# each, interleaved. intelephense is installed from npm into a scratch
# directory; it is never a dependency of ragraf.
#   scripts/bench-lsp.sh [CORPORA_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${RAGRAF_CORPORA:-$HOME/.cache/ragraf-corpora}}
RUNS=${2:-3}
SCRATCH=${SCRATCH:-$(mktemp -d /tmp/ragraf-bench-lsp.XXXXXX)}
if [ ! -x "$SCRATCH/node_modules/.bin/intelephense" ]; then
	npm install --silent --prefix "$SCRATCH" intelephense >/dev/null
fi
SERVER="$SCRATCH/node_modules/.bin/intelephense --stdio"
BIN=$SCRATCH/ragraf
go build -o "$BIN" ./cmd/ragraf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "| corpus | ragraf structure + resolution s | intelephense indexing s | ratio ragraf/intelephense |"
echo "|---|---|---|---|"
for c in phpmyadmin wordpress laravel; do
	src=$DIR/$c
	[ -d "$src" ] || { echo "| $c | missing | | |"; continue; }
	work=$TMP/$c
	rm -rf "$work"; cp -a "$src" "$work"; rm -rf "$work/.ragraf"
	best_r="" best_s=""
	for _ in $(seq "$RUNS"); do
		rm -rf "$work/.ragraf"
		r=$("$BIN" index -v --project "$work" 2>&1 >/dev/null | sed -n 's/.*msg=resolved .* ms=\([0-9]*\).*/\1/p' | awk '{printf "%.2f", $1/1000}')
		s=$("$BIN" eval lsp --server "$SERVER" --corpus "$work" --sample 1 --json | sed -n 's/.*"server_index_seconds": *\([0-9.]*\).*/\1/p' | head -1)
		if [ -z "$best_r" ] || awk -v a="$r" -v b="$best_r" 'BEGIN{exit !(a<b)}'; then best_r=$r; fi
		if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN{exit !(a<b)}'; then best_s=$s; fi
	done
	ratio=$(awk -v a="$best_r" -v b="$best_s" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "-" }')
	echo "| $c | $best_r | $best_s | $ratio |"
done
