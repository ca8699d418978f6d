#!/usr/bin/env python3
"""bench/accuracy/real_repos: `torchabi check DIR` on public repositories that
build a LibTorch stable-ABI extension (repos.tsv), against facts checked by hand
in their build files (expected.json): the sources the Linux build compiles, and
per extension and compiler (cxx, nvcc) the TORCH_TARGET_VERSION passed and
whether USE_CUDA is defined. These are released (or proposed) builds, so every
error or warning torchabi reports that expected.json does not list is wrong.

Each repository runs twice: with /usr/bin/python3 (Debian's python3-torch:
"with torch") and with a wrapper whose `import torch` raises ImportError
("without torch"). Per run: exit code, sources missed/extra, facts that differ,
wrong errors/warnings, time; class "exact" (no missed/extra source, facts
match), "partly", "exit 2" (or "timeout").

  bench.py TORCHABI [--only NAME,...] [--timeout S] [--materialise-only]

Exit 0 when it ran, 77 when a mirror is missing (what to fetch is printed).
Standard library only.
"""
import argparse
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
MIRRORS = os.environ.get("TORCHABI_REAL_REPOS_MIRRORS", "/work/.mirror")
CACHE = os.environ.get("TORCHABI_REAL_REPOS", os.path.expanduser("~/.cache/torchabi/real-repos"))


