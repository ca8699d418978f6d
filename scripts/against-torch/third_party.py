#!/usr/bin/env python3
"""Debian's own PyTorch extensions as ground truth, for third_party.sh.

  third_party.py --gen SO... --work DIR                  (inside the root; real torch)
  third_party.py --audit-real SO... --out R.json         (inside the root; real torch)
  third_party.py --report --torchabi BIN --root ROOT --work DIR --audit A.json --real R.json

--gen loads each library into real torch (a fresh process each), and for
every op it registers builds the inputs `torchabi run`'s smoke calls build
(opcheck.py's smoke_inputs: 2x3 tensors, ints 1, floats 0.5, ...; float32
first, then float64, int64, int32, bool until real torch accepts them). It
writes DIR/manifest.json, a case file per library (DIR/<lib>.cases.yaml) and
real torch's results in torch_runner.py's format (DIR/torch_results.json),
so that compare.py's comparison applies unchanged.

--audit-real: whether real torch can load each library (after `import torch`,
as an import would) and import each package.

--report runs `torchabi run --root ROOT` on every library with real torch's
results as expectations (compare.py), checks `audit --torch` (A.json) against
the real loads, and prints the figures: ops run, agreeing, disagreeing, not
runnable and why. Exit 1 on a disagreement.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def label_of(so):
    """torch_sparse/_rw_cpu.cpython-314-x86_64-linux-gnu.so -> torch_sparse._rw_cpu: libraries of
    different packages share file names."""
    parts = so.split("/")
    pkg = next((p for p in parts if p.startswith("torch")), parts[-2])
    return pkg + "." + parts[-1].split(".")[0]


def gen_one(so, cases_out, rec_out, extra=None):
    import torch
    import yaml
    import opcheck
    import torch_runner as tr
    torch.set_num_threads(1)
    before = set(torch._C._dispatch_get_all_op_names())
    rec = {"so": so, "load": {"ok": True}, "ops": {}, "cases": [], "not_runnable": {}}
    try:
        torch.ops.load_library(so)
    except Exception as e:  # noqa: BLE001
        rec["load"] = {"ok": False, "error": f"{type(e).__name__}: {e}".splitlines()[0][:500]}
        # A sibling its package's Python loads first under another file name
        # (torchcodec's libtorchcodec_core9.so is libtorchcodec_core9.cpython-314-...so).
        m = re.search(r"(\S+?)\.so: cannot open shared object file", f"{e} {e.__cause__ or e.__context__ or ''}")
        sibling = None
        if m:
            d = os.path.dirname(so)
            sibling = next((os.path.join(d, f) for f in sorted(os.listdir(d))
                            if f.startswith(os.path.basename(m.group(1)) + ".") and f.endswith(".so")), None)
        if sibling:
            import ctypes
            try:
                ctypes.CDLL(sibling, mode=ctypes.RTLD_GLOBAL)
                torch.ops.load_library(so)
                rec["load"] = {"ok": True, "preloaded": sibling}
            except Exception:  # noqa: BLE001
                pass
    rec["ops"] = tr.registrations(torch, before)
    cases = []
    for name in sorted(rec["ops"]):
        ns, _, rest = name.partition("::")
        base, _, overload = rest.partition(".")
        try:
            op = getattr(getattr(getattr(torch.ops, ns), base), overload or "default")
        except Exception as e:  # noqa: BLE001
            rec["not_runnable"][name] = f"not callable from Python: {e}"
            continue
        first = None
        for dtype in DTYPES:
            try:
                inputs = opcheck.smoke_inputs(op._schema, dtype)
            except ValueError as e:
                rec["not_runnable"][name] = str(e)
                break
            case = {"name": f"smoke {name} {dtype}", "op": name, "inputs": inputs}
            r = tr.run_case(torch, case, 10, True)
            if first is None:
                first = (case, r)
            if r["outcome"] == "ok":
                first = (case, r)
                break
        if first is None:
            continue
        case, r = first
        if r["outcome"] != "ok":
            rec["not_runnable"][name] = "real torch rejects every smoke input: " + (r.get("error") or r["outcome"])
        cases.append(case)
        rec["cases"].append(r)
    # Case files written for ops whose smoke inputs real torch rejects.
    if extra and os.path.exists(extra) and rec["load"]["ok"]:
        with open(extra) as f:
            for case in yaml.safe_load(f).get("cases") or []:
                r = tr.run_case(torch, case, 10, True)
                cases.append(case)
                rec["cases"].append(r)
                if r["outcome"] == "ok":
                    rec["not_runnable"].pop(case["op"], None)
                    # The rejected smoke call stays in the comparison (both must reject it).
    with open(cases_out, "w") as f:
        yaml.safe_dump({"cases": cases}, f, default_flow_style=None, sort_keys=False, width=200)
    with open(rec_out, "w") as f:
        json.dump(rec, f)


def forked(fn, timeout=1200):
    """fn() in a child forked from this process (torch already imported: no
    import per library); its exit status, or None when it had to be killed."""
    import signal
    pid = os.fork()
    if pid == 0:
        signal.alarm(int(timeout))
        try:
            fn()
            code = 0
        except BaseException:  # noqa: BLE001
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def gen(a):
    import torch  # once: every library is loaded in a child forked from here
    torch.set_num_threads(1)
    os.makedirs(a.work, exist_ok=True)
    manifest, results = {"timeout": 10, "extensions": []}, []
    for so in a.gen:
        name = label_of(so)
        cases_out = os.path.join(a.work, name + ".cases.yaml")
        rec_out = os.path.join(a.work, name + ".torch.json")
        for f in (cases_out, rec_out):
            if os.path.exists(f):
                os.unlink(f)
        extra = os.path.join(a.extra_cases, name + ".yaml") if a.extra_cases else None
        code = forked(lambda: gen_one(so, cases_out, rec_out, extra))
        if os.path.exists(rec_out):
            with open(rec_out) as f:
                rec = json.load(f)
        else:
            rec = {"so": so, "load": {"ok": False, "error": f"the process loading it ended with status {code}"},
                   "ops": {}, "cases": [], "not_runnable": {}}
            with open(cases_out, "w") as f:
                f.write("cases: []\n")
        results.append(rec)
        # Paths relative to the work directory: the same inside the root and outside.
        entry = {"so": os.path.relpath(so, a.work), "label": name}
        if rec["load"].get("preloaded"):  # "@": relative to the work directory, as "so" is
            entry["run_args"] = ["--preload", "@" + os.path.relpath(rec["load"]["preloaded"], a.work)]
        if rec["cases"]:
            entry["cases"] = os.path.basename(cases_out)  # none: torchabi's own smoke calls, loading compared
        manifest["extensions"].append(entry)
        print(f"  real torch: {name}: {'loaded' if rec['load']['ok'] else 'not loaded: ' + rec['load']['error'][:150]}"
              f", {len(rec['ops'])} ops", file=sys.stderr, flush=True)
    with open(os.path.join(a.work, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    with open(os.path.join(a.work, "torch_results.json"), "w") as f:
        json.dump(results, f, indent=1)


def audit_real(a):
    import ctypes
    import importlib
    import traceback
    import torch  # noqa: F401 - loaded as an import of the package would have it
    out = {"libraries": {}, "packages": {}}
    errfile = os.path.join(os.path.dirname(os.path.abspath(a.out)), "real.err")

    def attempt(fn):
        if os.path.exists(errfile):
            os.unlink(errfile)

        def run():
            try:
                fn()
            except BaseException as e:  # noqa: BLE001
                with open(errfile, "w") as f:
                    f.write(f"{type(e).__name__}: {e}".splitlines()[0][:300])
                traceback.print_exc(file=open(os.devnull, "w"))
                raise
        code = forked(run, timeout=300)
        if code == 0:
            return "yes"
        why = open(errfile).read() if os.path.exists(errfile) else f"the process ended with status {code}"
        return "no: " + why

    for so in a.audit_real:
        out["libraries"][so] = attempt(lambda: ctypes.CDLL(so))
    for pkg in a.packages or []:
        out["packages"][pkg] = attempt(lambda: importlib.import_module(pkg))
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)


# torchcodec hands its C++ decoders and encoders to Python as a tensor holding
# the object's address ("Tensor decoder" in and out of its ops): smoke inputs
# are no such objects, so real torch crashes or reads garbage (undefined
# behaviour) and there is nothing to compare. Real media files would be needed.
HANDLE_OPS = re.compile(r"^(create_from_|create_wav_decoder_from_|create_streaming_encoder|_create_from_)")


def takes_handle(schema):
    name = schema.split("::")[-1].split("(")[0]
    if re.search(r"\bTensor(\([^)]*\))?\s+(decoder|encoder)\b", schema) or HANDLE_OPS.match(name):
        return ("a torchcodec object handle (a tensor holding a C++ object's address) in or out: smoke inputs are "
                "no such object (undefined behaviour in real torch too); needs real media files")
    return ""


def why_not_loaded(load_rules):
    """Why the reference runtime cannot run a library, by the rule torchabi named."""
    rules = {f["rule"] for f in load_rules}
    msg = load_rules[0]["message"] if load_rules else ""
    if "runtime-load-failed" in rules:
        return "an UNSTABLE build: it imports PyTorch's C++ beyond the stable C ABI (runtime-load-failed)"
    if "runtime-unresolved-symbol" in rules:
        return "a Python extension module: it imports Python's C API (runtime-unresolved-symbol)"
    if "runtime-missing-library" in rules:
        return "a library it needs is not found by its DT_NEEDED name (runtime-missing-library: " + msg[:120] + ")"
    return "torchabi did not load it: " + msg[:160]


class Tally:
    """compare.py's Report, remembering what disagreed."""

    def __init__(self):
        self.passed = 0
        self.failed = []
        self.what = []

    def ok(self):
        self.passed += 1

    def fail(self, ext, what, torch_says, torchabi_says):
        self.failed.append(ext)
        self.what.append((ext, what, torch_says, torchabi_says))


