#!/usr/bin/env python3
"""torchabi's opcheck-class findings against real torch.library.opcheck.

  opcheck.py --run EXT.so... --out R.json --cases-dir DIR   (inside the chroot; real torch)
  opcheck.py --compare R.json... --torchabi BIN --work DIR --chroot-work DIR   (outside)

--run loads each extension, and for every op it registered builds inputs the
way `torchabi run`'s smoke calls do (2x3 tensors whose values differ per
argument, ints 1, floats 0.5, ...; float32 first, then float64, int64, int32,
bool until the op accepts them), runs real
torch.library.opcheck(op, args, test_utils=("test_schema",)) in a forked child,
and writes the inputs as a torchabi case file (DIR/<ext>.opcheck.yaml), so both
sides call the op with the same values.

--compare runs `torchabi run --cases` on those files and checks, per op, that
torchabi reports the schema violation real opcheck reports (mutation of an
argument not declared mutable, an output aliasing an argument without an
annotation, a returned input) and nothing where opcheck passes. Prints
'opcheck: N agree, M disagree'; exits 1 on any disagreement.
"""
import argparse
import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import confined_fork  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Real opcheck's message -> the torchabi rule that reports the same violation.
RULES = {
    "is not defined as mutable but was mutated": "runtime-undeclared-mutation",
    "is not defined to alias output but was aliasing": "runtime-undeclared-alias",
    "not allowed to directly return inputs": "runtime-returns-input",
    "alias unexpectedly": "runtime-undeclared-alias",
}
CHECKED = set(RULES.values())
DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def smoke_node(typ, dtype, position):
    kind = typ.kind()
    if kind == "TensorType":
        if dtype == "bool":
            values = [(i + position) % 2 for i in range(6)]
        else:
            values = [0.5 * i - 1 + position for i in range(6)]
        return {"dtype": dtype, "shape": [2, 3], "values": values}
    if kind in ("IntType", "SymIntType"):
        return 1
    if kind == "FloatType":
        return 0.5
    if kind == "BoolType":
        return False
    if kind == "StringType":
        return "constant"
    if kind == "ScalarTypeType":
        return dtype
    if kind == "LayoutType":
        return "strided"
    if kind == "MemoryFormatType":
        return "contiguous_format"
    if kind == "DeviceObjType":
        return "cpu"
    if kind == "OptionalType":
        return None
    if kind == "ListType":
        return [smoke_node(typ.getElementType(), dtype, position)]
    raise ValueError(f"no smoke value for {typ}")


def smoke_inputs(schema, dtype):
    inputs = {}
    for position, a in enumerate(schema.arguments):
        if a.has_default_value():
            continue
        inputs[a.name] = smoke_node(a.real_type, dtype, position)
    return inputs


def in_child(fn):
    """fn() in a fork; its JSON-able result, or {"outcome": "crash"}."""
    r, w = os.pipe()
    pid = confined_fork.fork()
    if pid == 0:
        os.close(r)
        signal.alarm(10)  # a kernel that hangs ends only this child
        try:
            data = json.dumps(fn())
        except BaseException as e:  # noqa: BLE001
            data = json.dumps({"outcome": "error", "message": str(e)[:300]})
        with os.fdopen(w, "w") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        data = f.read()
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"outcome": "crash"}


