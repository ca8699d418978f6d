#!/usr/bin/env python3
"""bench/accuracy/migrate_public: `torchabi migrate` on public legacy extension
sources nobody in this project wrote (corpus.tsv), whose projects were later
ported to the stable ABI. Per file and in total:
  - uses with a stable replacement, and with a replacement or a named workaround
    (a blocker or gap of rules/api/migration_{blockers,gaps}.yaml, including the
    call by name of an ATen operator); goal >= 97% for the latter;
  - the plan's target against the port's real target (goal: not higher).
Exit 0 when both goals hold, 1 when not, 77 when the corpus is not available.

  bench.py TORCHABI CORPUS_DIR LEGACY_FLAGS...     (run.sh passes them)
"""
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def release_key(r):
    return tuple(int(x) for x in r.split(".")[:2])


def rows():
    with open(os.path.join(HERE, "corpus.tsv"), encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def plan_of(torchabi, src, name, flags):
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, os.path.basename(name))
        shutil.copy(src, local)
        r = subprocess.run([torchabi, "migrate", "--format", "json", "--cache-dir", os.path.join(tmp, ".cache"),
                            os.path.basename(name), "--"] + flags, cwd=tmp, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"bench: migrate failed on {name}: {r.stderr.strip()}")
        return json.loads(r.stdout)


def score(plan):
    named = {api for b in plan.get("blockers", []) if b["id"] != "no-stable-equivalent" for api in b["apis"]}
    uses = repl = worked = 0
    missing = []
    for a in plan["apis"]:
        if "/" in a["api"] or a["api"].endswith(".h"):
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


def main():
    torchabi, corpus, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    entries = rows()
    absent = [e for e in entries if not os.path.exists(os.path.join(corpus, e["file"]))]
    if absent:
        print(f"bench: {len(absent)} of {len(entries)} corpus files are not in {corpus}; fetch them "
              "(repository, path, commit in corpus.tsv) and rerun:", file=sys.stderr)
        for e in absent:
            print(f"  {e['file']}: {e['repo']} {e['path']} @ {e['commit']}", file=sys.stderr)
        return 77
    total = [0, 0, 0]
    targets = {}
    ok = True
    for e in entries:
        path = os.path.join(corpus, e["file"])
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if digest != e["sha256"]:
            print(f"bench: {e['file']}: sha256 {digest} is not the recorded version", file=sys.stderr)
            return 2
        plan = plan_of(torchabi, path, e["file"], flags)
        uses, repl, worked, missing = score(plan)
        t = plan["target_version"]["release"]
        total = [total[0] + uses, total[1] + repl, total[2] + worked]
        proj = targets.setdefault(e["project"], [e["port_target"], "0.0"])
        proj[1] = max(proj[1], t, key=release_key)
        print(f"{e['file']}: {uses} uses; {repl} with a replacement ({100 * repl / max(uses, 1):.1f}%), "
              f"{repl + worked} with a replacement or a named workaround ({100 * (repl + worked) / max(uses, 1):.1f}%); "
              f"plan target {t}")
        for m in missing:
            print(f"  neither: {m}")
    for proj, (port, plan) in sorted(targets.items()):
        fine = release_key(plan) <= release_key(port)
        ok &= fine
        print(f"{proj}: plan target {plan} vs the real port's {port}: {'not higher' if fine else 'HIGHER'}")
    uses, repl, worked = total
    share = (repl + worked) / max(uses, 1)
    print(f"all files: {uses} uses; {repl} with a replacement ({100 * repl / max(uses, 1):.1f}%), "
          f"{repl + worked} with a replacement or a named workaround ({100 * share:.1f}%, goal >= 97%)")
    return 0 if ok and share >= 0.97 else 1


if __name__ == "__main__":
    sys.exit(main())
