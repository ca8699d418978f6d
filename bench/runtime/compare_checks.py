#!/usr/bin/env python3
"""What the per-call checks cost: `torchabi run` of a large stable extension
with this build against a baseline build of torchabi (another revision, e.g.
the one before a check was added), in one run on the same machine.

Usage: bench/runtime/compare_checks.py BUILD_DIR BASELINE_BUILD_DIR [--repeat N]

The extension is fixtures/real_stable built against real PyTorch headers
(BUILD_DIR/fixtures/real_stable/libreal_stable_release.so: 91 ops, shaped like
PyTorch's own 49-op stable test extension), run in smoke mode (one call per op)
and with its case file. Process time = user + sys of torchabi and its children,
best of N. Prints each figure and the ratio build / baseline.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_startup import SRC, measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("baseline_dir")
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    so = os.path.join(a.build_dir, "fixtures", "real_stable", "libreal_stable_release.so")
    if not os.path.exists(so):
        sys.exit(f"{so} is not built (it needs real PyTorch headers: scripts/fetch-torch.sh)")
    cases = os.path.join(SRC, "fixtures", "real_stable", "cases.yaml")
    runs = {"smoke (one call per op)": ["run", so], "case file": ["run", so, "--cases", cases]}
    for label, args in runs.items():
        new_cpu, new_wall = measure([os.path.join(a.build_dir, "torchabi")] + args, a.repeat)
        old_cpu, old_wall = measure([os.path.join(a.baseline_dir, "torchabi")] + args, a.repeat)
        print(f"{label}: {new_cpu * 1e3:.1f} ms process time ({new_wall * 1e3:.1f} ms wall); baseline "
              f"{old_cpu * 1e3:.1f} ms ({old_wall * 1e3:.1f} ms wall); ratio {new_cpu / old_cpu:.2f}x process time, "
              f"{new_wall / old_wall:.2f}x wall")


if __name__ == "__main__":
    main()