def run(a):
    import torch
    import yaml
    sys.path.insert(0, HERE)
    import torch_runner as tr

    # opcheck imports most of torch's Python side on its first use (~2 s): do
    # it once here, so the child of every op inherits it instead of paying it.
    torch.library.opcheck(torch.ops.aten.abs.default, (torch.ones(2),), test_utils=("test_schema",))
    results = {}
    for so in a.run:
        name = os.path.basename(so)[:-3]
        # A static initializer that hangs or crashes must not take this process:
        # try the load in a child first (it is deterministic).
        probe = in_child(lambda: (torch.ops.load_library(so), {"outcome": "ok"})[1])
        if probe.get("outcome") != "ok":
            results[name] = {"load_error": probe.get("message", probe.get("outcome", ""))}
            continue
        before = set(torch._C._dispatch_get_all_op_names())
        try:
            torch.ops.load_library(so)
        except Exception as e:  # noqa: BLE001
            results[name] = {"load_error": str(e)[:300]}
            continue
        ops = tr.registrations(torch, before)
        cases, per_op = [], {}
        for qualified in ops:
            ns, _, rest = qualified.partition("::")
            base, _, overload = rest.partition(".")
            try:
                op = getattr(getattr(getattr(torch.ops, ns), base), overload or "default")
            except AttributeError:
                continue

            def smoke_then_opcheck():
                # One child per op: the first dtype the op accepts, then opcheck on fresh inputs.
                for dtype in DTYPES:
                    try:
                        inputs = smoke_inputs(op._schema, dtype)
                    except ValueError:
                        return {"outcome": "unsupported"}
                    try:
                        args, kwargs = tr.call_args(torch, op._schema, inputs)
                        op(*args, **kwargs)
                    except Exception:  # noqa: BLE001 - the op rejects these inputs: try the next dtype
                        continue
                    args, kwargs = tr.call_args(torch, op._schema, inputs)
                    try:
                        torch.library.opcheck(op, args, kwargs, test_utils=("test_schema",))
                        verdict = {"outcome": "pass"}
                    except Exception as e:  # noqa: BLE001 - opcheck's verdict
                        verdict = {"outcome": "fail", "message": str(e).replace("\n", " ")[:400]}
                    return dict(verdict, dtype=dtype, inputs=inputs)
                return {"outcome": "rejected"}

            verdict = in_child(smoke_then_opcheck)
            if "inputs" not in verdict:
                continue
            case = f"opcheck {qualified} {verdict['dtype']}"
            cases.append({"name": case, "op": qualified, "inputs": verdict.pop("inputs")})
            per_op[qualified] = dict(verdict, case=case)
        path = os.path.join(a.cases_dir, name + ".opcheck.yaml")
        with open(path, "w") as f:
            yaml.safe_dump({"cases": cases}, f, default_flow_style=None, sort_keys=False, width=200)
        env = {k: v for k, v in os.environ.items() if k.startswith("TORCHABI_")}  # the probes' op lists
        results[name] = {"so": so, "cases": path, "ops": per_op, "env": env}
    with open(a.out, "w") as f:
        json.dump(results, f, indent=1)
    return 0


def compare(a):
    results = {}
    for path in a.compare:
        with open(path) as f:
            results.update(json.load(f))
    agree = disagree = 0
    for name, rec in sorted(results.items()):
        if "ops" not in rec or not rec["ops"]:
            continue
        so = os.path.join(a.work, os.path.relpath(rec["so"], a.chroot_work))
        cases = os.path.join(a.work, os.path.relpath(rec["cases"], a.chroot_work))
        out = os.path.join(a.work, name + ".opcheck.torchabi.json")
        env = dict(os.environ, **{k: os.path.join(a.work, os.path.relpath(v, a.chroot_work))
                                  for k, v in rec.get("env", {}).items()})
        p = subprocess.run([a.torchabi, "run", so, "--cases", cases, "--format", "json", "-o", out],
                           capture_output=True, text=True, env=env)
        if p.returncode not in (0, 1):
            print(f"DISAGREE {name}: torchabi could not run it: {p.stderr.strip()}")
            disagree += 1
            continue
        with open(out) as f:
            report = json.load(f)
        found = {}
        for fd in report["findings"]:
            if fd["rule"] in CHECKED:
                found.setdefault(fd["location"].get("symbol"), set()).add(fd["rule"])
        facts = report["subjects"][0].get("facts", {}) if report.get("subjects") else {}
        for op, verdict in sorted(rec["ops"].items()):
            if facts.get("case " + verdict["case"]) in ("crashed", "timed out"):
                continue  # the call never completed in torchabi: nothing to compare
            want = None
            if verdict["outcome"] == "fail":
                want = next((rule for text, rule in RULES.items() if text in verdict["message"]), None)
                if want is None:
                    continue  # opcheck failed for a reason torchabi does not model (listed with -v)
            got = found.get(op, set())
            if (want is None and not got) or (want in got):
                agree += 1
                continue
            disagree += 1
            print(f"DISAGREE {name} {op}:")
            print(f"    real opcheck: {verdict['outcome']} {verdict.get('message', '')[:200]}")
            print(f"    torchabi:     {', '.join(sorted(got)) or 'no schema finding'}")
    print(f"opcheck: {agree} agree, {disagree} disagree")
    return 1 if disagree else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--cases-dir")
    ap.add_argument("--compare", nargs="*")
    ap.add_argument("--torchabi")
    ap.add_argument("--work", help="the chroot's work directory as seen from outside")
    ap.add_argument("--chroot-work", help="the same directory as seen inside the chroot")
    a = ap.parse_args()
    return run(a) if a.run else compare(a)


if __name__ == "__main__":
    sys.exit(main())
