#!/usr/bin/env python3
"""Writes the case file that runs every ATen op of rules/runtime/aten_ops.tsv
through fixtures/runtime/aten_probe.cpp, for scripts/test-against-torch.sh.

  gen_aten_cases.py ATEN_OPS_TSV OUT.yaml

Inputs cover every dtype the runtime computes with, 0-dim, 0-size, broadcast
and non-contiguous shapes, mixed-dtype promotion, and argument errors; values
are small integers (quarters for floating types) so every dtype holds them
exactly. No expectations: real PyTorch's answers become them. The generator
fails naming any op of the tsv it has no recipe for, so a new header op cannot
go untested.
"""
import random
import re
import sys

import yaml

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "uint16", "uint32", "uint64"]
INTS = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
rng = random.Random(20240601)


def value(dtype, nonzero=False, lo=None, hi=None):
    while True:
        if dtype == "bool":
            v = rng.choice([0, 1])
        elif dtype.startswith("uint"):
            v = rng.randint(lo if lo is not None else 0, hi if hi is not None else 9)
        elif dtype.startswith("int"):
            v = rng.randint(lo if lo is not None else -6, hi if hi is not None else 6)
        else:
            v = rng.randint((lo if lo is not None else -4) * 4, (hi if hi is not None else 4) * 4) / 4
        if not nonzero or v != 0:
            return v


def T(dtype, shape, contiguous=True, **kw):
    n = 1
    for s in shape:
        n *= s
    spec = {"dtype": dtype, "shape": list(shape), "values": [value(dtype, **kw) for _ in range(n)]}
    if not contiguous:
        spec["contiguous"] = False
    return spec


cases = []
names = set()


def case(op, name, inputs):
    full = f"{op}/{name}"
    assert full not in names, full
    names.add(full)
    cases.append({"name": full, "op": op, "inputs": inputs})


SHAPES = [([], True), ([0], True), ([5], True), ([2, 3], True), ([3, 0], True), ([2, 3, 4], True),
          ([2, 3], False), ([2, 3, 4], False)]


def each_input(dtypes=DTYPES, shapes=SHAPES):
    for d in dtypes:
        for shape, c in shapes:
            yield f"{d}/{'x'.join(map(str, shape)) or 'scalar'}{'' if c else '-t'}", T(d, shape, c)


# ---- recipes: op -> function(op) adding cases ----

def unary(op, arg="self", extra=None):
    for n, t in each_input():
        case(op, n, {arg: t, **(extra or {})})


def binary(op, a="self", b="other", nonzero_other=False):
    kw = {"nonzero": True} if nonzero_other else {}
    for d in DTYPES:
        case(op, f"{d}/2x3", {a: T(d, [2, 3]), b: T(d, [2, 3], **kw)})
        case(op, f"{d}/2x3-t", {a: T(d, [2, 3], False), b: T(d, [2, 3], **kw)})
        case(op, f"{d}/both-t", {a: T(d, [2, 3], False), b: T(d, [2, 3], False, **kw)})
        case(op, f"{d}/scalar", {a: T(d, []), b: T(d, [], **kw)})
        case(op, f"{d}/0", {a: T(d, [0]), b: T(d, [0])})
        case(op, f"{d}/broadcast", {a: T(d, [2, 3]), b: T(d, [3], **kw)})
        case(op, f"{d}/outer", {a: T(d, [3, 1]), b: T(d, [1, 4], **kw)})
        case(op, f"{d}/broadcast-t", {a: T(d, [3], **kw), b: T(d, [4, 3], False, **kw)})
    mixed = [("int8", "uint8"), ("bool", "int64"), ("uint8", "int16"), ("float32", "float64"),
             ("float16", "bfloat16"), ("int32", "float16"), ("uint16", "int64"), ("uint16", "float32"),
             ("bool", "float32"), ("int64", "int32")]
    for x, y in mixed:
        case(op, f"{x}+{y}", {a: T(x, [2, 3]), b: T(y, [2, 3], **kw)})
        case(op, f"{x}+0dim-{y}", {a: T(x, [2, 3]), b: T(y, [], **kw)})
        case(op, f"0dim-{x}+{y}", {a: T(x, []), b: T(y, [2, 3], **kw)})
    case(op, "error/shape", {a: T("float32", [2, 3]), b: T("float32", [4])})


