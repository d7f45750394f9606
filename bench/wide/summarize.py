#!/usr/bin/env python3
"""Collect bench/wide/run.sh's per-repository results into results.md, results.tsv and results.json.

    bench/wide/summarize.py OUT REPOS_TXT [--only NAME] [--bin BIN]

OUT holds one directory per repository (meta, index1.*, index2.*, status.json); each gets an issues.tsv
(status, language, path, reason of every partial or failed file the status answer lists). With --only, prints
that repository's row and writes nothing but its issues.tsv. Stdlib only.
"""
import json, os, re, subprocess, sys
from collections import Counter


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = v
    return meta


def text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def error_of(err, rc):
    """The one line that says why a build failed."""
    if rc == 124:
        return "timeout"
    for pat in (r"^(fatal error: .*)$", r"^(panic: .*)$", r"^(runtime: .*)$"):
        m = re.search(pat, err, re.M)
        if m:
            return m.group(1).strip()
    i = err.rfind("ragraf: ")
    if i >= 0:
        return err[i + len("ragraf: "):].strip().splitlines()[0]
    m = re.findall(r'level=ERROR msg="([^"]*)"(?: err="((?:[^"\\]|\\.)*)")?', err)
    if m:
        return ": ".join(x for x in m[-1] if x)
    if rc >= 128:
        return f"killed by signal {rc - 128}"
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else f"exit {rc}"


def reason_class(reason):
    r = re.sub(r"'[^']*'", "'…'", reason or "(no reason)")
    return re.sub(r"\d+", "N", r)[:120]


def collect(out, name, rec):
    d = os.path.join(out, name)
    rc1 = int(rec["rc1"]) if rec.get("rc1", "").lstrip("-").isdigit() else None
    rec["rc1"] = rc1
    if rc1 is None:
        rec["result"] = rec.get("result", "not run")
    elif rc1 == 0:
        rec["result"] = "ok"
    else:
        rec["result"] = "failed"
        rec["error"] = error_of(text(os.path.join(d, "index1.err")), rc1)
    for k in ("php_files", "php_lines", "php_bytes", "rss1_kb", "rss2_kb", "rc2"):
        if rec.get(k, "").lstrip("-").isdigit():
            rec[k] = int(rec[k])
    for k in ("wall1", "cpu1", "wall2", "cpu2"):
        try:
            rec[k] = float(rec[k])
        except (KeyError, ValueError):
            rec.pop(k, None)
    try:
        summary = json.loads(text(os.path.join(d, "index1.out")))
        rec["files_total"] = summary.get("files_total")
    except ValueError:
        pass
    try:
        rec["reused2"] = json.loads(text(os.path.join(d, "index2.out"))).get("reused")
    except ValueError:
        pass
    if rec.get("rc2") not in (None, 0):
        rec["error2"] = error_of(text(os.path.join(d, "index2.err")), rec["rc2"])
    st = None
    try:
        st = json.loads(text(os.path.join(d, "status.json")))["result"]["files"]
    except (ValueError, KeyError, TypeError):
        pass
    if st is not None:
        php = st.get("by_language", {}).get("php", {})
        rec["ragraf_php"] = sum(php.values())
        rec["php_partial"] = php.get("partial", 0)
        rec["php_failed"] = php.get("failed", 0)
        rec["php_skipped"] = php.get("skipped", 0)
        by = st.get("by_status", {})
        rec["other_partial"] = by.get("partial", 0) - rec["php_partial"]
        rec["other_failed"] = by.get("failed", 0) - rec["php_failed"]
        issues, reasons = [], Counter()
        for status in ("partial", "failed"):
            for it in st.get(status) or []:
                lang = "php" if it["path"].endswith(".php") else "other"
                issues.append((status, lang, it["path"], it.get("reason", "")))
                reasons[f"{status}: {reason_class(it.get('reason'))}"] += 1
        listed = len(issues)
        rec["issues_listed"] = listed
        rec["reasons"] = dict(reasons.most_common())
        with open(os.path.join(d, "issues.tsv"), "w") as f:
            f.write("status\tlang\tpath\treason\n")
            for row in issues:
                f.write("\t".join(x.replace("\t", " ").replace("\n", " ") for x in row) + "\n")
    mb = rec.get("php_bytes", 0) / 1e6
    if mb and isinstance(rec.get("rss1_kb"), int):
        rec["rss_mb_per_php_mb"] = round(rec["rss1_kb"] / 1024 / mb, 1)
    if mb and rec.get("wall1"):
        rec["php_mb_per_s"] = round(mb / rec["wall1"], 2)
    if mb and rec.get("cpu1"):
        rec["cpu_s_per_php_mb"] = round(rec["cpu1"] / mb, 2)
    # stage ends of the second build from its -v log (ms from its start): where a 5-file rebuild spends its time
    for stage in ("extracted", "resolved"):
        m = re.search(r"msg=" + stage + r" .*?ms=(\d+)", text(os.path.join(d, "index2.err")))
        if m:
            rec[stage + "_ms2"] = int(m.group(1))
    return rec


