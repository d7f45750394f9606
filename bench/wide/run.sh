#!/usr/bin/env bash
# The wide corpus benchmark: index every repository of bench/wide/repos.txt, one after the other, and report
# per repository: PHP files, lines and MB; the result of a cold `ragraf index` (exit code, error); wall, CPU
# (user+sys) and peak RSS (/usr/bin/time -v); files partial/failed with their reasons (`ragraf query status`);
# and the wall of a second build after appending a comment to 5 PHP files.
#
#   bench/wide/run.sh [BIN [CORPORA]] [--only NAME[,NAME...]] [--out DIR] [--mirrors DIR] [--timeout SEC]
#                     [--localize]
#
#   BIN       the ragraf binary (default bin/ragraf, built from this checkout when absent)
#   CORPORA   where the trees are, one directory per repository name (default ~/.cache/ragraf-corpora/wide)
#   --only    just these repositories (names of repos.txt's first column)
#   --out     where the results go (default ~/.cache/ragraf-bench/wide-DATE): results.md, results.tsv,
#             results.json, and NAME/ with each build's logs, /usr/bin/time output, status JSON and issues.tsv
#   --mirrors git directories of fetched snapshots, OWNER+REPO/repo (default /work/.mirror); a repository
#             missing from CORPORA is materialised from there at the commit of repos.txt
#   --timeout seconds per build (default 900); a build past it is killed and reported as a timeout
#   --localize  for each failing repository, also run bench/wide/localize.py: the files that fail alone, and
#             for each a smallest snippet that fails (NAME/localize.md)
#
# A missing repository is fetched as a snapshot of github:OWNER/REPO (a bare git directory; see
# ../shared/corpora/wide.md), then materialised with ../shared/corpora/from-mirror.py GITDIR CORPORA/NAME COMMIT.
#
# Every build runs on a scratch copy of the tree (removed afterwards): the corpus itself is never modified.
# Builds run with `nice -n 10` (a shared machine); needs /usr/bin/time (Debian package `time`) and python3.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

BIN="" CORPORA="" ONLY="" OUT="" MIRRORS=/work/.mirror TIMEOUT=900 LOCALIZE=0
pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) ONLY=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --mirrors) MIRRORS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --localize) LOCALIZE=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) pos+=("$1"); shift ;;
  esac
done
BIN=${pos[0]:-${RAGRAF_BIN:-$ROOT/bin/ragraf}}
CORPORA=${pos[1]:-${RAGRAF_WIDE:-$HOME/.cache/ragraf-corpora/wide}}
OUT=${OUT:-$HOME/.cache/ragraf-bench/wide-$(date -u +%Y%m%d-%H%M)}
FROM_MIRROR=${FROM_MIRROR:-$ROOT/../shared/corpora/from-mirror.py}
if [ ! -x "$BIN" ]; then
  if [ "$BIN" = "$ROOT/bin/ragraf" ]; then (cd "$ROOT" && go build -o bin/ragraf ./cmd/ragraf); else
    echo "no binary at $BIN" >&2; exit 2; fi
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 missing" >&2; exit 2; }
mkdir -p "$OUT" "$CORPORA"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/ragraf-wide.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

php_files() {
  find "$1" \( -name vendor -o -name node_modules -o -name .git -o -name .ragraf \) -prune -o \
    -type f -name '*.php' -printf '%P\n' | LC_ALL=C sort
}

wanted() { [ -z "$ONLY" ] && return 0; case ",$ONLY," in *",$1,"*) return 0 ;; esac; return 1; }

# build LABEL WORK DIR: one `ragraf index` under /usr/bin/time -v and the timeout; writes DIR/LABEL.{time,out,err}
# and prints "rc wall cpu rss_kb" (rc 124 = timeout, 128+N = killed by signal N)
build() {
  local label=$1 work=$2 dir=$3 rc=0
  nice -n 10 timeout -k 10 "$TIMEOUT" /usr/bin/time -v -o "$dir/$label.time" \
    "$BIN" index -v --json --project "$work" >"$dir/$label.out" 2>"$dir/$label.err" </dev/null || rc=$?
  python3 - "$dir/$label.time" "$rc" <<'PY'
import re, sys
path, rc = sys.argv[1], int(sys.argv[2])
try:
    t = open(path).read()
except OSError:
    t = ""
def num(key, conv=float):
    m = re.search(r"^\s*" + re.escape(key) + r": (.*)$", t, re.M)
    return conv(m.group(1)) if m else None
wall = None
m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)", t)
if m:
    parts = [float(p) for p in m.group(1).split(":")]
    wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
