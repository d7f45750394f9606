#!/usr/bin/env bash
# Memory budget on a synthetic monorepo: every corpus in the corpora
# directory (wordpress, phpmyadmin, laravel and wide/*) copied side by side
# under one root, indexed from scratch once per budget (max_memory_mb) with
# every default on. Prints one markdown table row per budget:
#   budget MB | files | PHP files | PHP lines | wall s | peak RSS MB | exit | revision
#   bench/monorepo/run.sh [BUDGET_MB...]        (default: 1024 512)
# Environment: RAGRAF_CORPORA (default ~/.cache/ragraf-corpora), MONOREPO (the
# root built, default /tmp/ragraf-monorepo; kept between runs), MIN_LINES
# (corpora are added in that order until their PHP lines reach it; default
# 5000000, 0 for all of them), RAGRAF_BIN.
# The corpora are copied, never written to. The build is heavy: it runs under
# nice -n 15, one budget after the other.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${RAGRAF_CORPORA:-$HOME/.cache/ragraf-corpora}
ROOT=${MONOREPO:-/tmp/ragraf-monorepo}
BIN=${RAGRAF_BIN:-bin/ragraf}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/ragraf
BIN=$(realpath "$BIN")
[ $# -gt 0 ] || set -- 1024 512

MIN_LINES=${MIN_LINES:-5000000}
# PHP files the index reads under $1 (vendor/ and node_modules/ are always excluded)
phpfiles() { find "$1" \( -name vendor -o -name node_modules -o -name .git \) -prune -o -type f -name '*.php' -print0; }
if [ ! -f "$ROOT/.complete" ]; then
	rm -rf "$ROOT"; mkdir -p "$ROOT"
	total=0
	for src in "$DIR"/wordpress "$DIR"/phpmyadmin "$DIR"/laravel "$DIR"/wide/*; do
		[ -d "$src" ] || continue
		[ "$MIN_LINES" -gt 0 ] && [ "$total" -ge "$MIN_LINES" ] && break
		cp -a "$src" "$ROOT/$(basename "$src")"
		rm -rf "$ROOT/$(basename "$src")/.ragraf"
		total=$((total + $(phpfiles "$ROOT/$(basename "$src")" | xargs -0 cat | wc -l)))
	done
	touch "$ROOT/.complete"
fi
php=$(phpfiles "$ROOT" | xargs -0 cat | wc -l)
nphp=$(phpfiles "$ROOT" | tr -cd '\0' | wc -c)

echo "| max_memory_mb | files | PHP files | PHP lines | wall s | peak RSS MB | exit | revision |"
echo "|---|---|---|---|---|---|---|---|"
for mb in "$@"; do
	rm -rf "$ROOT/.ragraf"; mkdir -p "$ROOT/.ragraf"
	echo "max_memory_mb: $mb" >"$ROOT/.ragraf/project.yaml"
	log=$(mktemp)
	code=0
	nice -n 15 /usr/bin/time -f 'BENCH %e %M' "$BIN" index -v --project "$ROOT" >"$log.out" 2>"$log" </dev/null || code=$?
	line=$(grep '^BENCH' "$log" | tail -1)
	files=$(sed -n 's/^rev-[0-9]*: \([0-9]*\) files.*/\1/p' "$log.out")
	revline=$(grep '^rev-' "$log.out" | sed 's/ in [0-9.]*s$//' || true)
	printf '| %s | %s | %s | %s | %s | %d | %s | %s |\n' "$mb" "${files:--}" "$nphp" "$php" \
		"$(echo "$line" | awk '{print $2}')" $(( $(echo "$line" | awk '{print $3}') / 1024 )) "$code" "${revline:--}"
	[ "$code" = 0 ] || tail -5 "$log" >&2
	rm -f "$log" "$log.out"
done
