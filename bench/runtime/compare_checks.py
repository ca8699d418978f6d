#!/usr/bin/env python3
"""What the per-call checks cost: `torchabi run` of a large stable extension
with this build against a baseline build of torchabi (another revision, e.g.
the one before a check was added), in one run on the same machine.

Usage: bench/runtime/compare_checks.py BUILD_DIR BASELINE_BUILD_DIR [--repeat N]

Two runs: fixtures/real_stable built against real PyTorch headers
(BUILD_DIR/fixtures/real_stable/libreal_stable_release.so: 110 ops, shaped like
PyTorch's own 49-op stable test extension) in smoke mode, one call per op; and
the ATen probe (fixtures/runtime/aten_probe.cpp) with the ~3,700 cases
scripts/against-torch/gen_aten_cases.py writes (every ATen op the stable
headers reach, on every dtype and layout): many calls with larger inputs.
Process time = user + sys of torchabi and its children, best of N. Prints each
figure and the ratio build / baseline.
"""
import argparse
import os
import subprocess
import sys
import tempfile

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
    work = tempfile.mkdtemp(prefix="torchabi-bench-")
    tsv = os.path.join(SRC, "rules", "runtime", "aten_ops.tsv")
    aten_cases = os.path.join(work, "aten_probe.yaml")
    subprocess.run([sys.executable, os.path.join(SRC, "scripts", "against-torch", "gen_aten_cases.py"), tsv, aten_cases],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ["TORCHABI_ATEN_PROBE_OPS"] = tsv
    probe = os.path.join(a.build_dir, "fixtures", "runtime", "aten_probe.so")
    runs = {"real_stable, smoke (one call per op)": ["run", so],
            "ATen probe, generated cases": ["run", probe, "--cases", aten_cases]}
    for label, args in runs.items():
        new_cpu, new_wall = measure([os.path.join(a.build_dir, "torchabi")] + args, a.repeat)
        old_cpu, old_wall = measure([os.path.join(a.baseline_dir, "torchabi")] + args, a.repeat)
        print(f"{label}: {new_cpu * 1e3:.1f} ms process time ({new_wall * 1e3:.1f} ms wall); baseline "
              f"{old_cpu * 1e3:.1f} ms ({old_wall * 1e3:.1f} ms wall); ratio {new_cpu / old_cpu:.2f}x process time, "
              f"{new_wall / old_wall:.2f}x wall")


if __name__ == "__main__":
    main()