def shifts(op):
    binary(op)
    for d in ["uint8", "int8", "int16", "int32", "int64"]:
        amounts = [-1, 0, 1, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65]
        case(op, f"{d}/amounts", {"self": {"dtype": d, "shape": [13], "values": [-3 if not d.startswith("u") else 200] * 13},
                                  "other": {"dtype": d, "shape": [13], "values": [a if not (d == "uint8" and a < 0) else 255 for a in amounts]}})


def floor_divide(op):
    binary(op, nonzero_other=True)
    for d in INTS + ["bool"]:
        case(op, f"{d}/by-zero", {"self": T(d, [3]), "other": {"dtype": d, "shape": [3], "values": [1, 0, 2]}})
    for d in FLOATS:
        case(op, f"{d}/by-zero", {"self": {"dtype": d, "shape": [3], "values": [1.5, -2, 0]},
                                  "other": {"dtype": d, "shape": [3], "values": [0, 0, 0]}})
        case(op, f"{d}/signs", {"self": {"dtype": d, "shape": [6], "values": [7, -7, 7, -7, 0.5, -0.5]},
                                "other": {"dtype": d, "shape": [6], "values": [2, 2, -2, -2, 0.25, 0.75]}})
    for d in ["int8", "int32", "int64"]:
        case(op, f"{d}/signs", {"self": {"dtype": d, "shape": [4], "values": [7, -7, 7, -7]},
                                "other": {"dtype": d, "shape": [4], "values": [2, 2, -2, -2]}})


def foreach(op):
    for d in DTYPES:
        case(op, d, {"self": [T(d, [2, 3]), T(d, [4])], "other": [T(d, [2, 3]), T(d, [4])]})
    case(op, "mixed", {"self": [T("int64", [3]), T("float32", [2])], "other": [T("float32", [3]), T("int64", [2])]})
    case(op, "broadcast", {"self": [T("float32", [2, 3])], "other": [T("float32", [3])]})
    case(op, "error/lengths", {"self": [T("float32", [3])], "other": [T("float32", [3]), T("float32", [3])]})
    case(op, "error/empty", {"self": [], "other": []})


def fill_tensor(op):
    for d in DTYPES:
        case(op, f"{d}", {"self": T(d, [2, 3]), "value": {"dtype": "float32", "shape": [], "values": [2.5]}})
        case(op, f"{d}-t", {"self": T(d, [2, 3], False), "value": {"dtype": "int64", "shape": [], "values": [3]}})
    case(op, "error/1d", {"self": T("float32", [2]), "value": T("float32", [1])})


def copy_(op):
    for d in DTYPES:
        for s in ["bool", "int64", "float32", "float16", "uint8"]:
            case(op, f"{s}-to-{d}", {"self": T(d, [2, 3]), "src": T(s, [2, 3], lo=0, hi=3)})
        case(op, f"{d}/broadcast", {"self": T(d, [2, 3], False), "src": T(d, [3])})
    case(op, "error/shape", {"self": T("float32", [2, 3]), "src": T("float32", [4])})


def factory_sizes(op, size_arg="size", extra=None):
    for d in [None] + DTYPES:
        for size in [[], [0], [2, 3], [2, 0, 3]]:
            inputs = {size_arg: size, **(extra or {})}
            if d:
                inputs["dtype"] = d
            case(op, f"{d or 'default'}/{'x'.join(map(str, size)) or 'scalar'}", inputs)