u, s, rss = num("User time (seconds)"), num("System time (seconds)"), num("Maximum resident set size (kbytes)", int)
m = re.search(r"Command terminated by signal (\d+)", t)
if m and rc not in (124, 137):
    rc = 128 + int(m.group(1))
cpu = None if u is None else u + s
print(rc, "-" if wall is None else f"{wall:.2f}", "-" if cpu is None else f"{cpu:.2f}", "-" if rss is None else rss)
PY
}

while read -r name repo commit set notes; do
  case "$name" in ''|'#'*) continue ;; esac
  wanted "$name" || continue
  dir=$OUT/$name
  rm -rf "$dir"; mkdir -p "$dir"
  src=$CORPORA/$name
  meta=$dir/meta
  { echo "name=$name"; echo "repo=$repo"; echo "commit=$commit"; echo "set=$set"; echo "notes=$notes"; } >"$meta"
  if [ ! -d "$src" ]; then
    gitdir=$MIRRORS/${repo%%/*}+${repo#*/}/repo
    if [ -d "$gitdir" ]; then
      python3 "$FROM_MIRROR" "$gitdir" "$src" "$commit" >&2
    else
      echo "$name: not in $CORPORA and no snapshot at $gitdir: fetch github:$repo, then" \
        "$FROM_MIRROR GITDIR $src $commit" >&2
      echo "result=missing" >>"$meta"
      continue
    fi
  fi
  echo "== $name ($(date -u +%H:%M:%S))" >&2
  work=$SCRATCH/$name
  rm -rf "$work"; cp -a "$src" "$work"; rm -rf "$work/.ragraf"
  # PHP files as ragraf walks them: vendor/ and node_modules/ are never indexed (its mandatory excludes);
  # .gitignore and the size limit are not applied here (status' own PHP count says what they removed)
  php_files "$work" >"$dir/php-files.txt"
  php_files=$(wc -l <"$dir/php-files.txt")
  read -r php_lines php_bytes < <(cd "$work" && tr '\n' '\0' <"$dir/php-files.txt" | xargs -0 -r cat -- | wc -lc)
  { echo "php_files=$php_files"; echo "php_lines=$php_lines"; echo "php_bytes=$php_bytes"; } >>"$meta"

  read -r rc wall cpu rss < <(build index1 "$work" "$dir")
  { echo "rc1=$rc"; echo "wall1=$wall"; echo "cpu1=$cpu"; echo "rss1_kb=$rss"; } >>"$meta"
  if [ "$rc" = 0 ]; then
    "$BIN" query status --args '{"examples":500}' --project "$work" >"$dir/status.json" 2>"$dir/status.err" || true
    # the second build: a comment appended to 5 PHP files spread over the sorted list, then restored
    mapfile -t edit < <(awk -v n="$php_files" 'n>0 && (NR==1 || int((NR-1)*5/n)!=int((NR-2)*5/n))' "$dir/php-files.txt" | head -5)
    mkdir -p "$SCRATCH/orig"
    for i in "${!edit[@]}"; do
      cp -p "$work/${edit[$i]}" "$SCRATCH/orig/$i"
      printf '\n// ragraf wide benchmark: edited\n' >>"$work/${edit[$i]}"
    done
    printf '%s\n' "${edit[@]}" >"$dir/edited.txt"
    read -r rc2 wall2 cpu2 rss2 < <(build index2 "$work" "$dir")
    for i in "${!edit[@]}"; do
      cp -p "$SCRATCH/orig/$i" "$work/${edit[$i]}"
      cmp -s "$work/${edit[$i]}" "$src/${edit[$i]}" || { echo "$name: ${edit[$i]} not restored" >&2; exit 1; }
    done
    rm -rf "$SCRATCH/orig"
    { echo "rc2=$rc2"; echo "wall2=$wall2"; echo "cpu2=$cpu2"; echo "rss2_kb=$rss2"; } >>"$meta"
  elif [ "$LOCALIZE" = 1 ]; then
    nice -n 10 python3 "$HERE/localize.py" --bin "$BIN" --out "$dir/localize.md" "$src" >&2 || true
  fi
  rm -rf "$work"
  python3 "$HERE/summarize.py" "$OUT" "$HERE/repos.txt" --only "$name" >&2
done <"$HERE/repos.txt"

python3 "$HERE/summarize.py" "$OUT" "$HERE/repos.txt" --bin "$BIN"
echo "results: $OUT/results.md $OUT/results.tsv $OUT/results.json" >&2
