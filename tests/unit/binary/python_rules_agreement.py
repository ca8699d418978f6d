#!/usr/bin/env python3
"""rules/python/ against Debian's CPython and auditwheel packages: regenerates
the tables with scripts/build-python-rules.sh and fails when a committed row
disagrees. A newer upload may add rows, or narrow a symbol's range (a new
CPython release bounds it better), never contradict one. Exit 77 (skipped)
when the packages cannot be downloaded."""
import csv
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parents[3]


def rows(path, key_columns):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t")
    return {tuple(r[k] for k in key_columns): r for r in reader}


def vt(s):
    return tuple(int(x) for x in s.split("."))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([str(root / "scripts/build-python-rules.sh"), tmp], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"skipped: cannot regenerate from Debian's packages: {run.stderr.strip().splitlines()[-1:]}")
            return 77
        errors = []
        fresh = rows(f"{tmp}/stable_abi.tsv", ["symbol"])
        committed = rows(root / "rules/python/stable_abi.tsv", ["symbol"])
        if len(committed) < 900:
            errors.append(f"rules/python/stable_abi.tsv has only {len(committed)} symbols")
        for key, c in committed.items():
            f = fresh.get(key)
            if f is None:
                errors.append(f"{key[0]}: committed, but no longer in CPython's stable ABI lists")
            elif not (vt(c["added_min"]) <= vt(f["added_min"]) and vt(f["added_max"]) <= vt(c["added_max"])):
                errors.append(f"{key[0]}: committed {c['added_min']}..{c['added_max']}, "
                              f"the packages say {f['added_min']}..{f['added_max']}")
            elif c["platform"] != f["platform"]:
                errors.append(f"{key[0]}: committed platform '{c['platform']}', the packages say '{f['platform']}'")
        keys = ["policy", "arch", "namespace"]
        fresh = rows(f"{tmp}/platform_policies.tsv", keys)
        for key, c in rows(root / "rules/python/platform_policies.tsv", keys).items():
            if fresh.get(key) != c:
                errors.append(f"{'/'.join(key)}: committed {c}, the packages say {fresh.get(key)}")
        for e in errors[:30]:
            print(e)
        print(f"{len(committed)} stable-ABI symbols and the platform policies checked: {len(errors)} disagreements")
        return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