def empty_mf(op):
    factory_sizes(op)
    case(op, "channels_last", {"size": [2, 3, 2, 2], "memory_format": "channels_last"})
    case(op, "channels_last_3d", {"size": [2, 3, 2, 2, 2], "memory_format": "channels_last_3d"})
    case(op, "error/channels_last-rank", {"size": [2, 3], "memory_format": "channels_last"})
    case(op, "error/negative", {"size": [2, -1]})


def empty_strided(op):
    for d in ["float32", "int64", "bool", "float16"]:
        case(op, f"{d}/t", {"size": [2, 3], "stride": [1, 2], "dtype": d})
        case(op, f"{d}/gaps", {"size": [2, 3], "stride": [6, 2], "dtype": d})
    case(op, "error/len", {"size": [2, 3], "stride": [1]})


def like(op):
    for n, t in each_input(DTYPES, [([2, 3], True), ([2, 3], False), ([], True), ([3, 0], True), ([2, 3, 4], False)]):
        case(op, n, {"self": t})
    base = T("float32", [2, 3], False)
    for d in ["int64", "bool", "float16"]:
        case(op, f"dtype-{d}", {"self": base, "dtype": d})
    for mf in ["contiguous_format", "preserve_format"]:
        case(op, f"mf-{mf}", {"self": base, "memory_format": mf})
    case(op, "channels_last", {"self": T("float32", [2, 3, 2, 2]), "memory_format": "channels_last"})
    # A sliced (non-dense) input: preserve keeps its dim order with dense strides.
    case(op, "sliced", {"self": T("float32", [4, 3], False)})


def new_like(op):
    for d in DTYPES:
        case(op, f"{d}/2x3", {"self": T(d, [3], False), "size": [2, 3]})
        case(op, f"{d}/scalar", {"self": T(d, [2, 3], False), "size": []})
    for d in ["int64", "bool", "float64"]:
        case(op, f"dtype-{d}", {"self": T("float32", [2]), "size": [3, 0], "dtype": d})
    case(op, "error/negative", {"self": T("float32", [2]), "size": [-2]})


def clone(op):
    unary(op)
    for mf in ["contiguous_format", "preserve_format"]:
        case(op, f"mf-{mf}/t", {"self": T("float32", [2, 3], False), "memory_format": mf})
    case(op, "channels_last", {"self": T("float32", [2, 3, 2, 2]), "memory_format": "channels_last"})


def contiguous(op):
    unary(op)
    case(op, "channels_last", {"self": T("float32", [2, 3, 2, 2]), "memory_format": "channels_last"})
    case(op, "error/preserve", {"self": T("float32", [2, 3]), "memory_format": "preserve_format"})


def to(op):
    for src in DTYPES:
        for dst in ["bool", "uint8", "int32", "int64", "float16", "float32", "float64", "uint64"]:
            case(op, f"{src}-to-{dst}", {"self": T(src, [2, 3], False, lo=0, hi=3), "dtype": dst})
    case(op, "same", {"self": T("float32", [2, 3], False)})
    case(op, "same/copy", {"self": T("float32", [2, 3], False), "copy": True})
    case(op, "same/contiguous_format", {"self": T("float32", [2, 3], False), "memory_format": "contiguous_format"})
    case(op, "int/contiguous_format", {"self": T("float32", [2, 3], False), "dtype": "int64",
                                        "memory_format": "contiguous_format"})
    case(op, "channels_last", {"self": T("float32", [2, 3, 2, 2]), "memory_format": "channels_last"})
    case(op, "cpu", {"self": T("float32", [2, 3]), "device": "cpu"})


def transpose(op):
    for n, t in each_input(["float32", "int64", "bool"]):
        dims = len(t["shape"])
        case(op, n + "/0,-1", {"self": t, "dim0": 0, "dim1": -1})
    case(op, "error/dim", {"self": T("float32", [2, 3]), "dim0": 0, "dim1": 2})


def t(op):
    for n, x in each_input(["float32", "int8"], SHAPES):
        case(op, n, {"self": x})