def fmt(v, spec="{}"):
    return "" if v is None or v == "" else spec.format(v)


def md_row(r):
    res = r["result"]
    if res == "failed":
        res = f"**exit {r['rc1']}**: `{r.get('error', '')}`"
    other = ""
    if "other_partial" in r:
        other = f"{r['other_partial']} / {r['other_failed']}"
    reasons = "; ".join(f"{k} ×{v}" for k, v in list((r.get("reasons") or {}).items())[:3])
    second = fmt(r.get("wall2"), "{:.2f}")
    if r.get("rc2") not in (None, 0):
        second = f"exit {r['rc2']}: `{r.get('error2', '')}`"
    cells = [r["name"], fmt(r.get("php_files")), fmt(r.get("php_lines")),
             fmt(r.get("php_bytes", 0) / 1e6 if r.get("php_bytes") else None, "{:.1f}"), res,
             fmt(r.get("wall1"), "{:.2f}"), fmt(r.get("cpu1"), "{:.2f}"), fmt(r.get("cpu_s_per_php_mb")),
             fmt(r["rss1_kb"] // 1024 if isinstance(r.get("rss1_kb"), int) else None),
             fmt(r.get("rss_mb_per_php_mb")), fmt(r.get("ragraf_php")), fmt(r.get("php_partial")),
             fmt(r.get("php_failed")), fmt(r.get("php_skipped")), other,
             reasons, second]
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


HEADER = ("| repository | PHP files | PHP lines | PHP MB | result | wall s | CPU s | CPU s per PHP MB | peak RSS MB | RSS MB per PHP MB "
          "| PHP files in the index | PHP partial | PHP failed | PHP skipped | other partial / failed | reasons (first 3) "
          "| 2nd build s (5 files edited) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def summary_line(rows):
    ran = [r for r in rows if r["result"] in ("ok", "failed")]
    ok = [r for r in ran if r["result"] == "ok"]
    php = sum(r.get("ragraf_php", r.get("php_files", 0)) for r in ok)
    part = sum(r.get("php_partial", 0) for r in ok)
    fail = sum(r.get("php_failed", 0) for r in ok)
    wall = sum(r.get("wall1", 0) for r in ran)
    pct = f"{100 * part / php:.2f} %" if php else "-"
    s = (f"{len(ok)} of {len(ran)} repositories built ({len(rows) - len(ran)} not run); in those, {php} PHP files: "
         f"{part} partial ({pct}), {fail} failed; {wall:.0f} s of wall for the first builds")
    return s


def main():
    args = sys.argv[1:]
    only = binpath = None
    if "--only" in args:
        i = args.index("--only"); only = args[i + 1]; del args[i:i + 2]
    if "--bin" in args:
        i = args.index("--bin"); binpath = args[i + 1]; del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    out, repos = args
    order = []
    with open(repos) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                order.append(line.split()[0])
    rows = []
    for name in order:
        if only and name != only:
            continue
        mp = os.path.join(out, name, "meta")
        if not os.path.exists(mp):
            continue
        rows.append(collect(out, name, read_meta(mp)))
    if only:
        for r in rows:
            print(md_row(r))
        return
    version = ""
    if binpath:
        try:
            version = subprocess.run([binpath, "version"], capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            pass
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"binary": binpath, "version": version, "repos": rows}, f, indent=1)
    cols = ["name", "repo", "commit", "set", "php_files", "php_lines", "php_bytes", "result", "rc1", "error", "wall1",
            "cpu1", "cpu_s_per_php_mb", "rss1_kb", "rss_mb_per_php_mb", "php_mb_per_s", "ragraf_php", "php_partial", "php_failed", "php_skipped",
            "other_partial", "other_failed", "rc2", "wall2", "cpu2", "rss2_kb", "reused2", "extracted_ms2", "resolved_ms2"]
    with open(os.path.join(out, "results.tsv"), "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(r.get(c, "")) for c in cols) + "\n")
    md = []
    for label, subset in (("tune", [r for r in rows if r.get("set") != "heldout"]),
                          ("held out (never tuned on)", [r for r in rows if r.get("set") == "heldout"])):
        if not subset:
            continue
        md.append(f"**{label}**: {summary_line(subset)}\n")
        md.append(HEADER)
        md.extend(md_row(r) for r in subset)
        md.append("")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
