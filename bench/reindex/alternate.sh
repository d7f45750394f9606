#!/bin/bash
# Times `ragraf index` after appending a line to 5 PHP files, alternating two
# binaries, each on its own copy of a corpus (stores of one binary's schema are
# not read by the other), for ROUNDS rounds (default 5).
#   bash bench/reindex/alternate.sh OLD_BIN NEW_BIN CORPUS_DIR [ROUNDS]
# NEW_BIN's copy gets `embeddings.model: none`, so that only what differs besides
# the vector model is timed; edit the printf below to time it too.
set -euo pipefail
old=$(readlink -f "$1"); new=$(readlink -f "$2"); corpus=$3; rounds=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for b in old new; do
  cp -r "$corpus" "$work/$b"
  rm -rf "$work/$b/.ragraf"
done
mkdir -p "$work/new/.ragraf"
printf 'embeddings:\n  model: none\n' > "$work/new/.ragraf/project.yaml"
(cd "$work/old" && "$old" index >/dev/null 2>&1)
(cd "$work/new" && "$new" index >/dev/null 2>&1)
mapfile -t files < <(cd "$work/old" && find . -name '*.php' -not -path './.ragraf/*' | sort | head -$((rounds * 5)))
for ((r = 0; r < rounds; r++)); do
  for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    for k in 0 1 2 3 4; do echo "// edit $r" >> "$work/$b/${files[$((r * 5 + k))]}"; done
    (cd "$work/$b" && /usr/bin/time -f "$b %e s wall %U s user" "$bin" index 2>&1 >/dev/null | tail -1)
  done
done