def permute(op):
    case(op, "3d", {"self": T("float32", [2, 3, 4]), "dims": [2, 0, 1]})
    case(op, "3d-t", {"self": T("int64", [2, 3, 4], False), "dims": [1, 2, 0]})
    case(op, "negative", {"self": T("float32", [2, 3]), "dims": [-1, 0]})
    case(op, "scalar", {"self": T("float32", []), "dims": []})
    case(op, "error/dup", {"self": T("float32", [2, 3]), "dims": [0, 0]})
    case(op, "error/len", {"self": T("float32", [2, 3]), "dims": [0]})


def flatten(op):
    for n, x in each_input(["float32", "bool"]):
        case(op, n, {"self": x})
    case(op, "middle", {"self": T("float32", [2, 3, 4]), "start_dim": 1, "end_dim": 2})
    case(op, "middle-t", {"self": T("float32", [2, 3, 4], False), "start_dim": 1, "end_dim": 2})
    case(op, "same", {"self": T("float32", [2, 3, 4], False), "start_dim": 1, "end_dim": 1})
    case(op, "error/order", {"self": T("float32", [2, 3, 4]), "start_dim": 2, "end_dim": 1})


def unsqueeze(op):
    for n, x in each_input(["float32"]):
        case(op, n + "/0", {"self": x, "dim": 0})
        case(op, n + "/-1", {"self": x, "dim": -1})
    case(op, "error/dim", {"self": T("float32", [2]), "dim": 3})


def squeeze(op):
    case(op, "one", {"self": T("float32", [2, 1, 3]), "dim": 1})
    case(op, "not-one", {"self": T("float32", [2, 3]), "dim": 1})
    case(op, "scalar", {"self": T("float32", []), "dim": 0})
    case(op, "t", {"self": T("float32", [1, 3], False), "dim": 0})
    case(op, "error/dim", {"self": T("float32", [2, 3]), "dim": 2})


def select(op):
    case(op, "row", {"self": T("float32", [2, 3]), "dim": 0, "index": 1})
    case(op, "col-t", {"self": T("int64", [2, 3], False), "dim": 1, "index": -1})
    case(op, "error/index", {"self": T("float32", [2, 3]), "dim": 0, "index": 2})
    case(op, "error/scalar", {"self": T("float32", []), "dim": 0, "index": 0})


def narrow(op):
    case(op, "rows", {"self": T("float32", [4, 3]), "dim": 0, "start": 1, "length": 2})
    case(op, "cols-t", {"self": T("int32", [2, 3], False), "dim": 1, "start": -2, "length": 2})
    case(op, "empty", {"self": T("float32", [4, 3]), "dim": 0, "start": 4, "length": 0})
    case(op, "error/long", {"self": T("float32", [4, 3]), "dim": 0, "start": 3, "length": 2})


def slice_(op):
    case(op, "default", {"self": T("float32", [5, 2])})
    case(op, "step", {"self": T("float32", [5, 2]), "dim": 0, "start": 1, "end": 5, "step": 2})
    case(op, "negative", {"self": T("int64", [2, 5], False), "dim": 1, "start": -3, "end": -1})
    case(op, "clamped", {"self": T("float32", [5]), "start": 3, "end": 100})
    case(op, "error/step", {"self": T("float32", [5]), "step": 0})


def view(op):
    case(op, "flat", {"self": T("float32", [2, 3]), "size": [6]})
    case(op, "infer", {"self": T("float32", [2, 3, 4]), "size": [-1, 4]})
    case(op, "t-ok", {"self": T("float32", [2, 3], False), "size": [3, 2, 1]})
    case(op, "error/t", {"self": T("float32", [2, 3], False), "size": [6]})
    case(op, "empty", {"self": T("float32", [3, 0]), "size": [0, 5]})
    case(op, "scalar", {"self": T("float32", []), "size": [1, 1]})
    case(op, "error/size", {"self": T("float32", [2, 3]), "size": [4]})


