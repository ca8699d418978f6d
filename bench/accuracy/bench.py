"""False findings of `torchabi lint` on fixtures/real_stable; see run.sh."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOWEST = re.compile(r"torchabi-fixture: lowest-target (\d+)\.(\d+)( in-source)?")
FLAGS = re.compile(r"torchabi-fixture: flags (.*)$")


def cuda_home():
    for d in ("/usr/local/cuda", "/usr"):
        if Path(d, "include/cuda_runtime.h").exists():
            return d
    return None


def markers(path):
    """(lowest (major, minor), target in the source, extra flags, needs cuda)"""
    lowest, in_source, flags, cuda = None, False, [], False
    for line in path.read_text().splitlines():
        if m := LOWEST.search(line):
            lowest, in_source = (int(m[1]), int(m[2])), bool(m[3])
        elif m := FLAGS.search(line):
            flags = m[1].split()
        elif "torchabi-fixture: needs cuda" in line:
            cuda = True
    return lowest, in_source, flags, cuda


def headers_release(include):
    text = Path(include, "torch/headeronly/version.h").read_text()
    return (int(re.search(r"TORCH_VERSION_MAJOR (\d+)", text)[1]), int(re.search(r"TORCH_VERSION_MINOR (\d+)", text)[1]))


def hexv(rel):
    return "0x%02x%02x000000000000" % rel


def dotted(rel):
    return "%d.%d" % rel


def compile_args(fixture, include, target, flags):
    args = ["-std=c++17", f"-I{fixture}/include", f"-I{include}", "-DRS_LIB_NAME=rstable"]
    if target:
        args.append(f"-DTORCH_TARGET_VERSION={hexv(target)}")
    return args + flags


def lint(torchabi, args):
    """(seconds, JSON report) of one lint run with a fresh cache."""
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        r = subprocess.run([torchabi, "lint", "--format", "json", "--cache-dir", cache, *args],
                           capture_output=True, text=True, cwd=cache)
        dt = time.perf_counter() - t0
    if r.returncode == 2:
        sys.exit(f"bench: torchabi could not analyse {args}: {r.stderr.strip()}")
    return dt, json.loads(r.stdout)


def false_findings(report):
    out = []
    for f in report.get("findings", []):
        if f.get("severity") in ("error", "warning"):
            loc = f.get("location", {})
            out.append(f"{f['rule']} {loc.get('file', '')}:{loc.get('line', 0)}:{loc.get('column', 0)} {f.get('message', '')}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--torch-include", required=True)
    a = ap.parse_args()
    fixture, include = Path(a.fixture), a.torch_include
    release = headers_release(include)
    files = sorted(p for p in [*fixture.glob("csrc/*"), *fixture.glob("include/**/*.h")]
                   if p.suffix in (".cpp", ".cu", ".h"))
    print(f"torchabi lint on fixtures/real_stable, real headers of PyTorch {dotted(release)} ({include})\n")
    print(f"{'file':42} {'target':>7} {'false':>6} {'lint s':>7} {'g++ s':>7}")
    total_false, lint_s, gcc_s, runs = 0, 0.0, 0.0, 0
    per_rule = {}
    sources = []
    for path in files:
        lowest, in_source, flags, cuda = markers(path)
        if lowest is None:
            sys.exit(f"bench: {path}: no '// torchabi-fixture: lowest-target X.Y' line")
        if cuda and not cuda_home():
            continue
        rel = path.relative_to(fixture)
        if path.suffix != ".h":
            sources.append((path, lowest, in_source, flags))
        targets = [None if in_source else lowest] + ([release] if lowest != release else [])
        for target in targets:
            args = compile_args(fixture, include, target, flags)
            dt, report = lint(a.torchabi, [str(path), "--", *args])
            wrong = false_findings(report)
            gdt = None
            if path.suffix == ".cpp":
                t0 = time.perf_counter()
                subprocess.run(["g++", "-fsyntax-only", *args, str(path)], capture_output=True)
                gdt = time.perf_counter() - t0
                gcc_s += gdt
                lint_s += dt
            label = dotted(target or lowest) + ("*" if target is None else "")
            print(f"{str(rel):42} {label:>7} {len(wrong):>6} {dt:>7.2f} {'' if gdt is None else f'{gdt:7.2f}':>7}")
            for w in wrong:
                print(f"    {w}")
                rule = w.split()[0]
                per_rule[rule] = per_rule.get(rule, 0) + 1
            total_false += len(wrong)
            runs += 1

    # The whole project through a compile database, each file at its lowest
    # target: the cross-file registration checks see every def and impl.
    with tempfile.TemporaryDirectory() as build:
        db = []
        for path, lowest, in_source, flags in sources:
            cu = path.suffix == ".cu"
            cc = f"{cuda_home()}/bin/nvcc" if cu else shutil.which("g++")
            args = compile_args(fixture, include, None if in_source else lowest, flags)
            db.append({"directory": build, "file": str(path), "arguments": [cc, *args, "-c", str(path)]})
        Path(build, "compile_commands.json").write_text(json.dumps(db))
        dt, report = lint(a.torchabi, ["-p", build, "--project-root", str(fixture)])
    wrong = false_findings(report)
    print(f"\n{'whole project (lint -p), lowest targets':50} {len(wrong):>6} {dt:>7.2f}")
    for w in wrong:
        print(f"    {w}")
        rule = w.split()[0]
        per_rule[rule] = per_rule.get(rule, 0) + 1
    total_false += len(wrong)

    print(f"\nfalse findings: {total_false} in {runs + 1} lint runs (goal: 0)  (* = target set in the source)")
    for rule, n in sorted(per_rule.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4}  {rule}")
    if gcc_s > 0:
        print(f"time: lint {lint_s:.1f} s, g++ -fsyntax-only {gcc_s:.1f} s on the same .cpp files and flags: "
              f"ratio {lint_s / gcc_s:.2f}")
    return 1 if total_false else 0


if __name__ == "__main__":
    sys.exit(main())
