#!/usr/bin/python3
"""torchabi scan: audit a mirror of artifacts on Dask and merge one report.

Run by `torchabi scan` (src/cli/scan_command.cpp), which checks the command
line and execs Debian's /usr/bin/python3 on this file. Work units are
batches of artifacts: each batch is one `torchabi __audit-batch` process on a
Dask worker, which audits every artifact of it exactly as `torchabi audit
--format json ARTIFACT` would, reading the rules and the --torch installs once
(a process per artifact spent most of its time starting). A batch that fails
(its worker died, it crashed or timed out) is split: its artifacts are
audited one per task, as single `torchabi audit` processes, so that what fails
is the artifact that fails. Results are stored per artifact under OUTDIR/results/,
named by the artifact's sha256 and the options' digest, so a re-run skips
what is done. A worker that dies, or an audit that crashes or times out, is
retried once (Dask's allowed-failures and retries) and then reported as
failed; nothing is dropped. The merge reads the stored results of exactly the
artifacts asked for and writes report.json, report.md and report.html.
"""

import argparse
import hashlib
import html
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

RESULT_FORMAT = 1
PACKAGE_SUFFIXES = (".whl", ".conda", ".tar.bz2")
REQUIREMENT_RULES = ("binary-wheel-requires-too-old", "binary-conda-depends-too-old")


class InputFailure(Exception):
    """One line on stderr naming the input, exit code 2 (as every torchabi command)."""

    def __init__(self, what, message):
        super().__init__(f"{what}: {message}")


# ---------------------------------------------------------------- inputs


def is_library_name(name):
    for ext in (".dylib", ".pyd", ".dll"):
        if name.endswith(ext) and len(name) > len(ext):
            return True
    so = name.rfind(".so")
    if so <= 0:
        return False
    rest = name[so + 3:]
    return rest == "" or (rest.startswith(".") and len(rest) > 1 and all(c.isdigit() or c == "." for c in rest))


def is_artifact_name(name):
    return name.endswith(PACKAGE_SUFFIXES) or is_library_name(name)


def local_path(item, origin):
    """A path or a file:// URL (a local mirror) as a path."""
    if "://" in item:
        url = urllib.parse.urlparse(item)
        if url.scheme != "file":
            raise InputFailure(origin, f"'{item}': only local paths and file:// URLs are read (mirror the index first)")
        return urllib.request.url2pathname(url.path)
    return item


