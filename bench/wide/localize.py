#!/usr/bin/env python3
"""Find which files make `ragraf index` fail on a tree, and a smallest snippet of each that still fails.

    bench/wide/localize.py [--bin BIN] [--out FILE.md] [--snippets N] [--group G] [--timeout S] SRC
    bench/wide/localize.py [--bin BIN] [--out FILE.md] --partial PATH [--partial PATH...] SRC

SRC is a materialised repository (it is only read: each test build runs on a scratch tree of hard links or
copies). Steps:
  1. build the whole tree; if it builds, say so and stop;
  2. build groups of G files (default 64) in turn, and split every failing group in halves until single files
     remain: every file that fails a build alone, with its error (a failure that needs several files together
     is reported as that group);
  3. for the first N failing files of each distinct error (default 3), delta-debug the file's lines (ddmin) to
     a smallest subset of lines that fails with the same error, and give the original line numbers.
With --partial, only step 3 for each PATH (relative to SRC) that builds but is partial or failed: a smallest
subset of its lines built alone with the same reason at the same line; when the file is valid PHP (php -l,
if php is installed) the snippet must stay valid PHP.
The report (Markdown) goes to FILE.md and stdout. Stdlib only.
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

BIN = "bin/ragraf"
TIMEOUT = 120
SCRATCH = None
MAX_TESTS = 400  # test builds per file for ddmin; past it the snippet is the smallest found so far
BUILDS = 0


def error_line(err, rc):
    if rc == 124:
        return "timeout"
    for pat in (r"^(fatal error: .*)$", r"^(panic: .*)$"):
        m = re.search(pat, err, re.M)
        if m:
            return m.group(1).strip()
    i = err.rfind("ragraf: ")
    if i >= 0:
        return err[i + len("ragraf: "):].strip().splitlines()[0]
    if rc < 0:
        return f"killed by signal {-rc}"
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else f"exit {rc}"


def build(tree):
    """Index tree cold; returns None on success, else the error line."""
    global BUILDS
    BUILDS += 1
    shutil.rmtree(os.path.join(tree, ".ragraf"), ignore_errors=True)
    try:
        p = subprocess.run([BIN, "index", "--project", tree], capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode == 0:
        return None
    return error_line(p.stderr, p.returncode)


def signature(err):
    """Errors compared without numbers that vary (line numbers, sizes)."""
    return re.sub(r"\d+", "N", err)


def tree_of(src, files):
    d = tempfile.mkdtemp(dir=SCRATCH)
    for f in files:
        dst = os.path.join(d, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        try:
            os.link(os.path.join(src, f), dst)
        except OSError:
            shutil.copy2(os.path.join(src, f), dst)
    return d


def test_files(src, files):
    d = tree_of(src, files)
    try:
        return build(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_content(name, data):
    d = tempfile.mkdtemp(dir=SCRATCH)
    try:
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        return build(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def split_find(src, files, err, found):
    """files fail with err; append (files, err) for each smallest failing part."""
    if len(files) == 1:
        found.append((files, err))
        return
    half = len(files) // 2
    parts = []
    for part in (files[:half], files[half:]):
        e = test_files(src, part)
        if e is not None:
            parts.append((part, e))
    if not parts:
        found.append((files, err))  # needs files of both halves together
        return
    for part, e in parts:
        split_find(src, part, e, found)


def split_lines(data):
    """Lines with their terminators; a CR alone ends a line too, as PHP counts lines."""
    return re.findall(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", data)


def partial_reason(name, data):
    """Build a one-file tree; the file's partial/failed reason, or None (also when the build fails)."""
    d = tempfile.mkdtemp(dir=SCRATCH)
    try:
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        if build(d) is not None:
            return None
        q = subprocess.run([BIN, "query", "status", "--args", '{"examples":500}', "--project", d],
                           capture_output=True, text=True, timeout=TIMEOUT)
        try:
            files = json.loads(q.stdout)["result"]["files"]
        except (ValueError, KeyError):
            return None
        for st in ("partial", "failed"):
            for it in files.get(st) or []:
                if it["path"] == name:
                    return f"{st}: {it.get('reason', '')}"
        return None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def php_valid(data):
    """php -l accepts data; False too when php is not installed."""
    if not shutil.which("php"):
        return False
    with tempfile.NamedTemporaryFile(dir=SCRATCH, suffix=".php") as f:
        f.write(data)
        f.flush()
        return subprocess.run(["php", "-l", f.name], capture_output=True).returncode == 0


