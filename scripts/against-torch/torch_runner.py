#!/usr/bin/env python3
"""Runs stable extensions in real PyTorch, for scripts/test-against-torch.sh.

  torch_runner.py --manifest M.json --out R.json   (inside the chroot; real torch)

M.json: {"extensions": [{"so": PATH, "cases": PATH or null, "env": {VAR: PATH}}], "timeout": SECONDS},
paths relative to the manifest's directory.
Each extension is loaded with torch.ops.load_library in a fresh process (a
crashing static initializer ends only that process); what it registered is
read back from the dispatcher, and each case of its case file (torchabi's
format, docs/runtime.md) runs in a forked child with a time limit. Inputs are
built exactly as `torchabi run` builds them, including `random`
(std::mt19937_64 + std::uniform_real_distribution as libstdc++ computes them).

R.json: one entry per extension: {"so", "load": {"ok", "error"}, "ops": {name:
{"schema", "keys"}}, "cases": [{"name", "op", "outcome": ok|error|crash|timeout,
"error", "error_type" (the Python exception's class name), "error_message",
"outputs", "expectation": null or why the case file's expectation disagrees
with real torch}]}.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import select
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import confined_fork  # noqa: E402
import time


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs

class MT19937_64:
    """std::mt19937_64, so that `random` inputs match torchabi's bit for bit."""

    def __init__(self, seed):
        self.mt = [0] * 312
        self.mt[0] = seed & 0xFFFFFFFFFFFFFFFF
        for i in range(1, 312):
            self.mt[i] = (6364136223846793005 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 62)) + i) & 0xFFFFFFFFFFFFFFFF
        self.i = 312

    def __call__(self):
        if self.i >= 312:
            for k in range(312):
                y = (self.mt[k] & 0xFFFFFFFF80000000) | (self.mt[(k + 1) % 312] & 0x7FFFFFFF)
                v = self.mt[(k + 156) % 312] ^ (y >> 1)
                if y & 1:
                    v ^= 0xB5026F5AA96619E9
                self.mt[k] = v
            self.i = 0
        x = self.mt[self.i]
        self.i += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & 0xFFFFFFFFFFFFFFFF


def uniform(gen, lo, hi):
    # libstdc++: generate_canonical<double, 53> from one 64-bit draw, then a + r * (b - a).
    r = float(gen()) / 18446744073709551616.0
    if r >= 1.0:
        r = math.nextafter(1.0, 0.0)
    return r * (hi - lo) + lo


def as_float(v):
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, str):  # PyYAML reads 1e-6 as a string
        return float(v)
    return float(v)


def flatten_values(n, depth, shape, out):
    if not isinstance(n, list):
        out.append(1.0 if n is True else 0.0 if n is False else as_float(n))
        return
    if len(shape) <= depth:
        shape.append(len(n))
    for item in n:
        flatten_values(item, depth + 1, shape, out)


DTYPE_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "int": "int32",
                 "long": "int64", "short": "int16"}


def dtype_named(torch, name):
    name = name[6:] if name.startswith("torch.") else name
    name = DTYPE_ALIASES.get(name, name)
    d = getattr(torch, name, None)
    if not isinstance(d, torch.dtype):
        raise ValueError(f"unknown dtype {name}")
    return d