def collect_artifacts(inputs, lists):
    items = [(i, i) for i in inputs]
    for list_file in lists:
        try:
            with open(list_file, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    line = line.strip()
                    if line and not line.startswith("#"):
                        items.append((line, f"{list_file}:{n}"))
        except OSError as e:
            raise InputFailure(list_file, f"cannot read the list: {e.strerror}")
    out, seen = [], set()

    def add(path):
        path = os.path.abspath(path)
        if path not in seen:
            seen.add(path)
            out.append(path)

    for item, origin in items:
        path = local_path(item, origin)
        if os.path.isdir(path):
            found = []
            for root, dirs, files in os.walk(path):
                dirs.sort()
                found += [os.path.join(root, f) for f in files if is_artifact_name(f)]
            if not found:
                raise InputFailure(path, "no wheels, conda packages or shared libraries found in this directory")
            for f in sorted(found):
                add(f)
        elif os.path.isfile(path):
            add(path)
        else:
            raise InputFailure(origin if origin != item else item, "no such file or directory")
    return out


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_atomic(path, text, durable=True):
    """Never half-written: a reader sees the old file or the new one. Not
    durable: after a power loss the file may be empty instead (a stored
    result then reads as missing and is audited again), without an fsync per
    file (a thousand of them were a sixth of a scan's time; bench/scan)."""
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        if durable:
            os.fsync(f.fileno())
    os.replace(tmp, path)


class HashCache:
    """sha256 by (path, size, mtime): a re-run over a big mirror hashes only what changed."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, encoding="utf-8") as f:
                self.entries = json.load(f)
        except (OSError, ValueError):
            self.entries = {}

    def sha256(self, artifact):
        st = os.stat(artifact)
        stamp = [st.st_size, st.st_mtime_ns]
        e = self.entries.get(artifact)
        if e and e[:2] == stamp:
            return e[2]
        digest = sha256_of(artifact)
        self.entries[artifact] = stamp + [digest]
        return digest

    def save(self):
        write_atomic(self.path, json.dumps(self.entries, sort_keys=True))


# ---------------------------------------------------------------- the work unit


def test_kill_hook(artifact, test_kill, hook_dir):
    """Test hook (TORCHABI_SCAN_TEST_KILL): the worker process dies while it
    holds this artifact, as a worker killed by the OOM killer would.
    "NAME" dies every time; "NAME@once" only on the first attempt."""
    import os as _os
    import signal as _signal

    base = _os.path.basename(artifact)
    for spec in test_kill.split(","):
        name, _, mode = spec.partition("@")
        if name and name == base:
            if mode == "once":
                try:
                    _os.close(_os.open(_os.path.join(hook_dir, base + ".killed"), _os.O_CREAT | _os.O_EXCL))
                except FileExistsError:
                    break
            _os.kill(_os.getpid(), _signal.SIGKILL)


def audit_batch_task(batch, torchabi, audit_args, timeout, test_kill, hook_dir):
    """Runs on a Dask worker: one `torchabi __audit-batch --format json` in a
    child for the artifacts of `batch` ([(artifact, sha)]), each audited as
    `torchabi audit --format json ARTIFACT` would be.

    Returns one result per artifact, in order. A crash, a timeout or output
    that is not the reports raises: the client then audits the batch's
    artifacts one by one (audit_task).
    """
    import os as _os
    import shutil as _shutil
    import signal as _signal
    import subprocess as _subprocess
    import json as _json

    if test_kill:
        for artifact, _ in batch:
            test_kill_hook(artifact, test_kill, hook_dir)
    exe = torchabi if _os.path.exists(torchabi) else (_shutil.which("torchabi") or torchabi)
    cmd = [exe, "__audit-batch", "--format", "json", *audit_args]
    stdin = b"".join(_os.fsencode(a) + b"\0" for a, _ in batch)
    try:
        p = _subprocess.run(cmd, input=stdin, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE, timeout=timeout)
    except _subprocess.TimeoutExpired:
        raise RuntimeError(f"the batch took longer than {timeout:g} s")
    except OSError as e:
        raise RuntimeError(f"cannot run {exe}: {e.strerror}")
    if p.returncode != 0:
        why = _signal.Signals(-p.returncode).name if p.returncode < 0 else f"exit {p.returncode}"
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"the batch failed ({why}): {err[-1] if err else 'no output'}")
    out, pos, results = p.stdout, 0, []
    for _ in batch:
        end = out.find(b"\n", pos)
        head = out[pos:end].split() if end >= 0 else []
        if len(head) != 4 or head[0] != b"torchabi-audit":
            raise RuntimeError("the batch's output is not one report per artifact")
        code, n_out, n_err = int(head[1]), int(head[2]), int(head[3])
        text = out[end + 1:end + 1 + n_out]
        err = out[end + 1 + n_out:end + 1 + n_out + n_err]
        pos = end + 1 + n_out + n_err
        try:
            report = _json.loads(text)
        except ValueError:
            raise RuntimeError("an audit of the batch wrote no report")
        results.append({"exit_code": code, "stderr": err.decode(errors="replace"), "audit": report})
    return results


def audit_task(artifact, sha, torchabi, audit_args, timeout, test_kill, hook_dir):
    """Runs on a Dask worker: one `torchabi audit --format json` in a child.

    Returns the parsed report. A crash, a timeout or output that is not the
    report raises, so Dask retries it once and then hands the error back.
    """
    import os as _os
    import shutil as _shutil
    import signal as _signal
    import subprocess as _subprocess
    import json as _json

    if test_kill:
        test_kill_hook(artifact, test_kill, hook_dir)
    exe = torchabi if _os.path.exists(torchabi) else (_shutil.which("torchabi") or torchabi)
    cmd = [exe, "audit", "--format", "json", *audit_args, artifact]
    try:
        p = _subprocess.run(cmd, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE, timeout=timeout)
    except _subprocess.TimeoutExpired:
        raise RuntimeError(f"the audit took longer than {timeout:g} s")
    except OSError as e:
        raise RuntimeError(f"cannot run {exe}: {e.strerror}")
    if p.returncode < 0:
        raise RuntimeError(f"the audit crashed ({_signal.Signals(-p.returncode).name})")
    try:
        report = _json.loads(p.stdout)
    except ValueError:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"the audit exited {p.returncode} without a report: {err[-1] if err else 'no output'}")
    return {"exit_code": p.returncode, "stderr": p.stderr.decode(errors="replace"), "audit": report}


# ---------------------------------------------------------------- running


class Progress:
    """One status line on a terminal, erased at the end; nothing in a log unless -v."""

    def __init__(self, total, verbose):
        self.total, self.verbose = total, verbose
        self.tty = sys.stderr.isatty()
        self.done = self.failed = 0
        self.start = time.monotonic()
        self.last = 0.0

    def step(self, artifact, failed=False, message=""):
        self.done += 1
        self.failed += failed
        if self.verbose:
            self.clear()
            print(f"scan: {'FAILED' if failed else 'done'} {artifact}{': ' + message if message else ''}", file=sys.stderr)
        now = time.monotonic()
        if self.tty and (now - self.last > 0.1 or self.done == self.total):
            self.last = now
            rate = self.done / max(now - self.start, 1e-9)
            left = (self.total - self.done) / rate if rate else 0
            sys.stderr.write(f"\r\033[Kscan: {self.done}/{self.total} audited, {self.failed} failed, "
                             f"{rate:.1f}/s, {left:.0f} s left")
            sys.stderr.flush()

    def clear(self):
        if self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def require_dask():
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as e:
        raise InputFailure(sys.executable, f"Dask distributed is not installed ({e.name} is missing): "
                                           "apt-get install python3-distributed")


def start_client(args):
    import dask
    from dask.distributed import Client, LocalCluster
    import logging
    # Retried once, then reported: a task whose worker died twice becomes
    # KilledWorker; one worker holds one task at a time, so only the task that
    # was running is blamed when its worker dies.
    dask.config.set({
        "distributed.scheduler.allowed-failures": 1,
        "distributed.scheduler.worker-saturation": 1.0,
        "distributed.worker.daemon": False,
        # Workers (and the replacement of one that died) fork from a server
        # that imported Dask once: seconds faster than spawning an interpreter.
        "distributed.worker.multiprocessing-method": "forkserver",
    })
    # Dask logs a lost worker and the recomputation it triggers as errors;
    # both are handled here and reported once per artifact.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if args.scheduler:
        try:
            return Client(args.scheduler, timeout="20s"), None
        except (OSError, TimeoutError) as e:
            raise InputFailure(args.scheduler, f"cannot reach the Dask scheduler: {e}")
    workers = args.workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def batch_size(n, workers):
    """Artifacts per batch: about four batches per worker, so that a slow one
    does not leave the others idle at the end, and at most 64 (a batch that
    fails is redone one artifact per task)."""
    return max(1, min(64, -(-n // max(1, workers * 4))))


def run_audits(pending, args, audit_args, outdir, results_dir, optkey, progress):
    from dask.distributed import as_completed
    client, cluster = start_client(args)
    progress.start = time.monotonic()  # the rate counts audits, not the cluster's start
    failures = {}
    hook_dir = os.path.join(outdir, ".test-hooks")
    test_kill = os.environ.get("TORCHABI_SCAN_TEST_KILL", "")
    if test_kill:
        os.makedirs(hook_dir, exist_ok=True)
    try:
        workers = args.workers or len(client.scheduler_info().get("workers", {})) or os.cpu_count() or 1
        size = batch_size(len(pending), workers)
        futures = {}

        def submit_single(artifact, sha):
            f = client.submit(audit_task, artifact, sha, args.torchabi, audit_args, args.timeout, test_kill, hook_dir,
                              key=f"audit-{sha[:20]}-{optkey}", retries=1, pure=False)
            futures[f] = ("single", (artifact, sha))
            return f

        for i in range(0, len(pending), size):
            batch = pending[i:i + size]
            f = client.submit(audit_batch_task, batch, args.torchabi, audit_args, args.timeout, test_kill, hook_dir,
                              key=f"batch-{batch[0][1][:20]}-{len(batch)}-{optkey}", retries=1, pure=False)
            futures[f] = ("batch", batch)
        done = as_completed(list(futures))
        for f in done:
            kind, what = futures[f]
            if f.status == "finished":
                try:
                    r = f.result()
                except Exception:  # noqa: BLE001 - its worker died before the result was fetched
                    r = None
                if r is not None:
                    if kind == "batch":
                        for (artifact, sha), one in zip(what, r):
                            store_result(results_dir, sha, optkey, artifact, one)
                            progress.step(artifact)
                    else:
                        store_result(results_dir, what[1], optkey, what[0], r)
                        progress.step(what[0])
                    f.release()
                    continue
            if f.status in ("pending", "lost", "finished"):
                # Lost with a worker that died (Dask recomputes it): wait for it again.
                done.add(f)
                continue
            if kind == "batch":
                # Failed as a whole (a worker died twice, a crash, a timeout):
                # each artifact on its own, so that only the culprit fails.
                f.release()
                for artifact, sha in what:
                    done.add(submit_single(artifact, sha))
                continue
            artifact, sha = what
            try:
                exc = f.exception()
            except Exception as e:  # noqa: BLE001 - cancelled: the scheduler gave up on it
                exc = e
            name = type(exc).__name__
            message = ("its worker died twice (killed or out of memory)" if name == "KilledWorker"
                       else str(exc) or name)
            failures[artifact] = {"path": artifact, "sha256": sha, "status": "failed", "attempts": 2,
                                  "error": message}
            progress.step(artifact, failed=True, message=message)
            f.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return failures


def result_path(results_dir, sha, optkey):
    return os.path.join(results_dir, f"{sha}-{optkey}.json")


def store_result(results_dir, sha, optkey, artifact, r):
    record = {"format": RESULT_FORMAT, "sha256": sha, "options": optkey, "artifact": artifact,
              "exit_code": r["exit_code"], "stderr": r["stderr"], "audit": r["audit"]}
    # Compact: json's C encoder (an indent makes it the pure-Python one,
    # which took more time than the audits themselves; bench/scan).
    write_atomic(result_path(results_dir, sha, optkey), json.dumps(record, separators=(",", ":")) + "\n",
                 durable=False)


def load_result(results_dir, sha, optkey):
    try:
        with open(result_path(results_dir, sha, optkey), encoding="utf-8") as f:
            r = json.load(f)
        return r if r.get("format") == RESULT_FORMAT and "audit" in r else None
    except (OSError, ValueError):
        return None


def torchabi_version(torchabi):
    p = subprocess.run([torchabi, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip()


# ---------------------------------------------------------------- merging


def parse_release(text):
    parts = []
    for p in text.split("+")[0].split("."):
        digits = "".join(c for c in p if c.isdigit()) if p[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
        if digits != p:
            break
    return tuple((parts + [0, 0, 0])[:3]) if parts else None


def rules_loads_on(subject, release):
    """What the rules say about one release (no install): the floor against it."""
    verdict = subject.get("verdict")
    if verdict == "NO-TORCH":
        return True, ""
    if verdict == "UNSTABLE":
        return False, "unstable C++ ABI: only the release it was built against"
    floor = subject.get("floor")
    if floor and parse_release(floor) > release:
        by = subject.get("floor_set_by") or []
        return False, f"needs PyTorch >= {floor}" + (f" ({by[0]})" if by else "")
    return True, ""


def first_missing(load, limit=3):
    out = [f"{m['needed']} missing" for m in load.get("missing_libraries", [])]
    out += [m.get("demangled") or m.get("symbol") for m in load.get("missing_symbols", [])]
    return out[:limit]


def artifact_entry(path, sha, record, torches, releases):
    audit = record["audit"]
    subjects = audit.get("subjects", [])
    top = subjects[0] if subjects else {}
    facts = top.get("facts", {})
    kind = top.get("kind") or ("library" if is_library_name(os.path.basename(path)) else "")
    dist = facts.get("distribution", "")
    name, _, version = dist.partition(" ")
    if not name:
        base = os.path.basename(path)
        name, version = base.split(".so")[0], ""
    findings = audit.get("findings", [])
    requirement_findings = [f for f in findings if f.get("rule") in REQUIREMENT_RULES]
    entry = {
        "path": path, "sha256": sha, "status": "audited", "exit_code": record["exit_code"], "kind": kind,
        "name": name, "version": version, "verdict": top.get("verdict", ""), "floor": top.get("floor"),
        "loads_on": top.get("loads_on", ""), "cuda": facts.get("cuda majors", ""),
        "requirement": facts.get("torch requirement", ""),
        "requirement_consistent": not requirement_findings if "torch requirement" in facts else None,
        "requirement_problem": requirement_findings[0]["message"] if requirement_findings else "",
        "errors": [f"{e['input']}: {e['message']}" for e in audit.get("errors", [])],
        "torch": {}, "releases": {}, "audit": audit,
    }
    for t in torches:
        load = (top.get("torch") or {}).get(t["id"])
        if load is None:
            continue
        cuda = [s["facts"].get("cuda on " + t["id"], "") for s in subjects if "cuda on " + t["id"] in s.get("facts", {})]
        mismatch = next((c for c in cuda if c.startswith("mismatch")), "")
        entry["torch"][t["id"]] = {"loads": bool(load.get("loads")) and not mismatch,
                                   "symbols_resolve": bool(load.get("loads")),
                                   "first_missing": first_missing(load),
                                   "cuda": mismatch or next(iter(cuda), "")}
    for r in releases:
        ok, why = rules_loads_on(top, parse_release(r))
        entry["releases"][r] = {"loads": ok, "why": why}
    return entry


def merge(artifacts, results_dir, optkey, hashes, failures, args):
    entries, torches, tool = [], [], {}
    for path in artifacts:
        sha = hashes.get(path)
        record = load_result(results_dir, sha, optkey) if sha else None
        if record is None:
            f = failures.get(path) or {"path": path, "sha256": sha, "status": "failed", "attempts": 0,
                                       "error": "no result (the scan was interrupted)"}
            entries.append(dict(f, name=os.path.basename(path), version="", kind=""))
            continue
        if not torches:
            torches = record["audit"].get("torches", [])
            tool = record["audit"].get("tool", {})
        entries.append((path, sha, record))
    releases = args.release
    merged = []
    for e in entries:
        merged.append(artifact_entry(*e, torches, releases) if isinstance(e, tuple) else e)
    packages = {}
    for e in merged:
        packages.setdefault((e["name"], e["version"]), []).append(e)
    package_rows = []
    for (name, version), items in sorted(packages.items()):
        package_rows.append(package_row(name, version, items, torches, releases))
    summary = {
        "artifacts": len(merged),
        "audited": sum(e["status"] == "audited" for e in merged),
        "failed": sum(e["status"] == "failed" for e in merged),
        "packages": len(package_rows),
        "breaking": {t["id"]: sum(1 for p in package_rows if p["torch"].get(t["id"], {}).get("loads") is False)
                     for t in torches},
        "breaking_releases": {r: sum(1 for p in package_rows if p["releases"].get(r, {}).get("loads") is False)
                              for r in releases},
    }
    return {"tool": tool, "command": "scan", "torches": torches, "releases": releases,
            "target_version": args.target_version or None, "summary": summary, "packages": package_rows,
            "artifacts": merged}


def package_row(name, version, items, torches, releases):
    audited = [e for e in items if e["status"] == "audited"]
    order = {"UNSTABLE": 3, "STABLE": 2, "NO-TORCH": 1}
    verdict = max((e["verdict"] for e in audited), key=lambda v: order.get(v, 0), default="")
    floors = [e["floor"] for e in audited if e["floor"]]
    row = {
        "name": name, "version": version, "artifacts": [e["path"] for e in items],
        "failed": [e["path"] for e in items if e["status"] == "failed"],
        "verdict": verdict, "stable": verdict in ("STABLE", "NO-TORCH") if audited else None,
        "floor": max(floors, key=parse_release) if floors else None,
        "cuda": sorted({e["cuda"] for e in audited if e["cuda"]}),
        # None: no artifact states a torch requirement (bare libraries).
        "requirement_consistent": (all(e["requirement_consistent"] is not False for e in audited)
                                   if any(e["requirement_consistent"] is not None for e in audited) else None),
        "requirement_problems": [e["requirement_problem"] for e in audited if e["requirement_problem"]],
        "torch": {}, "releases": {},
    }
    for t in torches:
        per = [(e, e["torch"][t["id"]]) for e in audited if t["id"] in e["torch"]]
        if not per:
            continue
        bad = [(e, l) for e, l in per if not l["loads"]]
        why = ""
        if bad:
            e, l = bad[0]
            why = l["cuda"] if l["cuda"].startswith("mismatch") else ", ".join(l["first_missing"])
            why = f"{os.path.basename(e['path'])}: {why}"
        row["torch"][t["id"]] = {"loads": not bad, "artifacts_loading": len(per) - len(bad), "artifacts": len(per),
                                 "why": why}
    for r in releases:
        per = [(e, e["releases"][r]) for e in audited]
        if not per:
            continue
        bad = [(e, l) for e, l in per if not l["loads"]]
        row["releases"][r] = {"loads": not bad, "artifacts_loading": len(per) - len(bad), "artifacts": len(per),
                              "why": f"{os.path.basename(bad[0][0]['path'])}: {bad[0][1]['why']}" if bad else ""}
    return row


def torch_column(t):
    v = t.get("version") or "?"
    return f"torch {v}"


def render_markdown(report):
    s = report["summary"]
    out = ["## torchabi scan", ""]
    out.append(f"**{s['packages']} packages, {s['artifacts']} artifacts: {s['audited']} audited, {s['failed']} failed**")
    out.append("")
    for t in report["torches"]:
        out.append(f"- {torch_column(t)} (`{t['id']}`): {packages(s['breaking'].get(t['id'], 0))}")
    for r in report["releases"]:
        out.append(f"- PyTorch {r} (rules): {packages(s['breaking_releases'].get(r, 0))}")
    out.append("")
    cols = [torch_column(t) for t in report["torches"]] + [f"{r} (rules)" for r in report["releases"]]
    out.append("| package | version | verdict | floor | CUDA | requirement | " + " | ".join(cols) + " |")
    out.append("|---|---|---|---|---|---|" + "---|" * len(cols))
    for p in report["packages"]:
        cells = [cell_md(p["torch"].get(t["id"])) for t in report["torches"]]
        cells += [cell_md(p["releases"].get(r)) for r in report["releases"]]
        req = "" if p["requirement_consistent"] is None else ("ok" if p["requirement_consistent"] else "too old")
        verdict = p["verdict"] + (f" ({len(p['failed'])} failed)" if p["failed"] else "")
        out.append(f"| {md(p['name'])} | {md(p['version'])} | {verdict} | {p['floor'] or ''} | "
                   f"{', '.join(p['cuda'])} | {req} | " + " | ".join(cells) + " |")
    failed = [a for a in report["artifacts"] if a["status"] == "failed"]
    if failed:
        out += ["", "### Failed", ""]
        out += [f"- `{md(a['path'])}`: {md(a['error'])}" for a in failed]
    return "\n".join(out) + "\n"


def packages(n):
    return f"{n} package{'' if n == 1 else 's'} {'does' if n == 1 else 'do'} not load"


def md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def cell_md(c):
    if c is None:
        return "–"
    if c["loads"]:
        return "yes"
    return "**no**: " + md(c["why"])


def render_html(report):
    s = report["summary"]
    e = html.escape
    cols = [(torch_column(t), t["id"]) for t in report["torches"]] + [(f"{r} (rules)", None) for r in report["releases"]]
    rows = []
    for p in report["packages"]:
        cells = [p["torch"].get(t["id"]) for t in report["torches"]] + [p["releases"].get(r) for r in report["releases"]]
        tds = []
        for c in cells:
            if c is None:
                tds.append("<td>–</td>")
            elif c["loads"]:
                tds.append(f'<td class="yes">yes <small>{c["artifacts_loading"]}/{c["artifacts"]}</small></td>')
            else:
                tds.append(f'<td class="no">no <small>{c["artifacts_loading"]}/{c["artifacts"]}</small>'
                           f'<div class="why">{e(c["why"])}</div></td>')
        req = "" if p["requirement_consistent"] is None else ("ok" if p["requirement_consistent"] else "too old")
        req_cls = "no" if p["requirement_consistent"] is False else ""
        req_title = e("; ".join(p["requirement_problems"]))
        failed = f' <span class="no">({len(p["failed"])} failed)</span>' if p["failed"] else ""
        rows.append(f'<tr><td>{e(p["name"])}</td><td>{e(p["version"])}</td><td>{len(p["artifacts"])}</td>'
                    f'<td class="v-{e(p["verdict"].lower())}">{e(p["verdict"])}{failed}</td><td>{e(p["floor"] or "")}</td>'
                    f'<td>{e(", ".join(p["cuda"]))}</td><td class="{req_cls}" title="{req_title}">{req}</td>'
                    + "".join(tds) + "</tr>")
    heads = "".join(f"<th title=\"{e(i or '')}\">{e(c)}</th>" for c, i in cols)
    failed = [a for a in report["artifacts"] if a["status"] == "failed"]
    failed_html = ""
    if failed:
        failed_html = "<h2>Failed</h2><ul>" + "".join(
            f"<li><code>{e(a['path'])}</code>: {e(a['error'])}</li>" for a in failed) + "</ul>"
    summary = "".join(f"<li>{e(torch_column(t))} (<code>{e(t['id'])}</code>): "
                      f"{packages(s['breaking'].get(t['id'], 0))}</li>" for t in report["torches"])
    summary += "".join(f"<li>PyTorch {e(r)} (rules): {packages(s['breaking_releases'].get(r, 0))}</li>"
                       for r in report["releases"])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>torchabi scan</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: .3em .6em; vertical-align: top; text-align: left; }}
th {{ background: #f0f0f0; position: sticky; top: 0; }}
td.yes {{ background: #e6f4e6; }} td.no, span.no {{ background: #fbe3e3; }}
td.v-unstable {{ color: #a00; }} td.v-stable {{ color: #070; }}
.why {{ font-size: .85em; color: #444; max-width: 28em; }}
small {{ color: #666; }}
</style></head><body>
<h1>torchabi scan</h1>
<p>{s['packages']} packages, {s['artifacts']} artifacts: {s['audited']} audited, {s['failed']} failed.</p>
<ul>{summary}</ul>
<table><thead><tr><th>package</th><th>version</th><th>artifacts</th><th>verdict</th><th>floor</th><th>CUDA</th>
<th>requirement</th>{heads}</tr></thead><tbody>
{chr(10).join(rows)}
</tbody></table>
{failed_html}
</body></html>
"""


# ---------------------------------------------------------------- main


def main(argv):
    ap = argparse.ArgumentParser(prog="torchabi scan")
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--torch", action="append", default=[])
    ap.add_argument("--release", action="append", default=[])
    ap.add_argument("--list", action="append", default=[])
    ap.add_argument("--target-version", default="")
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--scheduler", default="")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--merge-only", action="store_true")
    ap.add_argument("-v", dest="verbose", action="store_true")
    ap.add_argument("inputs", nargs="*")
    args = ap.parse_args(argv)
    for r in args.release:
        if parse_release(r) is None:
            raise InputFailure("--release", f"'{r}' is not a release (2.10, 2.10.1)")

    if not args.merge_only:
        require_dask()
    started = time.monotonic()
    artifacts = collect_artifacts(args.inputs, args.list)
    if not artifacts:
        raise InputFailure("scan", "no artifacts to scan")
    outdir = args.out
    results_dir = os.path.join(outdir, "results")
    try:
        os.makedirs(results_dir, exist_ok=True)
    except OSError as e:
        raise InputFailure(outdir, f"cannot create the output directory: {e.strerror}")

    audit_args = []
    for t in args.torch:
        audit_args += ["--torch", os.path.abspath(t) if os.path.exists(t) else t]
    if args.target_version:
        audit_args += ["--target-version", args.target_version]
    # A result is reused only for the same artifact bytes, options and torchabi.
    options = {"audit_args": audit_args, "torchabi": torchabi_version(args.torchabi), "format": RESULT_FORMAT}
    optkey = hashlib.sha256(json.dumps(options, sort_keys=True).encode()).hexdigest()[:12]

    cache = HashCache(os.path.join(results_dir, "hashes.json"))
    hashes = {}
    for a in artifacts:
        try:
            hashes[a] = cache.sha256(a)
        except OSError as e:
            raise InputFailure(a, f"cannot read: {e.strerror}")
    cache.save()

    # Identical bytes under several names are audited once (the first name).
    pending, queued = [], set()
    for a in artifacts:
        sha = hashes[a]
        if sha in queued or load_result(results_dir, sha, optkey) is not None:
            continue
        queued.add(sha)
        pending.append((a, sha))
    reused = len(artifacts) - len(pending)
    failures = {}
    if pending and not args.merge_only:
        progress = Progress(len(pending), args.verbose)
        failures = run_audits(pending, args, audit_args, outdir, results_dir, optkey, progress)
        progress.clear()
    # A failed artifact fails every name it has.
    by_sha = {f["sha256"]: f for f in failures.values()}
    failures = {a: dict(by_sha[hashes[a]], path=a) for a in artifacts if hashes[a] in by_sha}

    report = merge(artifacts, results_dir, optkey, hashes, failures, args)
    report["summary"]["reused"] = reused
    report["summary"]["seconds"] = round(time.monotonic() - started, 3)
    # One line, written by json's C encoder (`jq .` indents it): indented, it
    # took seconds for a thousand artifacts.
    write_atomic(os.path.join(outdir, "report.json"), json.dumps(report, separators=(",", ":")) + "\n")
    write_atomic(os.path.join(outdir, "report.md"), render_markdown(report))
    write_atomic(os.path.join(outdir, "report.html"), render_html(report))
    s = report["summary"]
    print(f"torchabi scan: {s['artifacts']} artifacts ({s['packages']} packages): {s['audited']} audited "
          f"({reused} from earlier results), {s['failed']} failed, in {s['seconds']:.1f} s; "
          f"report: {os.path.join(outdir, 'report.md')}", file=sys.stderr)
    return 1 if s["failed"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputFailure as e:
        print(f"torchabi: error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
