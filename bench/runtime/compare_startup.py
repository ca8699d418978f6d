#!/usr/bin/env python3
"""Start, load and run every runtime fixture case with `torchabi run`, and
compare the process time with what users run instead to try an extension:
`python3 -c "import torch"` (before a single op has run).

Usage: bench/runtime/compare_startup.py BUILD_DIR [--repeat N] [--python PY] [-- EXTRA TORCHABI ARGS]

Process time is user + system CPU of the process and all its children
(torchabi forks a child per extension), measured with getrusage; wall time is
reported too. The hanging fixtures are left out: their cost is the time limit.
"""
import argparse
import os
import resource
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(cmd, repeat):
    best_cpu, best_wall = None, None
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode not in (0, 1):
            sys.exit("failed (exit %d): %s" % (proc.returncode, " ".join(cmd)))
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
        best_wall = wall if best_wall is None else min(best_wall, wall)
    return best_cpu, best_wall


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the Python that has torch (Debian's python3-torch)")
    a = ap.parse_args(argv)
    a.extra = extra
    torchabi = os.path.join(a.build_dir, "torchabi")
    fixtures = os.path.join(a.build_dir, "fixtures", "runtime")
    runs = [[torchabi] + a.extra + ["run", os.path.join(fixtures, "good_ops.so"),
                                    "--cases", os.path.join(SRC, "fixtures/runtime/good_ops.yaml")]]
    for so in sorted(os.listdir(fixtures)):
        if not so.endswith(".so") or so in ("good_ops.so", "bad_hang.so", "bad_init_hang.so"):
            continue
        cmd = [torchabi] + a.extra + ["run", os.path.join(fixtures, so)]
        yaml = os.path.join(SRC, "fixtures/runtime/bad", so[4:-3] + ".yaml")
        if os.path.exists(yaml):
            cmd += ["--cases", yaml]
        runs.append(cmd)

    total_cpu = total_wall = 0.0
    for cmd in runs:
        cpu, wall = measure(cmd, a.repeat)
        total_cpu += cpu
        total_wall += wall
    torch_cpu, torch_wall = measure([a.python, "-c", "import torch"], a.repeat)
    bare_cpu, _ = measure([torchabi, "--version"], a.repeat)

    print("torchabi run, all %d runtime fixtures (start + load + run every case): "
          "%.1f ms process time, %.1f ms wall" % (len(runs), total_cpu * 1e3, total_wall * 1e3))
    print("per fixture: %.1f ms process time, of which %.1f ms is starting the torchabi binary "
          "(`torchabi --version`)" % (total_cpu * 1e3 / len(runs), bare_cpu * 1e3))
    print('python3 -c "import torch": %.1f ms process time, %.1f ms wall' % (torch_cpu * 1e3, torch_wall * 1e3))
    print("ratio (import torch / all torchabi runs): %.1fx process time, %.1fx wall"
          % (torch_cpu / total_cpu, torch_wall / total_wall))
    print("ratio (import torch / one torchabi run): %.0fx process time" % (torch_cpu * len(runs) / total_cpu))


if __name__ == "__main__":
    main()