def make_tensor(torch, spec):
    dtype = torch.float32
    shape, vals = None, None
    contiguous = True
    fill = arange = rnd = None
    if isinstance(spec, (int, float)) and not isinstance(spec, bool) or isinstance(spec, str):
        shape, vals = [], [as_float(spec)]
    elif isinstance(spec, list):
        shape, vals = [], []
        flatten_values(spec, 0, shape, vals)
    else:
        for k, v in spec.items():
            if k == "dtype":
                dtype = dtype_named(torch, v)
            elif k == "shape":
                shape = [int(x) for x in v]
            elif k == "values":
                implied, vals = [], []
                flatten_values(v, 0, implied, vals)
                if "shape" not in spec:
                    shape = implied
            elif k == "fill":
                fill = as_float(v)
            elif k == "arange":
                arange = 0.0 if v is True else as_float(v)
            elif k == "random":
                rnd = v or {}
            elif k == "contiguous":
                contiguous = bool(v)
    numel = 1
    for s in shape:
        numel *= s
    if vals is None:
        vals = [fill if fill is not None else 0.0] * numel
        if arange is not None:
            vals = [arange + i for i in range(numel)]
        if rnd is not None:
            gen = MT19937_64(int(rnd.get("seed", 0)))
            lo, hi = as_float(rnd.get("low", -1.0)), as_float(rnd.get("high", 1.0))
            integral = not (dtype.is_floating_point or dtype.is_complex)
            vals = [math.floor(uniform(gen, lo, hi)) if integral else uniform(gen, lo, hi) for _ in range(numel)]
    # Values go in through float64 (as torchabi writes them), then to the dtype.
    src = torch.tensor(vals, dtype=torch.float64).reshape(shape)
    if contiguous or len(shape) < 2:
        t = torch.empty(shape, dtype=dtype)
    else:
        swapped = list(shape)
        swapped[-1], swapped[-2] = swapped[-2], swapped[-1]
        t = torch.empty(swapped, dtype=dtype).transpose(-1, -2)
    if numel:
        if dtype == torch.bool:
            t.copy_(src != 0)
        elif not dtype.is_floating_point:
            t.copy_(src.to(torch.int64))  # truncation, then wrap: as torchabi's write_double
        elif dtype in (torch.float16, torch.bfloat16):
            t.copy_(src.to(torch.float32))  # torchabi rounds through float too
        else:
            t.copy_(src)
    return t


LAYOUTS = {"strided": "strided", "sparse_coo": "sparse_coo", "sparse_csr": "sparse_csr"}
FORMATS = {"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"}


def make_value(torch, node, typ):
    kind = typ.kind()
    if kind == "OptionalType":
        return None if node is None else make_value(torch, node, typ.getElementType())
    if kind == "TensorType":
        return make_tensor(torch, node)
    if kind in ("IntType", "SymIntType"):
        return int(node)
    if kind == "FloatType":
        return as_float(node)
    if kind == "BoolType":
        return bool(node)
    if kind == "StringType":
        return str(node)
    if kind == "ScalarTypeType":
        return dtype_named(torch, str(node))
    if kind == "LayoutType":
        name = str(node).removeprefix("torch.")
        return getattr(torch, LAYOUTS[name])
    if kind == "MemoryFormatType":
        name = str(node).removeprefix("torch.")
        if name not in FORMATS:
            raise ValueError(f"unknown memory format {name}")
        return getattr(torch, name)
    if kind == "DeviceObjType":
        return torch.device(str(node))
    if kind == "ListType":
        if not isinstance(node, list):
            node = [node]
        return [make_value(torch, x, typ.getElementType()) for x in node]
    raise ValueError(f"unsupported schema type {typ}")


def call_args(torch, schema, inputs):
    """Positional arguments until one is left to its default; keywords after that."""
    args, kwargs = [], {}
    skipped = False
    for i, a in enumerate(schema.arguments):
        given, node = False, None
        if isinstance(inputs, list) and i < len(inputs):
            given, node = True, inputs[i]
        elif isinstance(inputs, dict) and a.name in inputs:
            given, node = True, inputs[a.name]
        if not given:
            if a.has_default_value():
                skipped = True
                continue  # the op's own default
            node = None
            if a.real_type.kind() != "OptionalType":
                raise ValueError(f"no value for argument {a.name}")
        # real_type: the JIT types ScalarType, Layout, MemoryFormat as int; the schema says which.
        v = make_value(torch, node, a.real_type)
        if a.kwarg_only or skipped:
            kwargs[a.name] = v
        else:
            args.append(v)
    return args, kwargs


# ---------------------------------------------------------------- outputs

def describe(torch, v):
    if isinstance(v, torch.Tensor):
        if v.device.type == "meta":
            return {"kind": "tensor", "dtype": str(v.dtype)[6:], "shape": list(v.shape), "strides": list(v.stride())}
        flat = v.detach().reshape(-1)
        if flat.dtype in (torch.float16, torch.bfloat16):
            flat = flat.float()
        elif flat.dtype == torch.bool:
            flat = flat.to(torch.int64)
        elif flat.dtype in (torch.uint16, torch.uint32):
            flat = flat.to(torch.int64)
        values = flat.tolist()
        return {"kind": "tensor", "dtype": str(v.dtype)[6:], "shape": list(v.shape), "strides": list(v.stride()),
                "values": [x if not isinstance(x, float) or math.isfinite(x) else repr(x) for x in values]}
    if isinstance(v, (list, tuple)):
        return {"kind": "list", "items": [describe(torch, x) for x in v]}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": v if math.isfinite(v) else repr(v)}
    return {"kind": "other", "value": str(v)}


