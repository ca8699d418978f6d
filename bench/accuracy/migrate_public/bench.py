#!/usr/bin/env python3
"""bench/accuracy/migrate_public: `torchabi migrate` on public legacy extension
sources nobody in this project wrote (corpus.tsv), whose projects were later
ported to the stable ABI, planned with each header set (Debian bookworm's
PyTorch 1.13.1 and Debian sid's 2.14.1) in one run. Per file, header set and in
total:
  - uses with a stable replacement, and with a replacement or a named workaround
    (a blocker or gap of rules/api/migration_{blockers,gaps}.yaml, including the
    call by name of an ATen operator); goal >= 97% for the latter, with each
    header set;
  - uses that 1.13.1's plan rewrites (--fix) or gives a replacement and 2.14.1's
    does not (goal: none, but for the APIs 2.14 declares header-only,
    fixtures/migrate/expected/release_differences.tsv);
  - the plan's target against the port's real target (goal: not higher).
Exit 0 when the goals hold, 1 when not, 77 when the corpus is not available.

  bench.py TORCHABI CORPUS_DIR SID_INCLUDE PYTHON_INCLUDE     (run.sh passes them)
"""
import concurrent.futures
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OLD, NEW = "1.13", "2.14"
# The projects the first version of this bench measured (2026-11-26); the rest
# were added for issue 40 and had not been seen when the rules were written.
FIRST = {"torchaudio", "torchvision"}
# Added for issue 40 (projects that later ported, read before their port).
ISSUE40 = {"xformers", "qutlass", "torchcodec", "torchao", "flash-attention"}


def group_of(project):
    if project in FIRST:
        return "first 6 files (torchaudio, torchvision)"
    if project in ISSUE40:
        return "files added for issue 40"
    return "held-out files added for issue 50"


def release_key(r):
    return tuple(int(x) for x in r.split(".")[:2])


def rows():
    with open(os.path.join(HERE, "corpus.tsv"), encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def release_differences():
    out = set()
    with open(os.path.join(ROOT, "fixtures/migrate/expected/release_differences.tsv"), encoding="utf-8") as f:
        for l in f:
            if l.strip() and not l.startswith("#"):
                out.add(l.split("\t")[0])
    return out


def names_difference(differs, api):
    """release_differences.tsv names api itself, or "X::*" for a member of X."""
    parts = api.split("::")
    return api in differs or any("::".join(parts[:i]) + "::*" in differs for i in range(1, len(parts)))


def header_flags(sid, py):
    common = ["-I" + py, "-DTORCH_EXTENSION_NAME=bench"]
    return {
        OLD: ["-std=c++17", "-I/usr/include/torch/csrc/api/include"] + common,
        NEW: ["-std=c++20", "-isystem", sid, "-isystem", sid + "/torch/csrc/api/include"] + common,
    }


def plan_of(torchabi, src, name, flags, saved=None):
    # TORCHABI_BENCH_PLANS=DIR keeps each plan there and reads it back when
    # present (to score again without planning again).
    if saved and os.path.exists(saved):
        with open(saved, encoding="utf-8") as f:
            return json.load(f)
    plan = plan_run(torchabi, src, name, flags)
    if saved:
        os.makedirs(os.path.dirname(saved), exist_ok=True)
        with open(saved, "w", encoding="utf-8") as f:
            json.dump(plan, f)
    return plan


def plan_run(torchabi, src, name, flags):
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, os.path.basename(name))
        shutil.copy(src, local)
        # TORCHABI_BENCH_RULES_DIR: plan with other rules than the binary's
        # (the rules of an earlier commit, to measure a rules change).
        rules = os.environ.get("TORCHABI_BENCH_RULES_DIR")
        # No time limit per file (TORCHABI_BENCH_TU_TIMEOUT, seconds; 0 = none):
        # on a loaded machine 2.14's headers take libclang past the default
        # 600 s, and a file not analysed would count no uses.
        timeout = os.environ.get("TORCHABI_BENCH_TU_TIMEOUT", "0")
        r = subprocess.run([torchabi] + (["--rules-dir", rules] if rules else []) +
                           ["migrate", "--format", "json", "--tu-timeout", timeout, "--cache-dir",
                            os.path.join(tmp, ".cache"), os.path.basename(name), "--"] + flags,
                           cwd=tmp, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"bench: migrate failed on {name}: {r.stderr.strip()}")
        plan = json.loads(r.stdout)
        if plan.get("errors"):
            sys.exit(f"bench: migrate did not analyse {name}: {plan['errors'][0]}")
        return plan