def view_dtype(op):
    pairs = [("float32", "int32"), ("int64", "float64"), ("float32", "uint8"), ("uint8", "float32"),
             ("int16", "float16"), ("float16", "bfloat16"), ("int8", "bool"), ("float64", "int16"),
             ("int32", "int64"), ("uint8", "int64")]
    for x, y in pairs:
        case(op, f"{x}-as-{y}", {"self": T(x, [2, 8], lo=0, hi=1), "dtype": y})
        case(op, f"{x}-as-{y}-t", {"self": T(x, [8, 2], False, lo=0, hi=1), "dtype": y})
    case(op, "error/scalar", {"self": T("float32", []), "dtype": "uint8"})
    case(op, "error/divisible", {"self": T("uint8", [2, 3]), "dtype": "float32"})
    case(op, "same-size-scalar", {"self": T("float32", []), "dtype": "int32"})


def reshape(op):
    case(op, "view", {"self": T("float32", [2, 3]), "shape": [3, 2]})
    case(op, "copy", {"self": T("float32", [2, 3], False), "shape": [6]})
    case(op, "infer", {"self": T("int64", [2, 3, 4]), "shape": [4, -1]})
    case(op, "empty", {"self": T("float32", [0, 3]), "shape": [3, 0, 2]})
    case(op, "error/size", {"self": T("float32", [2, 3]), "shape": [5]})


def expand(op):
    case(op, "row", {"self": T("float32", [3]), "size": [2, 3]})
    case(op, "keep", {"self": T("float32", [2, 1]), "size": [-1, 4]})
    case(op, "t", {"self": T("float32", [1, 3], False), "size": [2, 2, 3]})
    case(op, "error/size", {"self": T("float32", [2, 3]), "size": [3, 3]})


def pad(op):
    for d in DTYPES:
        case(op, f"{d}/constant", {"self": T(d, [2, 3]), "pad": [1, 2]})
    for mode in ["constant", "reflect", "replicate", "circular"]:
        for d in ["float32", "int64", "bool", "uint16"]:
            case(op, f"{mode}/{d}", {"self": T(d, [2, 3]), "pad": [1, 1], "mode": mode})
        case(op, f"{mode}/2d", {"self": T("float32", [1, 3, 3]), "pad": [1, 1, 2, 0], "mode": mode})
        case(op, f"{mode}/negative", {"self": T("float32", [2, 4]), "pad": [-1, 1], "mode": mode})
        case(op, f"{mode}/t", {"self": T("float32", [2, 3], False), "pad": [2, 0], "mode": mode})
        case(op, f"{mode}/big", {"self": T("float32", [2, 3]), "pad": [3, 0], "mode": mode})
    case(op, "constant/value", {"self": T("float32", [2, 3]), "pad": [1, 1, 1, 1], "value": 1.5})
    case(op, "constant/value-int", {"self": T("int8", [2]), "pad": [1, 0], "value": 300.0})
    case(op, "constant/3d-on-1d", {"self": T("float32", [3]), "pad": [1, 1]})
    case(op, "reflect/value", {"self": T("float32", [2, 3]), "pad": [1, 1], "mode": "reflect", "value": 2.0})
    case(op, "reflect/value0", {"self": T("float32", [2, 3]), "pad": [1, 1], "mode": "reflect", "value": 0.0})
    case(op, "reflect/1d", {"self": T("float32", [3]), "pad": [1, 1], "mode": "reflect"})
    case(op, "error/odd", {"self": T("float32", [2, 3]), "pad": [1]})
    case(op, "error/long", {"self": T("float32", [3]), "pad": [1, 1, 1, 1]})
    case(op, "error/mode", {"self": T("float32", [2, 3]), "pad": [1, 1], "mode": "wrap"})
    case(op, "error/negative-size", {"self": T("float32", [2, 3]), "pad": [-2, -2]})