TOL = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def num(x):
    return float(x) if not isinstance(x, str) else float(x.replace("inf", "inf"))


def close(g, w, rtol, atol):
    g, w = num(g), num(w)
    if math.isnan(g) or math.isnan(w):
        return math.isnan(g) and math.isnan(w)
    if math.isinf(w):
        return g == w
    return abs(g - w) <= atol + rtol * abs(w)


def check_expectation(torch, out, spec):
    """Why real torch's output `out` (described) does not meet the case file's `spec`, or None."""
    if spec is None:
        return None
    if out["kind"] == "list" and isinstance(spec, list):
        for k, (o, s) in enumerate(zip(out["items"], spec)):
            why = check_expectation(torch, o, s)
            if why:
                return f"item {k}: {why}"
        return None
    if out["kind"] != "tensor":
        want = spec
        got = out.get("value")
        if isinstance(got, float) or isinstance(want, float):
            return None if close(got, want, 1e-7, 1e-7) else f"is {got}, expected {want}"
        return None if got == want else f"is {got}, expected {want}"
    if not isinstance(spec, dict):
        spec = {"values": spec}
    if "dtype" in spec and str(dtype_named(torch, spec["dtype"]))[6:] != out["dtype"]:
        return f"has dtype {out['dtype']}, expected {spec['dtype']}"
    want_vals = None
    if "values" in spec:
        shape, want_vals = [], []
        flatten_values(spec["values"], 0, shape, want_vals)
        if "shape" not in spec and shape != out["shape"]:
            return f"has shape {out['shape']}, expected {shape}"
    if "shape" in spec and [int(x) for x in spec["shape"]] != out["shape"]:
        return f"has shape {out['shape']}, expected {spec['shape']}"
    if "strides" in spec and [int(x) for x in spec["strides"]] != out["strides"]:
        return f"has strides {out['strides']}, expected {spec['strides']}"
    if want_vals is not None:
        rtol, atol = TOL.get(out["dtype"], (0.0, 0.0))
        rtol, atol = as_float(spec.get("rtol", rtol)), as_float(spec.get("atol", atol))
        for i, (g, w) in enumerate(zip(out["values"], want_vals)):
            if not close(g, w, rtol, atol):
                return f"differs at element {i}: got {g}, expected {w}"
    return None


# ---------------------------------------------------------------- one extension

def registrations(torch, before):
    ops = {}
    for name in sorted(set(torch._C._dispatch_get_all_op_names()) - before):
        base, _, overload = name.partition(".")
        try:
            schema = str(torch._C._get_schema(base, overload))
        except Exception as e:  # noqa: BLE001 - report whatever torch says
            schema = f"<no schema: {e}>"
        dump = torch._C._dispatch_dump(name)
        # Kernel lines: "CPU: registered at ...", "CompositeExplicitAutograd[alias]: registered at ...".
        keys = sorted({m.group(1) for m in re.finditer(r"^(\w+)(?:\[alias\])?: registered at", dump, re.M)}
                      - {"debug"})
        ops[name] = {"schema": schema, "keys": keys}
    return ops


def execute(torch, case):
    """Runs one case in this process: its outcome and outputs."""
    try:
        ns, _, rest = case["op"].partition("::")
        name, _, overload = rest.partition(".")
        packet = getattr(getattr(torch.ops, ns), name)
        op = getattr(packet, overload or "default")
        args, kwargs = call_args(torch, op._schema, case.get("inputs") or [])
        result = op(*args, **kwargs)
        rets = op._schema.returns
        results = [] if len(rets) == 0 else [result] if len(rets) == 1 else list(result)
        return {"outcome": "ok", "outputs": [describe(torch, x) for x in results]}
    except Exception as e:  # noqa: BLE001 - any failure is the outcome
        return {"outcome": "error", "error": f"{type(e).__name__}: {e}".splitlines()[0][:500],
                "error_type": type(e).__name__, "error_message": str(e)[:2000]}


