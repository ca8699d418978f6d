"""Measures torchabi lint against clang++-19 -fsyntax-only (see run.sh).

Each pair of commands is run alternately RUNS times after a warm-up, so both
see the same machine load; the figures are medians of wall-clock time and of
CPU time (user+sys of the process and its children).
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """Wall and CPU seconds of one run; lint's exit code 1 means findings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"bench: command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compare(label, baseline, candidate, runs):
    run(baseline)
    run(candidate)
    b, c = [], []
    for _ in range(runs):
        b.append(run(baseline))
        c.append(run(candidate))
    bw, bc = statistics.median(x[0] for x in b), statistics.median(x[1] for x in b)
    cw, cc = statistics.median(x[0] for x in c), statistics.median(x[1] for x in c)
    print(f"{label}:")
    print(f"  clang++-19 -fsyntax-only  wall {bw:7.2f} s   cpu {bc:7.2f} s")
    print(f"  torchabi lint             wall {cw:7.2f} s   cpu {cc:7.2f} s")
    print(f"  ratio lint/clang          wall {cw / bw:7.3f}     cpu {cc / bc:7.3f}")
    return {"clang_wall": bw, "clang_cpu": bc, "lint_wall": cw, "lint_cpu": cc,
            "ratio_wall": cw / bw, "ratio_cpu": cc / bc}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    lint_dir = os.path.join(a.root, "fixtures", "lint")
    tmp = tempfile.mkdtemp(prefix="torchabi-bench-")
    cache = os.path.join(tmp, "cache")
    results = {}
    try:
        legacy = os.path.join(lint_dir, "legacy_ext", "csrc", "ops.cpp")
        legacy_flags = ["-std=c++17", "-I", os.path.join(lint_dir, "legacy_ext", "csrc"),
                        "-I/usr/include/torch/csrc/api/include", "-I/usr/include/python3.11",
                        "-DTORCH_EXTENSION_NAME=legacy_ext"]
        stable = os.path.join(lint_dir, "stable_ext", "csrc", "ops.cpp")
        stable_flags = ["-std=c++17", "-I", os.path.join(lint_dir, "include"), "-DTORCH_TARGET_VERSION=0x020a000000000000"]

        def lint(file, flags, *extra):
            # --no-cache: every run parses; the torch-header import stays cached.
            return [a.torchabi, "lint", "-q", "--format", "json", "--cache-dir", cache, "--no-cache", *extra, file, "--", *flags]

        def clang(file, flags):
            return ["clang++-19", "-fsyntax-only", *flags, file]

        print(f"torchabi lint benchmark ({a.runs} runs each, medians; {os.cpu_count()} cores)\n")
        results["legacy_tu"] = compare("Legacy TU (torch/extension.h, libtorch-dev 1.13)",
                                       clang(legacy, legacy_flags), lint(legacy, legacy_flags), a.runs)
        results["stable_tu"] = compare("Stable TU (stable headers: stand-ins under fixtures/lint/include)",
                                       clang(stable, stable_flags), lint(stable, stable_flags), a.runs)

        # Four legacy TUs: sequential clang vs lint -j1 and -j N.
        project = os.path.join(tmp, "project")
        os.makedirs(project)
        entries = []
        for i in range(4):
            f = os.path.join(project, f"ops_{i}.cpp")
            shutil.copy(legacy, f)
            entries.append({"directory": project, "file": f,
                            "arguments": ["c++", *legacy_flags, "-c", f, "-o", f + ".o"]})
        with open(os.path.join(project, "compile_commands.json"), "w") as out:
            json.dump(entries, out)
        jobs = os.cpu_count() or 1
        lint_j = lambda n: [a.torchabi, "lint", "-q", "--format", "json", "--no-cache", "--cache-dir", cache, "-p", project,
                            "-j", str(n)]
        par_runs = max(1, a.runs // 2)
        seqs, j1s, jns = [], [], []
        for _ in range(par_runs):
            seqs.append(sum(run(clang(e["file"], legacy_flags))[0] for e in entries))
            j1s.append(run(lint_j(1))[0])
            jns.append(run(lint_j(jobs))[0])
        seq, j1, jn = statistics.median(seqs), statistics.median(j1s), statistics.median(jns)
        load = os.getloadavg()[0]
        print(f"\nParallel TUs (4 legacy TUs, {par_runs} runs each, load average {load:.1f} on {jobs} cores):")
        print(f"  clang++-19 -fsyntax-only, one after another  wall {seq:7.2f} s")
        print(f"  torchabi lint -j 1                           wall {j1:7.2f} s   ({j1 / seq:.3f} x clang)")
        print(f"  torchabi lint -j {jobs}                           wall {jn:7.2f} s   ({jn / seq:.3f} x clang, {j1 / jn:.2f}x faster than -j 1)")
        results["parallel"] = {"tus": 4, "jobs": jobs, "clang_sequential": seq, "lint_j1": j1, "lint_jn": jn,
                               "load_average": load}

        # Results cache: the same four TUs, cold then unchanged.
        rc = os.path.join(tmp, "results-cache")
        cold = run([a.torchabi, "lint", "-q", "--format", "json", "--cache-dir", rc, "-p", project, "-j", str(jobs)])[0]
        warm = statistics.median(
            run([a.torchabi, "lint", "-q", "--format", "json", "--cache-dir", rc, "-p", project, "-j", str(jobs)])[0]
            for _ in range(a.runs))
        print(f"\nResults cache (4 legacy TUs, -j {jobs}):")
        print(f"  cold run                 wall {cold:7.2f} s")
        print(f"  unchanged re-run         wall {warm:7.3f} s   ({warm / cold * 100:.1f}% of cold, {warm / seq * 100:.1f}% of clang)")
        results["cache"] = {"cold": cold, "warm": warm}
        print("\n" + json.dumps(results))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
