#!/bin/sh
# Measures ragraf's PHP references and definitions against the intelephense
# language server on the three benchmark corpora (docs/accuracy.md).
# intelephense is installed from npm into a scratch directory; it is never a
# dependency of ragraf.
#
#   scripts/eval-lsp.sh [corpora dir] [sample] [seed]
set -eu
CORPORA=${1:-$HOME/.cache/ragraf-corpora}
SAMPLE=${2:-200}
SEED=${3:-1}
SCRATCH=${SCRATCH:-$(mktemp -d /tmp/ragraf-eval-lsp.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -x "$SCRATCH/node_modules/.bin/intelephense" ]; then
	npm install --silent --prefix "$SCRATCH" intelephense >/dev/null
fi
SERVER="$SCRATCH/node_modules/.bin/intelephense --stdio"
go build -o "$SCRATCH/ragraf" "$ROOT/cmd/ragraf"

for c in phpmyadmin wordpress laravel; do
	dir="$CORPORA/$c"
	[ -d "$dir" ] || { echo "skip $c: $dir missing (see ../shared/corpora/get.sh)"; continue; }
	echo "== $c"
	"$SCRATCH/ragraf" index --project "$dir" >/dev/null
	"$SCRATCH/ragraf" eval lsp --server "$SERVER" --corpus "$dir" --sample "$SAMPLE" --seed "$SEED" | tee "$SCRATCH/eval-$c.txt" | sed -n '1,8p'
done
echo "full reports (every disagreement): $SCRATCH/eval-*.txt"