def run_case(torch, case, timeout, isolate):
    """Runs one case, in a forked child with a time limit when `isolate`; returns its record."""
    rec = {"name": case.get("name"), "op": case.get("op")}
    if not isolate:
        rec.update(execute(torch, case))
        return rec
    r, w = os.pipe()
    pid = confined_fork.fork()
    if pid == 0:
        os.close(r)
        os.write(w, json.dumps(execute(torch, case)).encode())
        os._exit(0)
    os.close(w)
    data, deadline = b"", time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            confined_fork.kill(pid)
            os.waitpid(pid, 0)
            os.close(r)
            rec["outcome"] = "timeout"
            return rec
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if not data:
        rec["outcome"] = "crash"
        rec["error"] = f"the process ended (status {status})"
        return rec
    rec.update(json.loads(data))
    return rec


def one(so, cases_path, timeout, out_path, isolate):
    import torch  # noqa: E402 - only in the child processes
    torch.set_num_threads(1)
    before = set(torch._C._dispatch_get_all_op_names())
    result = {"so": so, "load": {"ok": True}, "ops": {}, "cases": []}
    try:
        torch.ops.load_library(so)
    except Exception as e:  # noqa: BLE001
        result["load"] = {"ok": False, "error": f"{type(e).__name__}: {e}".splitlines()[0][:500]}
    result["ops"] = registrations(torch, before)
    if result["load"]["ok"] and cases_path:
        import yaml
        with open(cases_path) as f:
            doc = yaml.safe_load(f)
        for case in doc.get("cases") or []:
            rec = run_case(torch, case, timeout, isolate)
            expect = case.get("expect") or {}
            if "error" in expect:
                if rec["outcome"] != "error":
                    rec["expectation"] = f"the case file expects an error, real torch: {rec['outcome']}"
            elif "outputs" in expect and rec["outcome"] == "ok":
                whys = [check_expectation(torch, o, s) for o, s in zip(rec["outputs"], expect["outputs"])]
                whys = [f"output {i} {w}" for i, w in enumerate(whys) if w]
                if whys:
                    rec["expectation"] = "; ".join(whys)
            result["cases"].append(rec)
    with open(out_path, "w") as f:
        json.dump(result, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest")
    ap.add_argument("--out")
    ap.add_argument("--one", nargs=5, metavar=("SO", "CASES", "TIMEOUT", "OUT", "ISOLATE"))
    a = ap.parse_args()
    if a.one:
        so, cases, timeout, out, isolate = a.one
        one(so, None if cases == "-" else cases, float(timeout), out, isolate == "1")
        return 0
    with open(a.manifest) as f:
        manifest = json.load(f)
    timeout = float(manifest.get("timeout", 10))
    base = os.path.dirname(os.path.abspath(a.manifest))  # manifest paths are relative to it
    def load_and_run(i, ext):
        out = f"{a.out}.{i}.json"
        env = dict(os.environ, **{k: os.path.join(base, v) for k, v in ext.get("env", {}).items()})
        so = os.path.join(base, ext["so"])
        cases = os.path.join(base, ext["cases"]) if ext.get("cases") else "-"
        # Extensions whose kernels may crash or hang run each case in a forked child;
        # forking a process with torch loaded costs ~0.1 s, so sound ones run in place.
        isolate = "1" if ext.get("isolate", True) else "0"
        cmd = [sys.executable, __file__, "--one", so, cases, str(timeout), out, isolate]
        t0 = time.monotonic()
        try:
            # Loading gets the per-case limit plus torch's import time; the cases run in children.
            p = subprocess.run(cmd, env=env, timeout=20 + timeout * (1 + ext.get("case_count", 0)),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if os.path.exists(out):
                with open(out) as f:
                    result = json.load(f)
                os.unlink(out)
            else:
                why = "crash" if p.returncode < 0 or p.returncode else "exit"
                result = {"so": ext["so"], "load": {"ok": False, "outcome": why,
                          "error": f"the process loading it ended with status {p.returncode}: "
                                   + (p.stderr.strip().splitlines() or [""])[-1][:300]},
                          "ops": {}, "cases": []}
        except subprocess.TimeoutExpired:
            result = {"so": ext["so"], "load": {"ok": False, "outcome": "timeout",
                      "error": "loading did not finish in time"}, "ops": {}, "cases": []}
        log(f"  real torch: {os.path.basename(ext['so'])} ({time.monotonic() - t0:.1f}s)")
        return result

    # Each extension runs in its own process with one torch thread: JOBS of
    # them at once fill the cores (CI's time), and the results keep the
    # manifest's order whatever finishes first.
    jobs = max(1, int(os.environ.get("JOBS") or os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(load_and_run, range(len(manifest["extensions"])), manifest["extensions"]))
    with open(a.out, "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
