#!/usr/bin/env bash
# Full-index benchmark on the real corpora, beside universal-ctags on the same
# tree in the same run. Prints one markdown table row per corpus:
#   corpus | PHP files | lines | ragraf wall | ragraf CPU | ragraf peak RSS | ctags wall | ctags CPU | ctags RSS | ratio
#   scripts/bench-index.sh [CORPORA_DIR] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${RAGRAF_CORPORA:-$HOME/.cache/ragraf-corpora}}
RUNS=${2:-3}
BIN=${RAGRAF_BIN:-bin/ragraf}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/ragraf
command -v ctags >/dev/null || { echo "ctags missing: apt-get install universal-ctags" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# best of RUNS: prints "wall cpu rss_kb resolved_s", resolved_s being when
# ragraf's -v log says resolution finished (structure plus resolution, before
# the stores are written; "-" for ctags)
measure() {
  local best=""
  for _ in $(seq "$RUNS"); do
    "$@" >/dev/null 2>"$TMP/err" </dev/null || { cat "$TMP/err" >&2; return 1; }
    local line; line=$(grep '^BENCH' "$TMP/err")
    local wall; wall=$(echo "$line" | awk '{print $2}')
    local res; res=$(sed -n 's/.*msg=resolved .* ms=\([0-9]*\).*/\1/p' "$TMP/err" | awk '{printf "%.2f", $1/1000}')
    if [ -z "$best" ] || awk -v a="$wall" -v b="$(echo "$best" | awk '{print $1}')" 'BEGIN{exit !(a<b)}'; then
      best=$(echo "$line" | awk -v r="${res:--}" '{print $2, $3+$4, $5, r}')
    fi
  done
  echo "$best"
}

echo "| corpus | PHP files | PHP lines | ragraf wall s | structure + resolution s | ragraf CPU s | ragraf peak RSS MB | ctags wall s | ctags CPU s | ctags RSS MB | wall ratio ragraf/ctags |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for c in phpmyadmin wordpress laravel; do
  src=$DIR/$c
  [ -d "$src" ] || { echo "| $c | missing | | | | | | | | |"; continue; }
  work=$TMP/$c
  rm -rf "$work"; cp -a "$src" "$work"; rm -rf "$work/.ragraf"
  files=$(find "$work" -name '*.php' | wc -l)
  lines=$(find "$work" -name '*.php' -print0 | xargs -0 cat | wc -l)
  r=$(measure sh -c "rm -rf '$work/.ragraf'; exec /usr/bin/time -f 'BENCH %e %U %S %M' '$BIN' index -v --project '$work'")
  k=$(measure sh -c "cd '$work' && exec /usr/bin/time -f 'BENCH %e %U %S %M' ctags -R --languages=PHP -f '$TMP/tags' .")
  set -- $r; rw=$1 rc=$2 rm=$3 rr=$4
  set -- $k; kw=$1 kc=$2 km=$3
  printf '| %s | %s | %s | %s | %s | %.2f | %d | %s | %.2f | %d | %.2f |\n' "$c" "$files" "$lines" "$rw" "$rr" "$rc" $((rm/1024)) "$kw" "$kc" $((km/1024)) \
    "$(awk -v a="$rw" -v b="$kw" 'BEGIN{print (b>0)?a/b:0}')"
done