def report(a):
    import compare
    compare.EXTRA_RUN_ARGS[:] = ["--root", a.root]
    with open(os.path.join(a.work, "manifest.json")) as f:
        manifest = json.load(f)
    with open(os.path.join(a.work, "torch_results.json")) as f:
        results = json.load(f)
    status = 0
    ops_total = ops_run = agree = disagree = calls_run = calls_agree = 0
    not_runnable = []  # (op, why)
    per_op = {}
    print("== ops: the reference runtime (run --root) against real torch, smoke inputs")
    for ext, rec in zip(manifest["extensions"], results):
        name = ext["label"]
        t = Tally()
        compare.compare_extension(ext, rec, a.torchabi, a.work, t)
        mine_path = os.path.join(a.work, name + ".torchabi.json")
        mine = {}
        if os.path.exists(mine_path):
            with open(mine_path) as f:
                mine = json.load(f)
        subj = (mine.get("subjects") or [{}])[0]
        facts = subj.get("facts", {})
        facts = facts if isinstance(facts, dict) else dict(facts)
        load_rules = [f for f in mine.get("findings", []) if f["rule"] in compare.LOAD_RULES]
        ops = sorted(rec["ops"])
        ops_total += len(ops)
        loaded_here = subj.get("verdict") not in (None, "NOT LOADED")
        if not rec["load"]["ok"]:
            for op in ops:
                not_runnable.append((op, "real torch cannot load " + name))
        elif not loaded_here:
            why = why_not_loaded(load_rules)

            for op in ops:
                not_runnable.append((op, why))
        else:
            seen = set()
            for c in rec["cases"]:
                handle = takes_handle(rec["ops"].get(c["op"], {}).get("schema", ""))
                if handle:
                    rec.setdefault("not_runnable", {})[c["op"]] = handle
                    continue
                bad = [w for w in t.what if w[1] == f"case '{c['name']}'" or w[1].startswith(f"case '{c['name']}':")]
                calls_run += 1
                calls_agree += not bad
                for _, what, ts, ms in bad:
                    print(f"  DISAGREE {name}: {what}\n      real torch: {ts}\n      torchabi:   {ms}")
                op_state = per_op.setdefault(c["op"], {"ok": 0, "bad": 0, "accepted": False})
                op_state["bad" if bad else "ok"] += 1
                op_state["accepted"] |= c["outcome"] == "ok"
                seen.add(c["op"])
            for op in ops:
                st = per_op.get(op)
                if takes_handle(rec["ops"][op].get("schema", "")):
                    not_runnable.append((op, takes_handle(rec["ops"][op]["schema"])))
                elif op in rec.get("not_runnable", {}) and not (st and st["accepted"]):
                    not_runnable.append((op, rec["not_runnable"][op][:200]))
                elif st is None:
                    not_runnable.append((op, "no case"))
                else:
                    ops_run += 1
                    if st["bad"]:
                        disagree += 1
                    else:
                        agree += 1
        # Loading and registrations are compared whatever the cases say.
        other = [w for w in t.what if not w[1].startswith("case '")]
        expected_no_load = not loaded_here and load_rules
        for _, what, ts, ms in other:
            if expected_no_load and what.startswith("op "):
                continue  # a library the reference runtime refuses registers nothing there
            if what == "loading" and expected_no_load:
                continue  # counted as not runnable, with the reason
            print(f"  DISAGREE {name}: {what}\n      real torch: {ts}\n      torchabi:   {ms}")
            status = 1
        print(f"  {name}: real torch {'loads' if rec['load']['ok'] else 'cannot load'} it, {len(ops)} ops; "
              f"torchabi run --root: {subj.get('verdict', 'no report')}"
              + (f" ({load_rules[0]['rule']})" if load_rules and not loaded_here else "")
              + (f"; {facts.get('calls')}" if facts.get("calls") else ""))
    if disagree:
        status = 1
    print(f"ops: {ops_total} registered, {ops_run} run in both, {agree} agree, {disagree} disagree, "
          f"{len(not_runnable)} not runnable; calls: {calls_run} compared, {calls_agree} agree")
    reasons = {}
    for op, why in not_runnable:
        reasons.setdefault(why, []).append(op)
    for why, ops in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print(f"  not runnable ({len(ops)}): {why}" + (f" — {', '.join(ops[:4])}{' ...' if len(ops) > 4 else ''}"))

    # audit --torch against what real torch loads.
    print("== audit --torch against real torch's loads")
    with open(a.audit) as f:
        audit = json.load(f)
    with open(a.real) as f:
        real = json.load(f)
    a_ok = a_bad = a_other = 0
    by_path = {s["path"]: s for s in audit["subjects"]}
    for so, verdict in sorted(real["libraries"].items()):
        s = by_path.get(a.root + so)  # audited from outside the root
        if s is None:
            print(f"  (not audited: {so})")
            continue
        loads = [l for l in (s.get("torch") or {}).values()] if isinstance(s.get("torch"), dict) else s.get("torch") or []
        measured = loads[0]["loads"] if loads else None
        real_ok = verdict == "yes"
        line = (f"{label_of(so)}: {s.get('verdict')} {s.get('loads_on', '')[:70]}; audit --torch: "
                f"{'loads' if measured else 'does not load'}; real torch: {verdict[:120]}")
        missing = re.search(r"(\S+): cannot open shared object file", verdict)
        if measured == real_ok:
            a_ok += 1
            print("  ok   " + line)
        elif missing and not re.match(r"lib(torch(_[a-z_]+)?|c10(_[a-z]+)?|shm)\.so", missing.group(1)):
            # Not PyTorch's: the package loads it first (torchcodec's core library); --torch does not judge that.
            a_other += 1
            print("  n/a  " + line)
        else:
            a_bad += 1
            print("  DISAGREE " + line)
            status = 1
    for pkg, verdict in sorted(real["packages"].items()):
        print(f"  import {pkg} in real torch: {verdict[:160]}")
    print(f"audit --torch: {a_ok} agree, {a_bad} disagree with real torch's loads; {a_other} fail to load in real "
          f"torch for a library that is not PyTorch's (outside --torch's question)")
    return status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", nargs="+")
    ap.add_argument("--extra-cases", help="directory of case files named <package>.<library>.yaml")
    ap.add_argument("--audit-real", nargs="+")
    ap.add_argument("--packages", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--torchabi")
    ap.add_argument("--root")
    ap.add_argument("--work")
    ap.add_argument("--audit")
    ap.add_argument("--real")
    a = ap.parse_args()
    if a.gen:
        gen(a)
        return 0
    if a.audit_real:
        audit_real(a)
        return 0
    if a.report:
        return report(a)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
