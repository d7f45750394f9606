#!/usr/bin/env bash
# Extraction cost of pathological PHP files, beside a real corpus in the same
# run: each generated file is indexed alone in a project of its own, and the
# corpus as a whole. Prints a Markdown table: size, wall, CPU (user+sys),
# peak RSS, CPU throughput (MB of PHP per CPU second), its ratio to the
# corpus's, memory per byte, and the file's status with its reason.
#
#   bench/patho/run.sh BIN CORPUS [WORKDIR]
#
# BIN is a ragraf binary; CORPUS a directory such as ~/.cache/ragraf-corpora/phpmyadmin.
# Files are generated in WORKDIR (default: a new temporary directory), removed after.
set -euo pipefail
BIN=$(realpath "$1"); CORPUS=$(realpath "$2")
WORK=${3:-$(mktemp -d)}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)"; exit 1; }
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK" <<'PY'
import os, sys
w = sys.argv[1]
def gen(name, s):
    d = os.path.join(w, name); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "a.php"), "w", newline="").write(s)
gen("plus-200k-operands", "<?php\n$x = " + " + ".join(["1"] * 200000) + ";\n")
gen("concat-100k-operands", "<?php\n$x = " + " . ".join(["'a'"] * 100000) + ";\n")
gen("array-6mb", "<?php\n$x = [" + ",".join(f"'k{i}' => 'value{i}'" for i in range(300000)) + "];\n")
gen("nesting-50k", "<?php\n$x = " + "(" * 50000 + "1" + ")" * 50000 + ";\n")
gen("if-nesting-20k", "<?php\n" + "if ($a) {\n" * 20000 + "f();\n" + "}\n" * 20000)
gen("long-line-100k-calls", "<?php\n" + "".join(f"$v{i} = f{i}($a, $b); " for i in range(100000)) + "\n")
gen("200k-lines", "<?php\n" + "".join(f"function fn{i}($a) {{ return g($a) + {i}; }}\n" for i in range(200000)))
gen("comments-one-line", "<?php\n" + "".join(f"function f{i}(/* a */ $a, /* b */ $b) {{ list(/* x */, /* y */, $n) = $s; }}\n" for i in range(20000)))
PY

measure() { # dir -> "wall cpu rss_kb"
  local d=$1
  rm -rf "$d/.ragraf"
  "$BIN" init "$d" >/dev/null 2>&1
  sed -i 's/^max_file_size:.*/max_file_size: 67108864/' "$d/.ragraf/project.yaml"
  /usr/bin/time -f "%e %U %S %M" -o "$d/.time" "$BIN" index --project "$d" >/dev/null 2>&1 || true
  read -r wall user sys rss < "$d/.time"
  echo "$wall $(echo "$user + $sys" | bc) $rss"
}
php_bytes() { find "$1" -name '*.php' -not -path '*/.ragraf/*' -printf '%s\n' | awk '{s+=$1} END {print s}'; }

cp -r "$CORPUS" "$WORK/corpus"
read -r cwall ccpu crss < <(measure "$WORK/corpus")
cbytes=$(php_bytes "$WORK/corpus")
crate=$(echo "scale=3; $cbytes / 1048576 / $ccpu" | bc)
echo "| file | size | wall s | CPU s | peak RSS MB | MB/CPU s | vs corpus | RSS per byte | status |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf "| %s (corpus, %s PHP bytes) | %.1f MB | %s | %s | %d | %s | 1.00 | %.0f | |\n" "$(basename "$CORPUS")" "$cbytes" \
  "$(echo "$cbytes / 1048576" | bc -l)" "$cwall" "$ccpu" $((crss / 1024)) "$crate" "$(echo "$crss * 1024 / $cbytes" | bc -l)"
for d in "$WORK"/*/; do
  d=${d%/}; n=$(basename "$d"); [ "$n" = corpus ] && continue
  read -r wall cpu rss < <(measure "$d")
  bytes=$(php_bytes "$d")
  rate=$(echo "scale=3; $bytes / 1048576 / $cpu" | bc)
  status=$("$BIN" query status --project "$d" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["result"]["files"]
p = r.get("partial") or r.get("failed") or []
print(("partial: " + p[0]["reason"]) if p else "parsed")' 2>/dev/null || echo "index failed")
  printf "| %s | %.2f MB | %s | %s | %d | %s | %.2f | %.0f | %s |\n" "$n" "$(echo "$bytes / 1048576" | bc -l)" "$wall" "$cpu" $((rss / 1024)) "$rate" \
    "$(echo "$crate / $rate" | bc -l)" "$(echo "$rss * 1024 / $bytes" | bc -l)" "${status:0:90}"
done
