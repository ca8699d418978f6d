"""Recall of torchabi lint on legacy code (see run.sh).

Each fixture FILE has FILE.lines (the expected lines: a number first, the
rest of the line a comment; '#' lines are comments) and FILE.flags (compiler
flags, one a line; @ROOT@ is the repository). A line counts as found when a
finding of a use rule is on it.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

USE_RULES = {"source-unstable-api", "source-unstable-macro", "source-unstable-include", "source-inactive-branch"}


def expected_lines(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            number, _, why = line.partition(" ")
            out[int(number)] = why.strip()
    return out


def flags_of(path, root, real_cuda):
    flags = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                if real_cuda and line.startswith("--cuda-path="):
                    continue
                flags.append(line.replace("@ROOT@", root))
    return flags


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--real-cuda", action="store_true", help="use the machine's CUDA instead of the stand-in toolkit")
    a = ap.parse_args()
    fixtures = os.path.join(a.root, "bench", "accuracy", "recall", "fixtures")
    total = found = 0
    missed_all = []
    cache = tempfile.mkdtemp(prefix="torchabi-recall-")
    print(f"torchabi lint recall on legacy fixtures ({'real CUDA' if a.real_cuda else 'stand-in CUDA toolkit'})\n")
    for name in sorted(os.listdir(fixtures)):
        if name.endswith((".lines", ".flags")):
            continue
        src = os.path.join(fixtures, name)
        expected = expected_lines(src + ".lines")
        flags = flags_of(src + ".flags", a.root, a.real_cuda)
        cmd = [a.torchabi, "lint", "-q", "--format", "json", "--no-cache", "--cache-dir", cache, src, "--", *flags]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        took = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            sys.exit(f"recall: lint failed ({p.returncode}) on {name}:\n{p.stderr}")
        report = json.loads(p.stdout)
        hit = set()
        for f in report.get("findings", []):
            loc = f.get("location", {})
            if f.get("rule") in USE_RULES and os.path.basename(loc.get("file", "")) == name and loc.get("line"):
                hit.add(int(loc["line"]))
                # Calls unchanged on torch::stable::Tensor are folded into a note of the
                # file's first tensor-type finding ("...: dim() at 21:47; numel() at 20:19").
                for note in f.get("notes", []):
                    if "method call" in note and "written the same way" in note:
                        hit.update(int(m) for m in re.findall(r" at (\d+):\d+", note))
        text = open(src).read().split("\n")
        missed = sorted(set(expected) - hit)
        extra = sorted(hit - set(expected))
        total += len(expected)
        found += len(expected) - len(missed)
        pct = 100.0 * (len(expected) - len(missed)) / max(1, len(expected))
        print(f"{name:24s} {len(expected) - len(missed):3d}/{len(expected):<3d} lines  {pct:6.1f}%   ({took:.1f} s)")
        for n in missed:
            print(f"    missed {name}:{n}: {text[n - 1].strip()}   [{expected[n]}]")
            missed_all.append((name, n))
        for n in extra:
            print(f"    not listed {name}:{n}: {text[n - 1].strip()}")
    pct = 100.0 * found / max(1, total)
    print(f"\nrecall: {found}/{total} lines = {pct:.1f}%  ({len(missed_all)} missed)")
    print(json.dumps({"found": found, "expected": total, "recall": pct, "missed": [f"{n}:{l}" for n, l in missed_all]}))
    sys.exit(0 if not missed_all else 1)


if __name__ == "__main__":
    main()
