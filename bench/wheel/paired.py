#!/usr/bin/env python3
"""Times two commands in alternation, for bench/wheel/run.sh: A, B, A, B, ...
so that both see the same load on a shared machine.

  paired.py REPS -- A ARGS... [ '|' ... ] -- B ARGS... [ '|' ... ]

Each side is a command or a pipeline (stages split by '|'), run once to warm
the page cache, then REPS times alternating with the other side. Prints
"A_WALL_MS A_CPU_MS B_WALL_MS B_CPU_MS": medians of wall time and of user+sys
CPU time of every process of the side (bench/audit/measure.py's run_once).
Output is discarded: run.sh checks each command's result once before timing.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "audit"))
from measure import run_once  # noqa: E402


def stages_of(argv):
    stages, cur = [], []
    for a in argv:
        if a == "|":
            stages.append(cur)
            cur = []
        else:
            cur.append(a)
    stages.append(cur)
    return stages


def main():
    reps = int(sys.argv[1])
    rest = sys.argv[2:]
    if rest[:1] != ["--"] or rest[1:].count("--") != 1:
        sys.exit("usage: paired.py REPS -- A... -- B...")
    cut = rest.index("--", 1)
    sides = [stages_of(rest[1:cut]), stages_of(rest[cut + 1:])]
    for s in sides:
        run_once(s)
    times = [([], []), ([], [])]
    for _ in range(reps):
        for i, s in enumerate(sides):
            w, c = run_once(s)
            times[i][0].append(w)
            times[i][1].append(c)
    print(" ".join("%.1f %.1f" % (statistics.median(w) * 1000, statistics.median(c) * 1000) for w, c in times))


if __name__ == "__main__":
    main()
