#!/usr/bin/env python3
"""bench/accuracy/real_stable: precision of `torchabi check` on the stable TUs of the
public repositories of ../real_repos/repos.tsv (whatever rows it has), with real
PyTorch headers. Every error and warning is classified once by hand in
expectations.tsv (repo, file, line, rule, severity, verdict true|wrong, reason); the
report counts per rule true / wrong / unclassified, so a regression is a changed count.

  bench.py TORCHABI INCLUDE [--only NAME,...] [--rerun | --cached] [--timeout S] [--unclassified]

The repositories are materialised by ../real_repos/bench.py (imported, not copied);
each check's JSON is cached in ~/.cache/torchabi/real-stable/<name>-<commit12>.json
(TORCHABI_REAL_STABLE_CACHE) so classifying needs no re-run; --rerun refreshes it.
"""
import csv, importlib.util, json, os, subprocess, sys, time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("real_repos", os.path.join(HERE, "..", "real_repos", "bench.py"))
rr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rr)
OUT = os.environ.get("TORCHABI_REAL_STABLE_CACHE", os.path.expanduser("~/.cache/torchabi/real-stable"))


def expectations():
    exp = {}
    p = os.path.join(HERE, "expectations.tsv")
    if os.path.exists(p):
        with open(p, encoding="utf-8") as f:
            lines = [l for l in f if l.strip() and not l.startswith("#")]
        for r in csv.DictReader(lines, delimiter="\t"):
            exp[(r["repo"], r["file"], r["line"], r["rule"], r["severity"])] = r
    return exp


def run(torchabi, include, sub, timeout):
    args = [torchabi, "check", "--format", "json", "--no-cache", "--torch-include", include, sub]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=sub,
                       stdin=subprocess.DEVNULL, timeout=timeout)
    return json.loads(p.stdout)


def main():
    a = sys.argv[1:]
    torchabi, include = a[0], a[1]
    only = set(a[a.index("--only") + 1].split(",")) if "--only" in a else None
    timeout = int(a[a.index("--timeout") + 1]) if "--timeout" in a else 900
    os.makedirs(OUT, exist_ok=True)
    exp = expectations()
    counts = defaultdict(lambda: defaultdict(int))  # (rule, sev) -> verdict -> n
    tus, unclassified = 0, []
    for row in rr.rows():
        if only and row["name"] not in only:
            continue
        if rr.git_dir(row["repo"]) is None:
            print(f"{row['name']:26} mirror absent", flush=True)
            continue
        d, _ = rr.materialise(row)
        sub = os.path.join(d, row["subdir"])
        cache = os.path.join(OUT, f"{row['name']}-{row['commit'][:12]}.json")  # kc-* rows share a commit
        if not os.path.exists(cache) and "--cached" in a:
            print(f"{row['name']:26} not run yet (--cached)", flush=True)
            continue
        if "--rerun" in a or not os.path.exists(cache):
            t0 = time.monotonic()
            try:
                j = run(torchabi, include, sub, timeout)
            except (subprocess.TimeoutExpired, ValueError) as e:
                print(f"{row['name']:26} no report ({type(e).__name__})", flush=True)
                continue
            with open(cache, "w") as f:
                json.dump(j, f)
            dt = time.monotonic() - t0
        else:
            with open(cache) as f:
                j = json.load(f)
            dt = 0
        n_tu = sum(1 for s in j.get("subjects", []) if s.get("kind") == "translation-unit")
        tus += n_tu
        nf = 0
        for fd in j.get("findings", []):
            sev = fd.get("severity")
            if sev not in ("error", "warning"):
                continue
            loc = fd.get("location") or {}
            f = os.path.relpath(loc.get("file", ""), d) if loc.get("file", "").startswith(d) else loc.get("file", "")
            key = (row["name"], f, str(loc.get("line", "")), fd["rule"], sev)
            e = exp.get(key)
            v = e["verdict"] if e else "unclassified"
            counts[(fd["rule"], sev)][v] += 1
            nf += 1
            if not e:
                unclassified.append(key + (fd.get("message", "")[:160],))
        print(f"{row['name']:26} TUs {n_tu:4}  errors+warnings {nf:4}  {dt:6.1f}s", flush=True)
    print(f"\n{'rule':44} {'sev':8} {'true':>5} {'wrong':>5} {'uncl':>5}")
    wrong_w = wrong_e = 0
    for (rule, sev), c in sorted(counts.items()):
        print(f"{rule:44} {sev:8} {c['true']:5} {c['wrong']:5} {c['unclassified']:5}")
        wrong_w += c["wrong"] if sev == "warning" else 0
        wrong_e += c["wrong"] if sev == "error" else 0
    print(f"\nTUs linted: {tus}; wrong errors: {wrong_e}; wrong warnings: {wrong_w} "
          f"({20 * wrong_w / tus if tus else 0:.2f} per 20 TUs); unclassified: {len(unclassified)}")
    if "--unclassified" in a:
        for u in unclassified:
            print("\t".join(u))
    return 0


if __name__ == "__main__":
    sys.exit(main())
