#!/usr/bin/env python3
"""Checks rules/runtime/schema_types.tsv against real PyTorch (inside the chroot).

  schema_types.py --tsv schema_types.tsv --probe types_probe.so [--work DIR]

For every type name of the table:
  torch_type  torch._C.parse_schema's reading of `f(T x) -> ()`: the kind of
              the argument's real_type, or "unparsed" when torch rejects it;
  stable      whether libtorch converts the type for a stable kernel: the
              probe extension (fixtures/runtime/types_probe.cpp) defines
              types_probe::arg_<i>(T x) -> () and ::ret_<i>() -> T; the op is
              called with a value of T where Python can make one, else its
              return is read back when Python cannot make one or its call
              fails otherwise; "Not yet supported conversion" means no
              conversion ("-"), success or a crash on the probe's null
              handle means libtorch converted it.
Prints one line per disagreement and 'schema types: N agree, M disagree';
exits 1 on any disagreement. --out writes what real torch did (JSON).

  schema_types.py --observed OBS.json --probe types_probe.so --torchabi BIN --work DIR

(outside the chroot, no torch needed) runs `torchabi run` on the same probe
and checks that its reference runtime converts exactly the types real torch
converted: an op whose type real torch did not convert must get
runtime-unconvertible-type, every other op must not.
"""
import argparse
import json
import os
import subprocess
import sys

NO_CONVERSION = "Not yet supported conversion"


def python_value(kind):
    """A value of a torch type kind, or None when Python cannot make one."""
    makers = {
        "TensorType": lambda: torch.zeros(1),
        "IntType": lambda: 1,
        "SymIntType": lambda: 1,
        "FloatType": lambda: 0.5,
        "BoolType": lambda: True,
        "SymBoolType": lambda: True,
        "StringType": lambda: "x",
        "ComplexType": lambda: 1j,
        "NumberType": lambda: 1,
        "ScalarTypeType": lambda: torch.float32,
        "LayoutType": lambda: torch.strided,
        "MemoryFormatType": lambda: torch.contiguous_format,
        "DeviceObjType": lambda: torch.device("cpu"),
        "GeneratorType": lambda: torch.Generator(),
        "StorageType": lambda: torch.zeros(1).untyped_storage(),
        "AnyType": lambda: 1,
        "NoneType": lambda: None,
    }
    make = makers.get(kind)
    return (make(),) if make else None


def converted_in_child(call):
    """Runs call() in a fork: "1" it returned, "0" the conversion error, "e"
    another error (Python could not make the argument), "1" a crash (libtorch
    dereferenced the probe's null handle: it converted)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            call()
            verdict = b"1"
        except Exception as e:  # noqa: BLE001 - any error but the conversion one means converted
            verdict = b"0" if NO_CONVERSION in str(e) else b"e"
        os.write(w, verdict)
        os._exit(0)
    os.close(w)
    data = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    return {b"0": "-", b"e": "?"}.get(data, "converted")


def compare_torchabi(a):
    with open(a.observed) as f:
        observed = json.load(f)
    parsed = [s for s, (t, _) in observed.items() if t != "unparsed"]
    listing = os.path.join(a.work, "types_probe.txt")
    with open(listing, "w") as f:
        f.write("\n".join(parsed) + "\n")
    out = os.path.join(a.work, "types_probe.torchabi.json")
    p = subprocess.run([a.torchabi, "run", a.probe, "--format", "json", "-o", out],
                       env=dict(os.environ, TORCHABI_TYPES_PROBE=listing), capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print(f"  torchabi could not run the types probe: {p.stderr.strip()}")
        return 1
    with open(out) as f:
        report = json.load(f)
    typed = [f for f in report["findings"] if f["rule"] == "runtime-unconvertible-type"]
    unconvertible = {f["location"].get("symbol") for f in typed if f["severity"] != "note"}
    # A note: libtorch converts the type, the reference runtime cannot make
    # such a value (Generator) and says so; not a disagreement, but listed.
    not_run = {f["location"].get("symbol") for f in typed if f["severity"] == "note"}
    agree = disagree = 0
    for i, spelling in enumerate(parsed):
        for op in (f"types_probe::arg_{i}", f"types_probe::ret_{i}"):
            torch_converts = observed[spelling][1] != "-"
            if op in not_run and torch_converts:
                print(f"  {op} ({spelling}): converted by real torch; not run by torchabi's runtime (reported as a note)")
                continue
            if torch_converts == (op not in unconvertible):
                agree += 1
                continue
            disagree += 1
            print(f"  {op} ({spelling}): real torch {'converts' if torch_converts else 'does not convert'} it, "
                  f"torchabi's runtime {'does not' if torch_converts else 'does'}")
    print(f"schema type conversions in torchabi's runtime: {agree} agree, {disagree} disagree")
    return 1 if disagree else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsv")
    ap.add_argument("--probe", required=True)
    ap.add_argument("--work", default="/tmp")
    ap.add_argument("--out")
    ap.add_argument("--observed")
    ap.add_argument("--torchabi")
    a = ap.parse_args()
    if a.observed:
        return compare_torchabi(a)
    import torch  # only inside the chroot
    globals()["torch"] = torch

    rows = []
    with open(a.tsv) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "spelling":
                continue
            rows.append(cols)

    observed = {}
    parsed = []
    for spelling, _, _ in rows:
        try:
            s = torch._C.parse_schema(f"types_probe::f({spelling} x) -> ()")
            observed[spelling] = [s.arguments[0].real_type.kind()]
            parsed.append(spelling)
        except RuntimeError:
            observed[spelling] = ["unparsed", "-"]

    listing = os.path.join(a.work, "types_probe.txt")
    with open(listing, "w") as f:
        f.write("\n".join(parsed) + "\n")
    os.environ["TORCHABI_TYPES_PROBE"] = listing
    torch.ops.load_library(a.probe)
    for i, spelling in enumerate(parsed):
        kind = observed[spelling][0]
        value = python_value(kind)
        verdict = "?"
        if value is not None:
            op = getattr(torch.ops.types_probe, f"arg_{i}")
            verdict = converted_in_child(lambda: op(value[0]))
        if verdict == "?":
            op = getattr(torch.ops.types_probe, f"ret_{i}")
            verdict = converted_in_child(lambda: op())
        observed[spelling].append(verdict)

    agree = disagree = 0
    for spelling, torch_type, stable in rows:
        got_type, got_stable = observed[spelling]
        want_stable = "-" if stable == "-" else "converted"
        if (got_type, got_stable) == (torch_type, want_stable):
            agree += 1
            continue
        disagree += 1
        print(f"  schema type {spelling}: the table says {torch_type}/{stable}, real torch {torch.__version__} "
              f"gives {got_type}/{got_stable}")
    print(f"schema types: {agree} agree, {disagree} disagree")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(observed, f, indent=1)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
