#!/usr/bin/env bash
# How long `ragraf index` takes to stop after SIGINT or SIGTERM, at several
# moments of a cold build of a corpus (extraction, resolution, store writes),
# and whether the previous revision stayed current. Prints a Markdown table.
#
#   bench/interrupt/run.sh BIN CORPUS [DELAYS...]     (delays in seconds; default 0.3 1 2 4 6 9 13)
set -uo pipefail
set -m  # job control: a background job keeps SIGINT (a non-interactive shell would have it ignored)
BIN=$(realpath "$1"); CORPUS=$(realpath "$2"); shift 2
DELAYS=${*:-0.3 1 2 4 6 9 13}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
cp -r "$CORPUS" "$WORK/p"; cd "$WORK/p"
"$BIN" index >/dev/null 2>&1 || { echo "first index failed"; exit 1; }
first=$(cat .ragraf/CURRENT)
echo "| signal | sent after | stopped after the signal | exit | CURRENT |"
echo "|---|---:|---:|---:|---|"
for sig in INT TERM; do
  for t in $DELAYS; do
    rm -rf .ragraf/cache                     # a cold build each time
    "$BIN" index >/dev/null 2>&1 & pid=$!
    sleep "$t"
    s=$(date +%s.%N)
    if kill -"$sig" "$pid" 2>/dev/null; then
      wait "$pid"; rc=$?
      e=$(date +%s.%N)
      printf "| %s | %s s | %.3f s | %d | %s |\n" "$sig" "$t" "$(echo "$e - $s" | bc)" "$rc" "$(cat .ragraf/CURRENT)"
    else
      wait "$pid"
      printf "| %s | %s s | (build finished first) | 0 | %s |\n" "$sig" "$t" "$(cat .ragraf/CURRENT)"
      first=$(cat .ragraf/CURRENT)
    fi
  done
done
