#!/usr/bin/env python3
"""bench/accuracy/real_stable: precision of `torchabi check` on the stable TUs of the
public repositories of ../real_repos/repos.tsv (whatever rows it has), with real
PyTorch headers. Every error and warning is classified once by hand in
expectations.tsv (repo, file, line, rule, severity, verdict true|wrong, reason); the
report counts per rule true / wrong / unclassified, so a regression is a changed count.

  bench.py TORCHABI INCLUDE [--only NAME,...] [--rerun | --cached] [--timeout S] [--unclassified]

setup.py runs with TORCHABI_REAL_STABLE_PYTHON (default /usr/bin/python3, Debian's
python3-torch, when it exists): the interpreter a build machine has, with a torch, as
../real_repos' "with torch" run. The check runs on a copy of TORCHABI (a rebuild during
the run does not mix two versions) in a session of its own: a timeout kills its whole
process group (the parser children, setup.py, cmake), not torchabi alone.

The repositories are materialised by ../real_repos/bench.py (imported, not copied);
each check's JSON is cached in ~/.cache/torchabi/real-stable/<name>-<commit12>.json
(TORCHABI_REAL_STABLE_CACHE) so classifying needs no re-run; --rerun refreshes it.
"""
import csv, importlib.util, json, os, shutil, signal, subprocess, sys, tempfile, time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("real_repos", os.path.join(HERE, "..", "real_repos", "bench.py"))
rr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rr)
PYTHON = os.environ.get("TORCHABI_REAL_STABLE_PYTHON", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "")
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
    args = [torchabi, "check", "--format", "json", "--no-cache", "--torch-include", include]
    args += (["--python", PYTHON] if PYTHON else []) + [sub]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=sub,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except BaseException:  # the timeout, or the bench itself interrupted
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.communicate()
        raise
    try:
        return json.loads(out)
    except ValueError:
        tail = err.strip().splitlines()[-1:] or ["no stderr"]
        raise ValueError(f"exit {p.returncode}, {len(out)} bytes of stdout; {tail[0][:200]}") from None


def main():
    a = sys.argv[1:]
    torchabi, include = os.path.abspath(a[0]), os.path.abspath(a[1])  # the check runs in the repository
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # kills the check under way too
    only = set(a[a.index("--only") + 1].split(",")) if "--only" in a else None
    timeout = int(a[a.index("--timeout") + 1]) if "--timeout" in a else 900
    os.makedirs(OUT, exist_ok=True)
    exp = expectations()
    with tempfile.TemporaryDirectory() as tmp:
        # Readable by anyone: torchabi runs build scripts as an unprivileged user when root.
        os.chmod(tmp, 0o755)
        snap = os.path.join(tmp, "torchabi")
        shutil.copy2(torchabi, snap)
        return tally(a, snap, include, only, timeout, exp)


def tally(a, torchabi, include, only, timeout, exp):
    counts = defaultdict(lambda: defaultdict(int))  # (rule, sev) -> verdict -> n
    tus, unclassified, total = 0, [], 0.0
    reported, ran = set(), set()
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
                print(f"{row['name']:26} no report ({type(e).__name__}: {e})", flush=True)
                continue
            dt = time.monotonic() - t0
            j["bench_seconds"] = round(dt, 1)
            with open(cache, "w") as f:
                json.dump(j, f)
        else:
            with open(cache) as f:
                j = json.load(f)
            dt = j.get("bench_seconds", 0)
        total += dt
        ran.add(row["name"])
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
            reported.add(key)
            v = e["verdict"] if e else "unclassified"
            counts[(fd["rule"], sev)][v] += 1
            nf += 1
            if not e:
                unclassified.append(key + (fd.get("message", "")[:160],))
        print(f"{row['name']:26} TUs {n_tu:4}  errors+warnings {nf:4}  {dt:6.1f}s", flush=True)
        for err in j.get("errors", []):  # an input the check could not use: the figures are not valid
            print(f"{'':26} input error: {err.get('input', '')}: {err.get('message', '')}", flush=True)
    print(f"\n{'rule':44} {'sev':8} {'true':>5} {'wrong':>5} {'uncl':>5}")
    wrong_w = wrong_e = 0
    for (rule, sev), c in sorted(counts.items()):
        print(f"{rule:44} {sev:8} {c['true']:5} {c['wrong']:5} {c['unclassified']:5}")
        wrong_w += c["wrong"] if sev == "warning" else 0
        wrong_e += c["wrong"] if sev == "error" else 0
    print(f"\nTUs linted: {tus}; wrong errors: {wrong_e}; wrong warnings: {wrong_w} "
          f"({20 * wrong_w / tus if tus else 0:.2f} per 20 TUs); unclassified: {len(unclassified)}; "
          f"check time {total:.0f}s")
    # A classified finding no longer reported: a wrong one fixed, or a true one lost.
    gone = [k for k in exp if k[0] in ran and k not in reported]
    print(f"classified but no longer reported: {sum(exp[k]['verdict'] == 'true' for k in gone)} true (lost), "
          f"{sum(exp[k]['verdict'] == 'wrong' for k in gone)} wrong (fixed)")
    if "--unclassified" in a:
        for u in unclassified:
            print("\t".join(u))
        for k in gone:
            print("\t".join(k + ("no longer reported (" + exp[k]["verdict"] + ")",)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
