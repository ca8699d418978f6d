#!/usr/bin/env python3
"""Times commands for bench/audit/run.sh without a shell in the way.

  measure.py REPS -- CMD ARGS... [ '|' CMD ARGS... ]

Runs the command (or pipeline) once to warm the page cache, then REPS times,
and prints "WALL_MS CPU_MS": the medians of wall time and of user+sys CPU time
summed over every process of the pipeline (read with wait4, so start-up of
each process counts, and no shell is measured). Output goes to /dev/null.
"""
import os
import statistics
import subprocess
import sys
import time


def run_once(stages):
    start = time.perf_counter()
    procs = []
    with open(os.devnull, "wb") as devnull:
        prev = None
        for i, argv in enumerate(stages):
            last = i == len(stages) - 1
            p = subprocess.Popen(argv, stdin=prev.stdout if prev else subprocess.DEVNULL,
                                 stdout=devnull if last else subprocess.PIPE, stderr=subprocess.DEVNULL)
            if prev:
                prev.stdout.close()  # the next stage owns the pipe now
            procs.append(p)
            prev = p
        cpu = 0.0
        for p in procs:
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu


def main():
    reps = int(sys.argv[1])
    assert sys.argv[2] == "--"
    stages, cur = [], []
    for a in sys.argv[3:]:
        if a == "|":
            stages.append(cur)
            cur = []
        else:
            cur.append(a)
    stages.append(cur)
    run_once(stages)
    walls, cpus = [], []
    for _ in range(reps):
        w, c = run_once(stages)
        walls.append(w)
        cpus.append(c)
    print(f"{statistics.median(walls) * 1000:.1f} {statistics.median(cpus) * 1000:.1f}")


if __name__ == "__main__":
    main()