def is_include(api):
    return "/" in api or api.endswith(".h") or api.endswith(".cuh")


def score(plan):
    named = {api for b in plan.get("blockers", []) if b["id"] != "no-stable-equivalent" for api in b["apis"]}
    uses = repl = worked = 0
    missing = []
    for a in plan["apis"]:
        if is_include(a["api"]):
            continue  # an include: the header pass replaces it
        n = a["counts"]["total"] + a["counts"]["unchanged"]
        uses += n
        if a["replacement"]:
            repl += n
        elif a["api"] in named:
            worked += n
        else:
            missing.append(f"{a['api']} ({n})")
    return uses, repl, worked, missing


def losses(old, new, differs):
    """What 1.13.1's plan of a file rewrites or replaces and 2.14.1's does not,
    per place: a release may name the same use differently (at::cuda::CUDAGuard
    is c10::cuda::CUDAGuard's alias; x.device() is at::TensorBase's)."""
    out = []
    new_at = {}  # (line, column) -> [(api, has a replacement, rewrites)]
    new_on_line = {}  # (line, member name) -> APIs of that name on that line, at any column
    for b in new["apis"]:
        for u in b["uses"]:
            new_at.setdefault((u["line"], u["column"]), []).append(b)
            new_on_line.setdefault((u["line"], b["api"].rsplit("::", 1)[-1]), []).append(b)
    for a in old["apis"]:
        if is_include(a["api"]) or names_difference(differs, a["api"]):
            continue
        places = [(u["line"], u["column"]) for u in a["uses"]]
        # The same use, where one release reports it at the member name and
        # the other at the start of the object expression, and names the class
        # differently (x.dtype() on a line 1.13 cannot fully compile: at::Tensor's
        # at its column 8, 2.14's at::TensorBase's at 11): the same member name
        # on the same line.
        def at(p):
            return new_at.get(p, []) + new_on_line.get((p[0], a["api"].rsplit("::", 1)[-1]), [])
        there = {b["api"]: b for p in places for b in at(p)}.values()
        if a["replacement"]:
            lost = [p for p in places if not any(b["replacement"] for b in at(p))]
            if lost:
                out.append(f"{a['api']}: {len(lost)} uses with a replacement with {OLD} have none with {NEW} "
                           f"(first at line {lost[0][0]})")
        fixes = a["counts"]["fixable"] + a["counts"]["fixable_unsafe"]
        new_fixes = sum(b["counts"]["fixable"] + b["counts"]["fixable_unsafe"] for b in there)
        if new_fixes < fixes:
            out.append(f"{a['api']}: {fixes} rewrites with {OLD}, {new_fixes} with {NEW} at its places")
    return out


def pct(a, b):
    return f"{100 * a / max(b, 1):.1f}%"