def ddmin(name, lines, sig, partial=""):
    """Zeller's ddmin over line indexes: a 1-minimal subset that still fails with signature sig
    (with partial, the file's reason: that still builds with the file partial or failed for a reason of
    signature sig, reported at the same original line)."""
    budget = [MAX_TESTS]
    at = None
    if partial:
        m = re.search(r"line (\d+)", partial)
        at = int(m.group(1)) - 1 if m else None

    lint = bool(partial) and name.endswith(".php") and php_valid(b"".join(lines))

    def fails(idx):
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        data = b"".join(lines[i] for i in idx)
        if not partial:
            e = test_content(name, data)
            return e is not None and signature(e) == sig
        # a partial reason must stay at the same original line, or any other syntax error would do; and when
        # the file is valid PHP, the snippet must stay valid PHP (php -l), or it could lose its context
        if lint and not php_valid(data):
            return False
        e = partial_reason(name, data)
        if e is None or signature(e) != sig:
            return False
        m = re.search(r"line (\d+)", e)
        return m is None or at is None or (0 < int(m.group(1)) <= len(idx) and idx[int(m.group(1)) - 1] == at)
    cur = list(range(len(lines)))
    n = 2
    while len(cur) >= 2:
        size = max(1, len(cur) // n)
        chunks = [cur[i:i + size] for i in range(0, len(cur), size)]
        reduced = False
        for c in chunks:  # try a chunk alone
            if len(chunks) > 2 and fails(c):
                cur, n, reduced = c, 2, True
                break
        if not reduced:
            for c in chunks:  # try without a chunk
                drop = set(c)
                rest = [i for i in cur if i not in drop]
                if rest and fails(rest):
                    cur, n, reduced = rest, max(n - 1, 2), True
                    break
        if not reduced:
            if n >= len(cur):
                break
            n = min(len(cur), 2 * n)
    return cur


def all_files(src):
    out = []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in (".ragraf", ".git"))
        for f in sorted(files):
            p = os.path.join(root, f)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(os.path.relpath(p, src))
    return out


def main():
    global BIN, TIMEOUT, SCRATCH
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--out")
    ap.add_argument("--snippets", type=int, default=3)
    ap.add_argument("--group", type=int, default=64)
    ap.add_argument("--timeout", type=int, default=TIMEOUT)
    ap.add_argument("--partial", action="append", default=[], metavar="PATH",
                    help="instead: shrink PATH (relative to SRC), which builds but is partial or failed, to a "
                         "smallest snippet with the same reason; repeatable")
    ap.add_argument("src")
    a = ap.parse_args()
    BIN, TIMEOUT = os.path.abspath(a.bin), a.timeout
    src = os.path.abspath(a.src)
    SCRATCH = tempfile.mkdtemp(prefix="ragraf-localize.")
    if a.partial:
        try:
            report = [f"# {os.path.basename(src)}: smallest snippets of partial files\n"]
            for path in a.partial:
                with open(os.path.join(src, path), "rb") as f:
                    data = f.read()
                why = partial_reason(path, data)
                if why is None:
                    report.append(f"### {path}: not partial when built alone\n")
                    continue
                lines = split_lines(data)
                keep = ddmin(path, lines, signature(why), partial=why)
                report.append(snippet_md(path, data, lines, keep, why))
            return emit(report, a.out)
        finally:
            shutil.rmtree(SCRATCH, ignore_errors=True)
    report = [f"# {os.path.basename(src)}: files that fail `ragraf index`\n"]
    try:
        files = all_files(src)
        whole = test_files(src, files)
        if whole is None:
            report.append("The whole tree builds.")
            return emit(report, a.out)
        report.append(f"Whole tree ({len(files)} files): `{whole}`\n")
        found = []
        for i in range(0, len(files), a.group):
            g = files[i:i + a.group]
            e = test_files(src, g)
            if e is not None:
                split_find(src, g, e, found)
        if not found:
            report.append("No group of files fails alone: the failure needs files of several groups together.")
        by_sig = {}
        for fs, e in found:
            by_sig.setdefault(signature(e), []).append((fs, e))
        for sig, items in by_sig.items():
            report.append(f"## `{items[0][1]}`: {len(items)} file(s) fail alone\n")
            for fs, e in items:
                report.append(f"- {', '.join(fs)}" + (f" (`{e}`)" if e != items[0][1] else ""))
            report.append("")
            for fs, e in [x for x in items if len(x[0]) == 1][:a.snippets]:
                path = fs[0]
                with open(os.path.join(src, path), "rb") as f:
                    data = f.read()
                lines = split_lines(data)
                keep = ddmin(path, lines, sig) if len(lines) > 1 else list(range(len(lines)))
                report.append(snippet_md(path, data, lines, keep))
        report.append(f"({BUILDS} test builds)")
        return emit(report, a.out)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)


def snippet_md(path, data, lines, keep, why=""):
    snippet = b"".join(lines[i] for i in keep)
    endings = {b"\r\n": "CRLF", b"\r": "CR", b"\n": "LF"}
    kinds = sorted({endings[m] for m in re.findall(rb"\r\n|\r|\n", data)})
    shown = snippet.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "⏎\n")
    if len(shown) > 2000:
        shown = shown[:2000] + "\n… (cut)"
    return (f"### {path}: lines {', '.join(str(i + 1) for i in keep)} of {len(lines)} "
            f"(line endings: {'/'.join(kinds) or 'none'}){' — ' + why if why else ''}\n\n"
            "```php\n" + shown.rstrip("\n") + "\n```\n")


def emit(report, out):
    text = "\n".join(report) + "\n"
    sys.stdout.write(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