def reductions(op, dim_arg="dim", keep="keepdim", dtype_arg=None):
    for n, x in each_input():
        case(op, n + "/all", {"self": x, dim_arg: []})
        if x["shape"]:
            case(op, n + "/0", {"self": x, dim_arg: [0]})
            case(op, n + "/-1-keep", {"self": x, dim_arg: [-1], keep: True})
    case(op, "two-dims", {"self": T("float32", [2, 3, 4]), dim_arg: [0, 2]})
    case(op, "error/dup", {"self": T("float32", [2, 3]), dim_arg: [0, -2]})
    case(op, "error/dim", {"self": T("float32", [2, 3]), dim_arg: [2]})
    if dtype_arg:
        for src, dst in [("int32", "float32"), ("float32", "int32"), ("float32", "float16"), ("bool", "int8"),
                         ("float64", "float32"), ("uint8", "uint8")]:
            case(op, f"dtype/{src}-{dst}", {"self": T(src, [2, 3]), dim_arg: [1], dtype_arg: dst})
        case(op, "none", {"self": T("float32", [2, 3]), dim_arg: None})


def sum_out(op):
    for d in ["float32", "int64", "bool", "float16"]:
        case(op, f"{d}/same", {"self": T(d, [2, 3]), "dim": [1], "out": T("float32" if d != "int64" else "int64", [2])})
        case(op, f"{d}/resize", {"self": T(d, [2, 3]), "dim": [0], "out": T("float64", [5])})
        case(op, f"{d}/resize-empty", {"self": T(d, [2, 3]), "dim": None, "out": T("int64", [0])})
    case(op, "float-into-int", {"self": {"dtype": "float32", "shape": [2], "values": [0.5, 0.75]}, "dim": [0],
                                "out": T("int32", [])})
    case(op, "out-t", {"self": T("float32", [3, 2]), "dim": [], "keepdim": True, "out": T("float32", [1, 1], False)})
    case(op, "dtype-matches", {"self": T("int32", [2, 3]), "dim": [1], "dtype": "float64", "out": T("float64", [2])})
    case(op, "error/dtype", {"self": T("int32", [2, 3]), "dim": [1], "dtype": "float32", "out": T("float64", [2])})


def index_select(op):
    for d in DTYPES:
        case(op, f"{d}/rows", {"self": T(d, [3, 2]), "dim": 0, "index": {"dtype": "int64", "shape": [4], "values": [2, 0, 2, 1]}})
    case(op, "cols-t-int32", {"self": T("float32", [2, 3], False), "dim": -1,
                              "index": {"dtype": "int32", "shape": [2], "values": [2, 1]}})
    case(op, "empty-index", {"self": T("float32", [3, 2]), "dim": 0, "index": {"dtype": "int64", "shape": [0], "values": []}})
    case(op, "0dim-index", {"self": T("float32", [3, 2]), "dim": 1, "index": {"dtype": "int64", "shape": [], "values": [1]}})
    case(op, "scalar-self", {"self": T("float32", []), "dim": 0, "index": {"dtype": "int64", "shape": [1], "values": [0]}})
    case(op, "error/range", {"self": T("float32", [3]), "dim": 0, "index": {"dtype": "int64", "shape": [1], "values": [3]}})
    case(op, "error/negative", {"self": T("float32", [3]), "dim": 0, "index": {"dtype": "int64", "shape": [1], "values": [-1]}})
    case(op, "error/float-index", {"self": T("float32", [3]), "dim": 0, "index": T("float32", [1], lo=0, hi=0)})
    case(op, "error/2d-index", {"self": T("float32", [3]), "dim": 0, "index": {"dtype": "int64", "shape": [1, 1], "values": [0]}})