def main():
    torchabi, corpus, sid, py = sys.argv[1:5]
    entries = rows()
    # TORCHABI_BENCH_ONLY=a,b plans only those projects' files or those files.
    only = os.environ.get("TORCHABI_BENCH_ONLY")
    if only:
        entries = [e for e in entries if e["project"] in only.split(",") or e["file"] in only.split(",")]
    absent = [e for e in entries if not os.path.exists(os.path.join(corpus, e["file"]))]
    # TORCHABI_BENCH_PRESENT_ONLY=1 scores the files that are there (a
    # repository too large to fetch) and says which were left out.
    if absent and os.environ.get("TORCHABI_BENCH_PRESENT_ONLY") == "1":
        for e in absent:
            print(f"bench: left out (absent): {e['file']}")
        entries = [e for e in entries if e not in absent]
        absent = []
    if absent:
        print(f"bench: {len(absent)} of {len(entries)} corpus files are not in {corpus}; fetch them "
              "(repository, path, commit in corpus.tsv) and rerun:", file=sys.stderr)
        for e in absent:
            print(f"  {e['file']}: {e['repo']} {e['path']} @ {e['commit']}", file=sys.stderr)
        return 77
    for e in entries:
        digest = hashlib.sha256(open(os.path.join(corpus, e["file"]), "rb").read()).hexdigest()
        if digest != e["sha256"]:
            print(f"bench: {e['file']}: sha256 {digest} is not the recorded version", file=sys.stderr)
            return 2
    flags = header_flags(sid, py)
    differs = release_differences()
    jobs = int(os.environ.get("TORCHABI_BENCH_JOBS", "2"))
    keep = os.environ.get("TORCHABI_BENCH_PLANS")
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {(e["file"], h): pool.submit(plan_of, torchabi, os.path.join(corpus, e["file"]), e["file"], flags[h],
                                                 os.path.join(keep, h, e["file"] + ".json") if keep else None)
                   for e in entries for h in (OLD, NEW)}
        # Printed file by file as the plans arrive (a run takes minutes).
        plans = {}

        # totals[group][header] = [uses, with a replacement, with a workaround]
        totals = {}
        unexplained = {}  # header -> api -> uses with neither, over all files
        targets = {}
        lost_total = 0
        for e in entries:
            for h in (OLD, NEW):
                plans[(e["file"], h)] = futures[(e["file"], h)].result()
            group = group_of(e["project"])
            parts = []
            for h in (OLD, NEW):
                plan = plans[(e["file"], h)]
                uses, repl, worked, missing = score(plan)
                t = plan["target_version"]["release"]
                for m in missing:
                    api, n = m.rsplit(" (", 1)
                    unexplained.setdefault(h, {}).setdefault(api, 0)
                    unexplained[h][api] += int(n.rstrip(")"))
                for g in (group, "all files"):
                    tot = totals.setdefault(g, {}).setdefault(h, [0, 0, 0])
                    tot[0] += uses
                    tot[1] += repl
                    tot[2] += worked
                if e["port_target"] != "-":  # "-": a project not ported yet
                    proj = targets.setdefault((e["project"], h), [e["port_target"], "0.0"])
                    proj[1] = max(proj[1], t, key=release_key)
                parts.append((h, uses, repl, worked, missing, t))
            print(f"{e['file']}:")
            for h, uses, repl, worked, missing, t in parts:
                print(f"  {h}: {uses} uses; {repl} with a replacement ({pct(repl, uses)}), {repl + worked} with a "
                      f"replacement or a named workaround ({pct(repl + worked, uses)}); plan target {t}")
                for m in missing:
                    print(f"    neither: {m}")
            lost = losses(plans[(e["file"], OLD)], plans[(e["file"], NEW)], differs)
            lost_total += len(lost)
            for l in lost:
                print(f"  LOST with {NEW}: {l}")
            sys.stdout.flush()
    ok = lost_total == 0
    for (proj, h), (port, plan) in sorted(targets.items()):
        fine = release_key(plan) <= release_key(port)
        ok &= fine
        print(f"{proj} ({h}): plan target {plan} vs the real port's {port}: {'not higher' if fine else 'HIGHER'}")
    for h in (OLD, NEW):
        top = sorted(unexplained.get(h, {}).items(), key=lambda kv: (-kv[1], kv[0]))
        print(f"with neither, {h} headers, all files: " + (", ".join(f"{a} {n}" for a, n in top) or "none"))
    for g in sorted(totals, key=lambda g: g == "all files"):
        for h in (OLD, NEW):
            uses, repl, worked = totals[g][h]
            share = (repl + worked) / max(uses, 1)
            if g == "all files":
                ok &= share >= 0.97
            print(f"{g}, {h} headers: {uses} uses; {repl} with a replacement ({pct(repl, uses)}), {repl + worked} "
                  f"with a replacement or a named workaround ({pct(repl + worked, uses)}"
                  f"{', goal >= 97%' if g == 'all files' else ''})")
    print(f"uses that lose a rewrite or a replacement with {NEW} headers: {lost_total} (goal 0)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
