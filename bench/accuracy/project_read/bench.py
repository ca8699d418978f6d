#!/usr/bin/env python3
"""bench/accuracy/project_read: `torchabi check DIR` on the fixture repositories,
with the build system asked (the default: setup.py run, CMake configured) and
with the files only read (--no-run-build), against the ground truth of
projects.json: sources the Linux build compiles that were not linted
(missed) or linted but not compiled (extra), build-* findings missed or
false, and the time of each method. One run, both methods, real 2.14.1
headers (scripts/fetch-torch.sh) when present, else the stand-ins."""
import json
import os
import subprocess
import sys
import time

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
torchabi = os.path.join(build, "torchabi")
real = os.path.join(build, "torch-sid", "root", "usr", "include")
include = real if os.path.isdir(os.path.join(real, "torch", "csrc", "stable")) else os.path.join(root, "fixtures", "lint", "include")
spec = json.load(open(os.path.join(os.path.dirname(__file__), "projects.json")))


def run(project, run_build):
    d = os.path.join(root, project["dir"])
    args = [torchabi, "check", "--format", "json", "--python", "/usr/bin/python3", "--torch-include", include,
            "--no-cache", "--run-build" if run_build else "--no-run-build", d]
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, cwd=root)
    dt = time.monotonic() - t0
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return None, dt, p.stderr.strip().splitlines()[-1:] or ["no output"]
    return j, dt, []


def score(project, j):
    d = os.path.join(root, project["dir"])
    want_src = set(project["sources"])
    got_src = set()
    for s in (j or {}).get("subjects", []):
        if s.get("kind") == "translation-unit":
            got_src.add(os.path.relpath(os.path.join(root, s["path"]), d))
    want = {tuple(f) for f in project["findings"]}
    got = set()
    for f in (j or {}).get("findings", []):
        sev = f.get("severity")
        if not (f["rule"].startswith("build-") or project.get("all_findings")) or sev == "note":
            continue
        got.add((f["rule"], os.path.basename(f["location"].get("file", "")), f["location"].get("line", 0)))
    return (len(want_src - got_src), len(got_src - want_src), len(want - got), len(got - want),
            sorted(want_src - got_src), sorted(want - got), sorted(got - want))


totals = {True: [0] * 6, False: [0] * 6}
print(f"headers: {include}")
print(f"{'project':52} {'method':6} {'missed src':>10} {'extra src':>9} {'missed':>6} {'false':>5} {'time':>7}")
for project in spec["projects"]:
    for run_build in (True, False):
        j, dt, err = run(project, run_build)
        ms, es, mf, ff, msl, mfl, ffl = score(project, j)
        t = totals[run_build]
        for k, v in enumerate((ms, es, mf, ff)):
            t[k] += v
        t[4] += dt
        t[5] += 1 if (ms == 0 and es == 0) else 0
        name = "run" if run_build else "read"
        print(f"{project['dir'][18:]:52} {name:6} {ms:>10} {es:>9} {mf:>6} {ff:>5} {dt:>6.2f}s")
        for what, items in (("missed source", msl), ("missed finding", mfl), ("false finding", ffl), ("error", err)):
            for i in items:
                print(f"    {what}: {i}")
n = len(spec["projects"])
for run_build in (True, False):
    t = totals[run_build]
    print(f"{'run (default)' if run_build else 'read (--no-run-build)'}: {t[5]}/{n} projects read exactly; "
          f"{t[0]} missed and {t[1]} extra sources; {t[2]} missed and {t[3]} false findings; {t[4]:.1f} s")
rt, st = totals[True][4], totals[False][4]
print(f"time ratio run/read: {rt / st:.2f}")
sys.exit(1 if totals[True][0] + totals[True][1] + totals[True][2] + totals[True][3] else 0)
