#!/usr/bin/env python3
"""bench/accuracy/migrate: `torchabi migrate` plans against real ports.

For each fixtures/migrate/ports/<name>/ (legacy.cpp, its hand-written stable port stable.cpp,
and TARGET, the TORCH_TARGET_VERSION the port builds with), the plan of
legacy.cpp is compared with the port:
  - uses with a replacement: of the non-stable uses the port had to change
    (every use but #includes, which the header pass handles), how many the
    plan gives a stable replacement (goal >= 95%);
  - agreement: of those, how many name what the port wrote (the replacement's,
    or its older alternative's, last name appears in the port);
  - the plan's lowest target vs the port's, and the uses the plan says force more;
  - --fix: `migrate --fix --unsafe-fixes` on a copy, the rewrites it made, the uses
    left for a person, and whether the result compiles with g++ against the real
    stable headers (REAL_TORCH_INCLUDE) at the plan's target.
Then the replacement map against the facts of the port PyTorch's documentation
cites (cited_port.tsv): the same legacy API gives the port's stable API.

  bench.py TORCHABI LEGACY_FLAGS...     (run.sh passes them)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PORTS = os.path.join(ROOT, "fixtures/migrate/ports")


def last_name(api):
    api = api.split("(")[0]
    parts = api.split("::")
    # ScalarType::Half is more telling than Half.
    return "::".join(parts[-2:]) if len(parts) > 1 and parts[-2] in ("ScalarType", "Layout", "MemoryFormat", "DeviceType") else parts[-1]


def plan_of(torchabi, legacy, flags):
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(legacy, os.path.join(tmp, "legacy.cpp"))
        r = subprocess.run([torchabi, "migrate", "--format", "json", "--cache-dir", os.path.join(tmp, ".cache"),
                            "legacy.cpp", "--"] + flags, cwd=tmp, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"bench: migrate failed on {legacy}: {r.stderr.strip()}")
        return json.loads(r.stdout)


def pair(torchabi, name, flags):
    d = os.path.join(PORTS, name)
    plan = plan_of(torchabi, os.path.join(d, "legacy.cpp"), flags)
    port = open(os.path.join(d, "stable.cpp"), encoding="utf-8").read()
    port_target = open(os.path.join(d, "TARGET"), encoding="utf-8").read().strip()
    changed = with_repl = agree = worked_around = 0
    missing, disagree = [], []
    # APIs the plan lists under a named blocker or gap (rules/api/migration_{blockers,gaps}.yaml):
    # no stable replacement, but a workaround the plan spells out.
    named = {api for b in plan.get("blockers", []) if b["id"] != "no-stable-equivalent" for api in b["apis"]}
    for a in plan["apis"]:
        n = a["counts"]["total"] + a["counts"]["unchanged"]
        if "/" in a["api"] or a["api"].endswith(".h"):
            continue  # an include: the header pass replaces it
        changed += n
        if not a["replacement"]:
            if a["api"] in named:
                worked_around += n
            missing.append(f"{a['api']} ({n}){' workaround named' if a['api'] in named else ''}")
            continue
        with_repl += n
        names = [last_name(a["replacement"])] + ([last_name(a["alternative"])] if a.get("alternative") else [])
        if any(re.search(r"(?<![\w:])" + re.escape(x) + r"\b", port) or re.search(r"::" + re.escape(x) + r"\b", port)
               for x in names):
            agree += n
        else:
            disagree.append(f"{a['api']} -> {a['replacement']} ({n})")
    t = plan["target_version"]
    print(f"{name}: {with_repl}/{changed} uses with a replacement ({100 * with_repl / max(changed, 1):.1f}%), "
          f"{with_repl + worked_around}/{changed} with a replacement or a named workaround; "
          f"{agree}/{with_repl} agree with the port ({100 * agree / max(with_repl, 1):.1f}%); "
          f"plan target {t['release']} vs port {port_target}; "
          f"{plan['summary']['total']} uses of work, {plan['summary']['unchanged']} unchanged")
    for m in missing:
        print(f"  no replacement: {m}")
    for m in disagree:
        print(f"  differs from the port: {m}")
    for f in t.get("forced_by", []):
        print(f"  forces {t['release']}: {f}")
    fixed(torchabi, name, flags, t["hex"], t["release"])
    return with_repl, changed, agree


def fixed(torchabi, name, flags, hex_target, release):
    """--fix on a copy of the legacy file: rewrites made, uses left, and whether the
    result builds against the real headers at the planned target."""
    real = os.environ.get("REAL_TORCH_INCLUDE", "")
    stand_in = os.path.join(ROOT, "fixtures/migrate/stand_in_include")
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(PORTS, name, "legacy.cpp"), os.path.join(tmp, "legacy.cpp"))
        cache = ["--cache-dir", os.path.join(tmp, ".cache")]
        r = subprocess.run([torchabi, "migrate", "--fix", "--unsafe-fixes"] + cache + ["legacy.cpp", "--"] + flags +
                           ["-I" + stand_in], cwd=tmp, capture_output=True, text=True)
        made = re.search(r"made (\d+) rewrite", r.stderr)
        left = subprocess.run([torchabi, "migrate", "--format", "json"] + cache + ["legacy.cpp", "--"] + flags +
                              ["-I" + stand_in], cwd=tmp, capture_output=True, text=True)
        remaining = json.loads(left.stdout)["summary"]["total"] if left.returncode == 0 else "?"
        verdict = "not compiled (REAL_TORCH_INCLUDE unset)"
        if real:
            c = subprocess.run(["g++", "-fsyntax-only", "-std=c++17", f"-DTORCH_TARGET_VERSION={hex_target}",
                                "-isystem", real, "legacy.cpp"], cwd=tmp, capture_output=True, text=True)
            first = next((l for l in c.stderr.splitlines() if "error" in l), "")
            verdict = "compiles" if c.returncode == 0 else "does not compile (" + first.strip()[:120] + ")"
        print(f"  --fix: {made.group(1) if made else 0} rewrites, {remaining} uses left for a person; "
              f"against the real headers at {release}: {verdict}")


def find(entries, name, kind=""):
    """Replacements::find over the entries: exact first (file order), then the longest prefix."""
    best, star, best_len = None, "", -1
    for e in entries:
        if (kind == "" and e["kind"] in ("macro", "header")) or (kind and e["kind"] != kind):
            continue
        for l in e["legacy"]:
            if l == name:
                return e, name.rsplit("::", 1)[-1]
            if l.endswith("*") and name.startswith(l[:-1]) and len(l) - 1 > best_len:
                best, star, best_len = e, name[len(l) - 1:], len(l) - 1
    return best, star


def cited(torchabi_rules):
    import yaml  # python3-yaml: a test dependency
    entries = []
    for f in ("replacements.yaml", "replacements_derived.yaml"):
        entries += yaml.safe_load(open(os.path.join(torchabi_rules, "api", f), encoding="utf-8"))["apis"]
    alts = {a["for"]: a["use"] for a in
            yaml.safe_load(open(os.path.join(torchabi_rules, "api", "alternatives.yaml"), encoding="utf-8"))["alternatives"]}
    facts = [l.rstrip("\n").split("\t") for l in open(os.path.join(HERE, "cited_port.tsv"), encoding="utf-8")
             if l.strip() and not l.startswith("#")]
    ok = 0
    rows = [(a, b) for a, b in facts if a != "target"]
    for legacy, used in rows:
        e, star = find(entries, legacy)
        repl = (e.get("replacement") or "").replace("*", star) if e else ""
        got = {repl, alts.get(repl, "")}
        if used in got:
            ok += 1
        else:
            print(f"  cited port: {legacy} -> {used}; the map says {repl or 'nothing'}")
    print(f"cited port (facts): {ok}/{len(rows)} legacy APIs map to what the port used")
    return ok, len(rows)


def main():
    torchabi, flags = sys.argv[1], sys.argv[2:]
    total_repl = total_changed = total_agree = 0
    for name in sorted(os.listdir(PORTS)):
        r, c, a = pair(torchabi, name, flags)
        total_repl, total_changed, total_agree = total_repl + r, total_changed + c, total_agree + a
    print(f"all pairs: {total_repl}/{total_changed} uses with a replacement "
          f"({100 * total_repl / max(total_changed, 1):.1f}%, goal >= 95%), "
          f"{total_agree}/{total_repl} agree with the ports ({100 * total_agree / max(total_repl, 1):.1f}%)")
    ok, n = cited(os.path.join(ROOT, "rules"))
    return 0 if total_changed and total_repl / total_changed >= 0.95 and ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