def matmul_like(op, a="self", b="other"):
    shapes = [([2, 3], [3, 4]), ([3], [3]), ([3], [3, 2]), ([2, 3], [3]), ([2, 2, 3], [2, 3, 4]), ([2, 2, 3], [3, 4]),
              ([3], [2, 3, 4]), ([2, 3], [1, 3, 2]), ([2, 1, 2, 3], [3, 3, 2]), ([0, 3], [3, 2]), ([2, 0], [0, 2])]
    for d in DTYPES:
        case(op, f"{d}/2x3@3x4", {a: T(d, [2, 3]), b: T(d, [3, 4])})
    for x, y in shapes:
        case(op, f"{x}@{y}", {a: T("float32", x), b: T("float32", y)})
    case(op, "t@t", {a: T("float64", [3, 2], False), b: T("float64", [2, 4], False)})
    case(op, "error/dtypes", {a: T("float32", [2, 3]), b: T("float64", [3, 2])})
    case(op, "error/shapes", {a: T("float32", [2, 3]), b: T("float32", [2, 3])})


def mm(op):
    for d in DTYPES:
        case(op, d, {"self": T(d, [2, 3]), "mat2": T(d, [3, 4])})
    case(op, "t", {"self": T("float32", [3, 2], False), "mat2": T("float32", [2, 2], False)})
    case(op, "empty-k", {"self": T("float32", [2, 0]), "mat2": T("float32", [0, 3])})
    case(op, "error/1d", {"self": T("float32", [3]), "mat2": T("float32", [3, 2])})
    case(op, "error/shapes", {"self": T("float32", [2, 3]), "mat2": T("float32", [2, 3])})


def bmm(op):
    for d in ["float32", "int64", "float16", "bool"]:
        case(op, d, {"self": T(d, [2, 2, 3]), "mat2": T(d, [2, 3, 2])})
    case(op, "empty-batch", {"self": T("float32", [0, 2, 3]), "mat2": T("float32", [0, 3, 2])})
    case(op, "error/batch", {"self": T("float32", [2, 2, 3]), "mat2": T("float32", [3, 3, 2])})


def cat(op):
    for d in DTYPES:
        case(op, d, {"tensors": [T(d, [2, 3]), T(d, [1, 3])]})
    case(op, "dim1", {"tensors": [T("float32", [2, 3]), T("float32", [2, 1], False)], "dim": 1})
    case(op, "promote", {"tensors": [T("int32", [2]), T("float16", [3]), T("bool", [1])]})
    case(op, "legacy-empty", {"tensors": [T("float32", [2, 3]), T("int64", [0])]})
    case(op, "all-t", {"tensors": [T("float32", [2, 3], False), T("float32", [2, 3], False)], "dim": -1})
    case(op, "channels_last", {"tensors": [T("float32", [1, 2, 2, 2]), T("float32", [1, 2, 2, 2])]})
    case(op, "error/scalar", {"tensors": [T("float32", [])]})
    case(op, "error/sizes", {"tensors": [T("float32", [2, 3]), T("float32", [2, 2])]})
    case(op, "error/empty", {"tensors": []})


def fill_scalar(op):
    values = [2.0, 2.7, -1.0, 300.0, 1e6, 1e10, float("inf"), float("nan"), 0.5]
    for d in DTYPES:
        for v in values:
            case(op, f"{d}/{v}", {"self": T(d, [2]), "value": v})
    case(op, "t", {"self": T("float32", [2, 3], False), "value": 1.25})


def full(op):
    for d in [None] + DTYPES:
        inputs = {"size": [2, 3], "fill_value": 3.0}
        if d:
            inputs["dtype"] = d
        case(op, d or "default", inputs)
    case(op, "scalar", {"size": [], "fill_value": -1.5})
    case(op, "empty", {"size": [0, 2], "fill_value": 1.0})
    case(op, "error/overflow", {"size": [2], "fill_value": 300.0, "dtype": "int8"})


def subtract(op):
    for d in DTYPES:
        case(op, d, {"self": T(d, [2, 3]), "other": T(d, [2, 3])})
        case(op, f"{d}/alpha", {"self": T(d, [2, 3]), "other": T(d, [3]), "alpha": 0.5})
    case(op, "mixed", {"self": T("float16", [2, 3]), "other": T("float32", [])})
    case(op, "t", {"self": T("float32", [2, 3], False), "other": T("float32", [2, 3], False)})