def rows():
    with open(os.path.join(HERE, "repos.tsv"), encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def git_dir(repo):
    """The git directory of owner/name's mirror, or None."""
    base = os.path.join(MIRRORS, repo.replace("/", "+"))
    for cand in (os.path.join(base, "repo"), base, base + ".git"):
        if os.path.isfile(os.path.join(cand, "HEAD")) and os.path.isdir(os.path.join(cand, "objects")):
            return cand
    return None


def git(gd, *args, **kw):
    return subprocess.run(["git", "--git-dir", gd] + list(args), capture_output=True, check=True, **kw).stdout


def materialise(row):
    """CACHE/<commit[:12]>: the commit's tree, written from the mirror. Blobs
    the mirror lacks (a snapshot leaves out files of 4 MiB and more) are
    skipped and counted. Reused when its digest file names the same tree."""
    gd = git_dir(row["repo"])
    tree = git(gd, "rev-parse", row["commit"] + "^{tree}", text=True).strip()
    if tree != row["tree"]:
        raise SystemExit(f"bench: {row['repo']} {row['commit']}: tree {tree}, repos.tsv says {row['tree']}")
    dest = os.path.join(CACHE, row["commit"][:12])
    stamp = os.path.join(CACHE, row["commit"][:12] + ".digest")
    if os.path.isdir(dest) and os.path.isfile(stamp):
        with open(stamp) as f:
            parts = f.read().split()
        if parts and parts[0] == tree:
            return dest, int(parts[1]) if len(parts) > 1 else 0
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    listing = git(gd, "ls-tree", "-r", "-z", "--full-tree", row["commit"]).split(b"\0")
    entries = []
    for e in listing:
        if not e:
            continue
        meta, path = e.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind != b"blob":
            continue  # submodules are not part of the tree
        entries.append((mode.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
    missing = 0
    p = subprocess.Popen(["git", "--git-dir", gd, "cat-file", "--batch"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    for mode, sha, path in entries:
        p.stdin.write((sha + "\n").encode())
        p.stdin.flush()
        header = p.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing += 1
            continue
        data = p.stdout.read(int(header[2]))
        p.stdout.read(1)
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if mode == "120000":
            try:
                os.symlink(data.decode("utf-8", "surrogateescape"), out)
            except OSError:
                missing += 1
            continue
        with open(out, "wb") as f:
            f.write(data)
        if mode == "100755":
            os.chmod(out, 0o755)
    p.stdin.close()
    p.wait()
    with open(stamp, "w") as f:
        f.write(f"{tree} {missing}\n")
    return dest, missing


def no_torch_python(tmp):
    """A python3 wrapper whose `import torch` raises ImportError."""
    # torchabi runs build scripts in a sandbox, as an unprivileged user when it
    # is root: the wrapper and its directories must be readable by anyone.
    os.chmod(tmp, 0o755)
    pkg = os.path.join(tmp, "notorch", "torch")
    os.makedirs(pkg)
    os.chmod(os.path.join(tmp, "notorch"), 0o755)
    os.chmod(pkg, 0o755)
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write('raise ImportError("torch is hidden by bench/accuracy/real_repos")\n')
    os.chmod(os.path.join(pkg, "__init__.py"), 0o644)
    w = os.path.join(tmp, "python3-without-torch")
    with open(w, "w") as f:
        f.write(f'#!/bin/sh\nPYTHONPATH="{os.path.join(tmp, "notorch")}${{PYTHONPATH:+:$PYTHONPATH}}" '
                f'exec /usr/bin/python3 "$@"\n')
    os.chmod(w, 0o755)
    return w


TARGET_RE = re.compile(r"^-DTORCH_TARGET_VERSION(?:=(.*))?$")


def norm_target(v):
    if v is None:
        return None
    v = v.strip().strip("'\"")
    m = re.match(r"^(0[xX][0-9a-fA-F]+)(?:[uUlL]*)$", v)
    if m:
        return "0x%016x" % int(m.group(1), 16)
    return v


def facts_from_project(j):
    """{(unit, compiler): {"target": hex|None, "use_cuda": bool}} from the
    project subject's '<unit> <compiler> flags' facts (Linux configurations)."""
    out = {}
    for s in j.get("subjects", []):
        if s.get("kind") != "project":
            continue
        facts = s.get("facts", {})
        items = facts.items() if isinstance(facts, dict) else [tuple(x) for x in facts]
        for k, v in items:
            if not k.endswith(" flags") or " on " in k:
                continue
            head = k[: -len(" flags")]
            unit, _, comp = head.rpartition(" ")
            compiler = "nvcc" if "nvcc" in comp else "cxx"
            toks = v.split()
            target = None
            cuda = False
            for i, t in enumerate(toks):
                m = TARGET_RE.match(t)
                if m:
                    target = norm_target(m.group(1) if m.group(1) is not None else "1")
                elif t == "-D" and i + 1 < len(toks) and toks[i + 1].startswith("TORCH_TARGET_VERSION"):
                    target = norm_target(toks[i + 1].partition("=")[2] or "1")
                if t in ("-DUSE_CUDA", "-DUSE_CUDA=1") or (t == "-D" and i + 1 < len(toks) and toks[i + 1].split("=")[0] == "USE_CUDA"):
                    cuda = True
            key = (unit, compiler)
            prev = out.get(key)
            if prev is None:
                out[key] = {"target": target, "use_cuda": cuda}
            else:  # several configurations of one unit and compiler (backends): keep what they share
                if prev["target"] != target:
                    prev["target"] = "mixed"
                prev["use_cuda"] = prev["use_cuda"] and cuda
    return out


def ext_matches(unit, name):
    """Does the report's unit label ('extension foo._C', 'target _C', 'kernel x (cuda)')
    name the expected extension?"""
    u = unit.lower()
    n = name.lower()
    return u == n or u.endswith(" " + n) or n in u.split() or u.split(" (")[0].endswith(n)


def score(exp, j, subdir_abs):
    want_src = set(exp.get("sources", []))
    src_glob = exp.get("sources_glob")
    got_src = set()
    for s in j.get("subjects", []):
        if s.get("kind") == "translation-unit":
            p = s["path"]
            ap = p if os.path.isabs(p) else os.path.join(subdir_abs, p)
            got_src.add(os.path.relpath(os.path.realpath(ap), os.path.realpath(subdir_abs)))
    if src_glob:
        import fnmatch
        want = {g for g in got_src if any(fnmatch.fnmatch(g, pat) for pat in src_glob["patterns"])}
        missed = max(0, src_glob["count"] - len(want))
        extra = sorted(got_src - want)
        missed_list = [f"{missed} of {src_glob['count']} matching {src_glob['patterns']}"] if missed else []
    else:
        missed_list = sorted(want_src - got_src)
        extra = sorted(got_src - want_src)
    got = facts_from_project(j)
    fact_diffs = []
    for ext in exp.get("extensions", []):
        for comp, want in ext.get("compilers", {}).items():
            cands = [v for (u, c), v in got.items() if c == comp and (u == ext["name"] or u.endswith(" " + ext["name"]))]
            cands = cands or [v for (u, c), v in got.items() if c == comp and ext_matches(u, ext["name"])]
            if not cands:
                fact_diffs.append(f"{ext['name']} {comp}: not in the report")
                continue
            g = cands[0]
            wt = norm_target(want.get("target"))
            if g["target"] != wt:
                fact_diffs.append(f"{ext['name']} {comp}: target {g['target']} != {wt}")
            if g["use_cuda"] != bool(want.get("use_cuda")):
                fact_diffs.append(f"{ext['name']} {comp}: USE_CUDA {g['use_cuda']} != {bool(want.get('use_cuda'))}")
    known = {(d["rule"], d["file"], d.get("line")) for d in exp.get("defects", [])}
    found = set()
    wrong = []
    for f in j.get("findings", []):
        if f.get("severity") not in ("error", "warning"):
            continue
        loc = f.get("location", {})
        fp = loc.get("file", "")
        rel = os.path.relpath(os.path.realpath(fp if os.path.isabs(fp) else os.path.join(subdir_abs, fp)),
                              os.path.realpath(subdir_abs)) if fp else ""
        hit = [k for k in ((f["rule"], rel, loc.get("line")), (f["rule"], rel, None), (f["rule"], "*", None)) if k in known]
        if hit:
            found.add(hit[0])
            continue
        wrong.append(f"{f['severity']} {f['rule']} {rel}:{loc.get('line', '')}: {f.get('message', '')[:200]}")
    missed_defects = [f"{r} {f}:{l if l is not None else '*'}" for (r, f, l) in sorted(known - found, key=str)]
    return missed_list, extra, fact_diffs, wrong, missed_defects


def run_one(torchabi, include, python, subdir_abs, timeout, extra=()):
    args = [torchabi, "check", "--format", "json", "--no-cache", "--torch-include", include,
            "--python", python, *extra, subdir_abs]
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=subdir_abs,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except BaseException as e:  # timeout, or the bench itself interrupted
        if not isinstance(e, subprocess.TimeoutExpired):
            os.killpg(p.pid, 9)
            raise
        try:
            os.killpg(p.pid, 9)  # torchabi and what it started (setup.py, cmake)
        except ProcessLookupError:
            pass
        p.communicate()
        return None, "timeout", time.monotonic() - t0, ""
    dt = time.monotonic() - t0
    try:
        j = json.loads(out)
    except ValueError:
        j = None
    return j, p.returncode, dt, err.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("torchabi")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("TORCHABI_REAL_REPOS_TIMEOUT", "600")))
    ap.add_argument("--materialise-only", action="store_true")
    ap.add_argument("--no-run-build", action="store_true",
                    help="check with --no-run-build: the static readers only (what running is forbidden leaves)")
    ap.add_argument("--with-torch-only", action="store_true", help="only the 'with torch' interpreter")
    ap.add_argument("--json", default=os.environ.get("TORCHABI_REAL_REPOS_JSON", ""),
                    help="also write the per-run results here")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stops the check under way too
    a.torchabi = os.path.abspath(a.torchabi)
    entries = rows()
    if a.only:
        keep = set(a.only.split(","))
        entries = [e for e in entries if e["name"] in keep]
    absent = sorted({e["repo"] for e in entries if git_dir(e["repo"]) is None})
    if absent:
        print(f"bench: {len(absent)} mirror(s) absent from {MIRRORS}; fetch them (github:OWNER/NAME, "
              "at least the commits of repos.tsv) and rerun:", file=sys.stderr)
        for r in absent:
            commits = sorted({e["commit"] for e in entries if e["repo"] == r})
            print(f"  github:{r}  ({', '.join(commits)})", file=sys.stderr)
        return 77
    os.makedirs(CACHE, exist_ok=True)
    trees = {}
    for e in entries:
        trees[e["name"]] = materialise(e)
    if a.materialise_only:
        for e in entries:
            d, miss = trees[e["name"]]
            print(f"{e['name']:26} {os.path.join(d, e['subdir'])}  ({miss} blobs absent from the mirror)")
        return 0
    expected = json.load(open(os.path.join(HERE, "expected.json")))["repos"]
    real = os.path.join(os.path.dirname(a.torchabi), "torch-sid", "root", "usr", "include")
    if os.path.isdir(os.path.join(real, "torch", "csrc", "stable")):
        include, hdr_note = real, f"real PyTorch headers: {real}"
    else:
        include = os.path.join(ROOT, "fixtures", "lint", "include")
        hdr_note = f"{real} absent (scripts/fetch-torch.sh): stand-in headers {include}"
    print(f"headers: {hdr_note}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        # A snapshot of the binary: a rebuild during the run (minutes) must not
        # mix two versions. check needs nothing next to it (rules and the setup.py
        # recorder are built in); the headers stay in the build directory.
        os.chmod(tmp, 0o755)
        snap = os.path.join(tmp, "bin", "torchabi")
        os.makedirs(os.path.dirname(snap))
        shutil.copy2(a.torchabi, snap)
        version = subprocess.run([snap, "--version"], capture_output=True, text=True).stdout.splitlines()
        commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cs"], capture_output=True,
                                text=True).stdout.strip()
        print(f"torchabi: {a.torchabi} (snapshot), {version[0] if version else '?'}, checkout {commit}; "
              f"{version[1] if len(version) > 1 else ''}")
        variants = [("with torch", "/usr/bin/python3"), ("without torch", no_torch_python(tmp))]
        if a.with_torch_only:
            variants = variants[:1]
        extra = ["--no-run-build"] if a.no_run_build else []
        if extra:
            print("mode: --no-run-build (build files read, not run)")
        print(f"{'repository':26} {'python':13} {'exit':>4} {'class':7} {'missed':>6} {'extra':>5} "
              f"{'facts':>5} {'wrong':>5} {'defect':>6} {'time':>7}")
        for e in entries:
            d, miss = trees[e["name"]]
            sub = os.path.normpath(os.path.join(d, e["subdir"]))
            exp = expected[e["name"]]
            for vname, py in variants:
                j, rc, dt, err = run_one(snap, include, py, sub, a.timeout, extra)
                if rc == "timeout" or j is None or rc == 2:
                    cls = "timeout" if rc == "timeout" else "exit 2"
                    missed, extra, fdiff, wrong, mdef = [], [], [], [], []
                    if j is not None:
                        missed, extra, fdiff, wrong, mdef = score(exp, j, sub)
                else:
                    missed, extra, fdiff, wrong, mdef = score(exp, j, sub)
                    cls = "exact" if not missed and not extra and not fdiff else "partly"
                fails = [f"{x.get('input', '')}: {x.get('message', '')}" for x in (j or {}).get("errors", [])]
                notes = [f"{f['rule']} {os.path.basename(f.get('location', {}).get('file', ''))}:"
                         f"{f.get('location', {}).get('line', '')} {f.get('message', '')[:160]}"
                         for f in (j or {}).get("findings", []) if f.get("rule") == "project-flag-unresolved"]
                r = {"name": e["name"], "python": vname, "exit": rc, "class": cls, "time": round(dt, 2),
                     "missed": missed, "extra": extra, "facts": fdiff, "wrong": wrong, "missed_defects": mdef, "failures": fails,
                     "project_notes": notes, "stderr": err.splitlines()[-3:] if err else [],
                     "absent_blobs": miss}
                results.append(r)
                ndef = len(exp.get("defects", []))
                print(f"{e['name']:26} {vname:13} {str(rc):>4} {cls:7} {len(missed):>6} {len(extra):>5} "
                      f"{len(fdiff):>5} {len(wrong):>5} {f'{ndef - len(mdef)}/{ndef}':>6} {dt:>6.1f}s", flush=True)
    print()
    for vname, _ in variants:
        rs = [r for r in results if r["python"] == vname]
        n = len(rs)
        c = {k: sum(1 for r in rs if r["class"] == k) for k in ("exact", "partly", "exit 2", "timeout")}
        wrong_repos = sum(1 for r in rs if r["wrong"])
        wrong = sum(len(r["wrong"]) for r in rs)
        mdef = sum(len(r["missed_defects"]) for r in rs)
        t = sum(r["time"] for r in rs)
        print(f"{vname}: {n} repositories: {c['exact']} read exactly, {c['partly']} read partly, "
              f"{c['exit 2']} exit 2, {c['timeout']} timeout; {wrong} wrong errors/warnings in {wrong_repos}; "
              f"{mdef} known defects missed; "
              f"time {t:.0f}s")
    print("\ndetails (runs not read exactly, or with wrong findings):")
    for r in results:
        if r["class"] == "exact" and not r["wrong"] and not r["missed_defects"]:
            continue
        print(f"- {r['name']} [{r['python']}] {r['class']} exit {r['exit']}")
        for k in ("missed", "extra", "facts", "wrong", "missed_defects", "failures", "project_notes", "stderr"):
            if r[k]:
                shown = [str(x)[:240] for x in r[k][:6]]
                more = f" (+{len(r[k]) - 6} more)" if len(r[k]) > 6 else ""
                print(f"    {k}: " + "; ".join(str(x) for x in shown) + more)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
