"""Predicted imports (lint's `build imports` fact) against nm of real objects.

For every TU of fixtures/real_stable, compiled again from the build's own
command line at -O0 and -O2, at the file's lowest target and without
TORCH_TARGET_VERSION: symbols missed (imported but not predicted: the floor
could be understated), extra (predicted, not imported: the optimiser folded
the call away), and whether the floor they imply agrees.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def catalog_since(root):
    since = {}
    with open(os.path.join(root, "rules/api/stable_c_functions.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            v = cols[1].lstrip("<=")
            since[cols[0]] = tuple(int(x) for x in v.split(".")[:2])
    return since


def floor(names, since):
    return max((since.get(n, (2, 9)) for n in names), default=(2, 9))


def main():
    build = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    since = catalog_since(root)
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    rows = []
    for variant, drop in (("lowest", False), ("release", True)):
        units = [e for e in db if "fixture_real_stable_%s.dir/" % variant in e["command"]]
        for opt in ("-O0", "-O2"):
            tmp = tempfile.mkdtemp()
            entries = []
            for e in units:
                cmd = e["command"]
                if drop:
                    cmd = re.sub(r" -DTORCH_TARGET_VERSION=\S+", "", cmd)
                obj = os.path.join(tmp, os.path.basename(e["file"]) + ".o")
                cmd = re.sub(r" -O\d", " " + opt, re.sub(r" -o \S+", " -o " + obj, cmd))
                subprocess.run(cmd, shell=True, cwd=e["directory"], check=True)
                entries.append(dict(e, command=cmd, obj=obj))
            json.dump(entries, open(os.path.join(tmp, "compile_commands.json"), "w"))
            out = subprocess.run([os.path.join(build, "torchabi"), "lint", "-p", tmp, "--format", "json", "--no-cache"],
                                 capture_output=True, text=True).stdout
            pred = {}
            for s in json.loads(out)["subjects"]:
                fact = s["facts"].get("build imports", "")
                pred[os.path.basename(s["path"])] = set(x.strip() for x in fact.split(": ", 1)[1].split(",")) if ": " in fact else set()
            missed = extra = same_floor = 0
            for e in entries:
                nm = subprocess.run(["nm", "-u", "--format=just-symbols", e["obj"]], capture_output=True, text=True).stdout.split()
                real = set(x for x in nm if x.startswith(("aoti_torch_", "torch_")))
                p = pred.get(os.path.basename(e["file"]), set())
                missed += len(real - p)
                extra += len(p - real)
                same_floor += floor(real, since) == floor(p, since)
            target = "lowest target" if not drop else "no target"
            rows.append((target, opt, len(entries), missed, extra, same_floor))
    print("| build | opt | TUs | imports missed | predicted, not imported | same floor |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %d | %d | %d | %d/%d |" % (r[0], r[1], r[2], r[3], r[4], r[5], r[2]))


if __name__ == "__main__":
    main()