def is_pinned(op):
    for n, x in each_input(["float32", "int64"]):
        case(op, n, {"self": x})


RECIPES = {
    "_foreach_mul.List": foreach, "_foreach_mul_.List": foreach, "abs": unary, "neg": unary, "exp": unary,
    "amax": reductions, "bitwise_and.Tensor": binary, "bitwise_or.Tensor": binary,
    "bitwise_left_shift.Tensor": shifts, "bitwise_right_shift.Tensor": shifts, "bmm": bmm, "cat": cat,
    "clone": clone, "contiguous": contiguous, "copy_": copy_, "div.Tensor": binary,
    "empty.memory_format": empty_mf, "empty_like": like, "empty_strided": empty_strided, "expand": expand,
    "fill_.Tensor": fill_tensor, "flatten.using_ints": flatten, "floor_divide": floor_divide,
    "index_select": index_select, "is_pinned": is_pinned, "matmul": matmul_like, "mm": mm, "mul.Tensor": binary,
    "narrow": narrow, "new_empty": new_like, "new_zeros": new_like, "ones_like": like, "pad": pad,
    "permute": permute, "reshape": reshape, "select.int": select, "slice.Tensor": slice_, "squeeze.dim": squeeze,
    "sum.IntList_out": sum_out, "sum.dim_IntList": lambda op: reductions(op, dtype_arg="dtype"), "t": t,
    "to.dtype_layout": to, "transpose.int": transpose, "unsqueeze": unsqueeze, "view": view,
    "view.dtype": view_dtype, "zero_": unary, "zeros_like": like,
}
# Ops with a Scalar argument cannot cross the dispatcher: aten_probe_c wraps their C shim function.
C_SHIM = {"aoti_torch_aten_fill__Scalar": ("fill_", fill_scalar), "aoti_torch_aten_full": ("full", full),
          "aoti_torch_aten_subtract_Tensor": ("subtract", subtract), "aoti_torch_aten_narrow": ("narrow", narrow),
          "aoti_torch_aten_new_empty": ("new_empty", new_like), "aoti_torch_aten_new_zeros": ("new_zeros", new_like),
          "aoti_torch_aten_pad": ("pad", pad), "aoti_torch_aten_amax": ("amax", reductions)}


def main():
    tsv, out = sys.argv[1], sys.argv[2]
    missing = []
    for line in open(tsv):
        if not line.strip() or line.startswith("#"):
            continue
        schema, used_by = line.rstrip("\n").split("\t")
        name = schema.split("(", 1)[0][len("aten::"):]
        shims = [s.strip() for s in used_by.split(";") if s.strip().startswith("aoti_torch_aten_")]
        for fn in shims:
            if fn not in C_SHIM:
                missing.append(fn)
                continue
            probe, recipe = C_SHIM[fn]
            recipe(f"aten_probe_c::{probe}")
        if re.search(r"\bScalar\b", schema):
            if not shims:
                missing.append(name + " (a Scalar argument and no C shim function)")
            continue
        if name not in RECIPES:
            missing.append(name)
            continue
        RECIPES[name](f"aten_probe::{name}")
    if missing:
        sys.exit("gen_aten_cases.py: no recipe for " + ", ".join(missing))
    with open(out, "w") as f:
        f.write("# Generated by scripts/against-torch/gen_aten_cases.py for aten_probe.so; no expectations:\n")
        f.write("# scripts/test-against-torch.sh takes real PyTorch's answers as them.\n")
        yaml.safe_dump({"cases": cases}, f, default_flow_style=None, sort_keys=False, width=200)
    print(f"{len(cases)} cases for {len({c['op'] for c in cases})} ops", file=sys.stderr)


if __name__ == "__main__":
    main()
