#!/usr/bin/env bash
# Full index with every default on beside intelephense indexing the same tree,
# in the same run, alternating which goes first each round; and the cost of
# the layers: the same index with --no-embed, and with dataflow.enabled: false.
# ragraf: the whole `ragraf index` process (fresh .ragraf/) under /usr/bin/time;
# intelephense: initialize → indexingEnded (`ragraf eval lsp --sample 1`, its
# server_index_seconds), its peak RSS from /usr/bin/time wrapped around the
# server. Best wall of RUNS per column, with that run's peak RSS. Prints a
# markdown table; intelephense is installed from npm into a scratch directory
# and is never a dependency of ragraf.
#   scripts/bench-lean.sh [CORPORA_DIR] [RUNS]      (CORPORA: phpmyadmin wordpress laravel)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-${RAGRAF_CORPORA:-$HOME/.cache/ragraf-corpora}}
RUNS=${2:-2}
CORPORA=${CORPORA:-phpmyadmin wordpress laravel}
SCRATCH=${SCRATCH:-$(mktemp -d /tmp/ragraf-bench-lean.XXXXXX)}
if [ ! -x "$SCRATCH/node_modules/.bin/intelephense" ]; then
	npm install --silent --prefix "$SCRATCH" intelephense@1.18.5 >/dev/null
fi
BIN=${RAGRAF_BIN:-$SCRATCH/ragraf}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/ragraf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ragraf VARIANT WORK: prints "wall rss_mb"
ragraf() {
	local variant=$1 work=$2 flags=""
	rm -rf "$work/.ragraf"; mkdir -p "$work/.ragraf"
	case $variant in
	noembed) flags=--no-embed ;;
	nodataflow) printf 'dataflow:\n  enabled: false\n' >"$work/.ragraf/project.yaml" ;;
	esac
	/usr/bin/time -f 'BENCH %e %M' -o "$TMP/time" "$BIN" index $flags --project "$work" >/dev/null </dev/null
	awk '/^BENCH/{printf "%s %d\n", $2, $3/1024}' "$TMP/time"
}

# intelephense WORK (indexed by ragraf): prints "seconds rss_mb"
intelephense() {
	local work=$1
	rm -rf "$TMP/lsptime" "$HOME/.cache/intelephense" "$HOME/.intelephense" 2>/dev/null || true
	local s
	s=$("$BIN" eval lsp --server "/usr/bin/time -f 'BENCH %e %M' -o $TMP/lsptime $SCRATCH/node_modules/.bin/intelephense --stdio" \
		--corpus "$work" --sample 1 --json </dev/null | sed -n 's/.*"server_index_seconds": *\([0-9.]*\).*/\1/p' | head -1)
	sleep 1
	echo "$s $(awk '/^BENCH/{printf "%d", $3/1024}' "$TMP/lsptime" 2>/dev/null)"
}

# best "wall rss" by wall
best() { sort -n | head -1; }

echo "| corpus | ragraf (every default) s / MB | intelephense s / MB | ratio wall / RSS | --no-embed s / MB | dataflow off s / MB |"
echo "|---|---|---|---|---|---|"
for c in $CORPORA; do
	src=$DIR/$c
	[ -d "$src" ] || { echo "| $c | missing | | | | |"; continue; }
	work=$TMP/$c
	rm -rf "$work"; cp -a "$src" "$work"; rm -rf "$work/.ragraf"
	: >"$TMP/full"; : >"$TMP/lsp"; : >"$TMP/noembed"; : >"$TMP/nodf"
	for i in $(seq "$RUNS"); do
		if [ $((i % 2)) = 1 ]; then
			ragraf full "$work" >>"$TMP/full"; intelephense "$work" >>"$TMP/lsp"
		else
			rm -rf "$work/.ragraf"; ragraf full "$work" >/dev/null # the server's sample needs an index
			intelephense "$work" >>"$TMP/lsp"; ragraf full "$work" >>"$TMP/full"
		fi
		ragraf noembed "$work" >>"$TMP/noembed"
		ragraf nodataflow "$work" >>"$TMP/nodf"
	done
	read -r fw fm < <(best <"$TMP/full")
	read -r lw lm < <(best <"$TMP/lsp")
	read -r nw nm < <(best <"$TMP/noembed")
	read -r dw dm < <(best <"$TMP/nodf")
	printf '| %s | %s / %s | %s / %s | ×%s / ×%s | %s / %s | %s / %s |\n' "$c" "$fw" "$fm" "$lw" "$lm" \
		"$(awk -v a="$fw" -v b="$lw" 'BEGIN{printf "%.2f", a/b}')" "$(awk -v a="$fm" -v b="$lm" 'BEGIN{printf "%.2f", (b>0)?a/b:0}')" \
		"$nw" "$nm" "$dw" "$dm"
done
