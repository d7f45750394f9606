#!/bin/bash
# Data flow's index cost: fresh builds of a corpus with dataflow.enabled false
# and true, alternating, PAIRS pairs (default 3), embeddings.model none in both.
#   bash bench/dataflow/cost.sh BIN CORPUS_DIR [PAIRS]
set -euo pipefail
bin=$(readlink -f "$1"); corpus=$2; pairs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$corpus" "$work/c"
for ((i = 0; i < pairs; i++)); do
  for mode in off on; do
    rm -rf "$work/c/.ragraf"
    mkdir -p "$work/c/.ragraf"
    printf 'embeddings:\n  model: none\n' > "$work/c/.ragraf/project.yaml"
    [ $mode = off ] && printf 'dataflow:\n  enabled: false\n' >> "$work/c/.ragraf/project.yaml"
    (cd "$work/c" && /usr/bin/time -f "$mode %U s user %S s sys %e s wall %M KB peak" "$bin" index 2>&1 >/dev/null | tail -1)
  done
done
