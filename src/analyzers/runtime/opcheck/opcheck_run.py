"""PyTorch's own torch.library.opcheck on every op of one extension, in the
interpreter of a real torch (run by `torchabi run EXT.so --torch PYTHON`,
confined like a build script).

Usage: python -c "$(this file)" EXT.so
Prints one JSON line: {"torch": version, "ops": [{"op", "inputs", "attempts",
"accepted", "results": {utility: "SUCCESS" | message}}]} or {"error": why}.

Inputs follow the reference runtime's smoke calls (analyzers/runtime/driver/
values.cpp: every Tensor 2x3 with distinct values, ints 1, floats 0.5, bools
False, optionals None, lists one element, defaults where the schema has
them; float32, then float64, int64, int32, bool until the kernel accepts),
then what the kernel's own check message asks for: a dtype it names, the
rank a "Dimension out of range" or "must be 3D" implies, a size it must be
divisible by. Each op runs in a forked child, so a crashing kernel costs
that op only.
"""
import json
import os
import re
import signal
import sys

UTILS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
LADDER = ["float32", "float64", "int64", "int32", "bool"]
MAX_ATTEMPTS = 12
DTYPE_WORDS = {
    "int32": "int32", "int": "int32", "int64": "int64", "long": "int64", "float32": "float32", "float": "float32",
    "float64": "float64", "double": "float64", "bool": "bool", "half": "float16", "float16": "float16",
    "bfloat16": "bfloat16", "uint8": "uint8", "byte": "uint8", "int8": "int8", "char": "int8", "int16": "int16",
    "short": "int16",
}
DTYPE_PATTERN = re.compile(
    r"(?:must be|expected|should be|requires?|only supports?|dtype (?:must be|of)|to be)\s+(?:of\s+)?"
    r"(?:a\s+|an\s+)?(?:torch\.|at::k|k|c10::ScalarType::)?"
    r"(int32|int64|long|float32|float64|double|float16|half|bfloat16|bool|uint8|byte|int8|int16|short|int|float)\b",
    re.IGNORECASE)
RANGE_PATTERN = re.compile(r"Dimension out of range \(expected to be in range of \[-?(\d+), (\d+)\], but got (-?\d+)\)")
RANK_PATTERNS = [
    re.compile(r"(\d)[- ]?D\b"),
    re.compile(r"(\d)[- ]dimensional", re.IGNORECASE),
    re.compile(r"\bdim(?:\(\))?\s*==\s*(\d)"),
    re.compile(r"\bndim(?:\(\))?\s*==\s*(\d)"),
    re.compile(r"(\d) dimensions", re.IGNORECASE),
]
DIVISIBLE_PATTERN = re.compile(r"divisible by (\d+)", re.IGNORECASE)


class Plan:
    """How to build one op's inputs: a dtype and shape for every tensor, or for one argument."""

    def __init__(self, dtype):
        self.dtype = dtype
        self.shape = [2, 3]
        self.per_arg = {}  # argument name -> {"dtype": ..., "shape": ...}

    def key(self):
        return json.dumps([self.dtype, self.shape, self.per_arg], sort_keys=True)

    def of(self, name):
        spec = {"dtype": self.dtype, "shape": list(self.shape)}
        spec.update(self.per_arg.get(name, {}))
        return spec


def tensor(torch, spec, position):
    n = 1
    for s in spec["shape"]:
        n *= s
    dtype = getattr(torch, spec["dtype"])
    if spec["dtype"] == "bool":
        return torch.tensor([(i + position) % 2 == 1 for i in range(n)], dtype=dtype).reshape(spec["shape"])
    values = [0.5 * i - 1 + position for i in range(n)]
    if not dtype.is_floating_point:
        values = [abs(int(v)) % 7 + 1 for v in values]
    return torch.tensor(values).to(dtype).reshape(spec["shape"])


def value(torch, typ, plan, name, position):
    kind = typ.kind()
    if kind == "TensorType":
        return tensor(torch, plan.of(name), position)
    if kind in ("IntType", "SymIntType"):
        return 1
    if kind == "FloatType":
        return 0.5
    if kind == "BoolType":
        return False
    if kind == "StringType":
        return "constant"
    if kind == "ScalarTypeType":
        return getattr(torch, plan.of(name)["dtype"])
    if kind == "LayoutType":
        return torch.strided
    if kind == "MemoryFormatType":
        return torch.contiguous_format
    if kind == "DeviceObjType":
        return torch.device("cpu")
    if kind == "NumberType":
        return 1
    if kind == "OptionalType":
        return None
    if kind == "ListType":
        return [value(torch, typ.getElementType(), plan, name, position)]
    raise ValueError("no input for an argument of type " + str(typ))


def arguments(torch, schema, plan):
    args, kwargs = [], {}
    for position, a in enumerate(schema.arguments):
        if a.has_default_value():
            continue
        v = value(torch, a.real_type, plan, a.name, position)
        if a.kwarg_only:
            kwargs[a.name] = v
        else:
            args.append(v)
    return args, kwargs


def describe(args, kwargs):
    def one(v):
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            return "%s%s" % (str(v.dtype).replace("torch.", ""), list(v.shape))
        if isinstance(v, list):
            return "[" + ", ".join(one(x) for x in v) + "]"
        return repr(v)
    parts = [one(a) for a in args] + ["%s=%s" % (k, one(v)) for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def named_argument(message, schema):
    for a in schema.arguments:
        if re.search(r"\b%s\b" % re.escape(a.name), message):
            return a.name
    return None


def adjust(plan, message, schema):
    """A new plan following what the kernel's message asks for, or None."""
    import copy
    new = copy.deepcopy(plan)
    target = named_argument(message, schema)
    changes = new.per_arg.setdefault(target, {}) if target else None

    def put(field, v):
        if changes is not None:
            changes[field] = v
        elif field == "dtype":
            new.dtype = v
        else:
            new.shape = v

    m = DTYPE_PATTERN.search(message)
    if m:
        put("dtype", DTYPE_WORDS[m.group(1).lower()])
        return new if new.key() != plan.key() else None
    m = RANGE_PATTERN.search(message)
    if m:
        got = abs(int(m.group(3)))
        rank = got + 1 if int(m.group(3)) >= 0 else got
        put("shape", ([2, 3, 4, 5, 6, 7] * 2)[:max(rank, 1)])
        return new if new.key() != plan.key() else None
    for p in RANK_PATTERNS:
        m = p.search(message)
        if m and 0 < int(m.group(1)) <= 6:
            put("shape", [2, 3, 4, 5, 6, 7][:int(m.group(1))])
            return new if new.key() != plan.key() else None
    m = DIVISIBLE_PATTERN.search(message)
    if m:
        d = int(m.group(1))
        shape = list((changes or {}).get("shape", new.shape))
        shape[-1] = d
        put("shape", shape)
        return new if new.key() != plan.key() else None
    return None


def first_line(e):
    text = "%s: %s" % (type(e).__name__, e)
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0][:600] if lines else type(e).__name__


def find_inputs(torch, op, schema):
    """(args, kwargs, attempts): inputs the kernel accepts, or None and why each try failed."""
    attempts, tried = [], set()
    queue = [Plan(d) for d in LADDER]
    while queue and len(attempts) < MAX_ATTEMPTS:
        plan = queue.pop(0)
        if plan.key() in tried:
            continue
        tried.add(plan.key())
        try:
            args, kwargs = arguments(torch, schema, plan)
        except ValueError as e:
            return None, None, [str(e)]
        try:
            op(*args, **kwargs)
            return args, kwargs, attempts
        except Exception as e:  # the kernel's own check: read what it asks for
            message = first_line(e)
            attempts.append(describe(args, kwargs) + ": " + message)
            better = adjust(plan, str(e), schema)
            if better is not None:
                queue.insert(0, better)
    return None, None, attempts


def check_op(torch, name):
    ns, rest = name.split("::", 1)
    op_name, _, overload = rest.partition(".")
    op = getattr(getattr(getattr(torch.ops, ns), op_name), overload or "default")
    schema = op._schema
    out = {"op": name, "schema": str(schema), "results": {}}
    args, kwargs, attempts = find_inputs(torch, op, schema)
    out["attempts"] = attempts
    out["accepted"] = args is not None
    if args is None:
        return out
    out["inputs"] = describe(args, kwargs)
    for util in UTILS:
        try:
            torch.library.opcheck(op, args, kwargs, test_utils=(util,))
            out["results"][util] = "SUCCESS"
        except Exception as e:
            cause = e.__cause__ or e
            out["results"][util] = first_line(cause)
    return out


def in_child(fn, timeout):
    """fn() in a forked child; its JSON value, or an error record."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = json.dumps(fn())
        except BaseException as e:  # noqa: B902 - everything is reported, nothing escapes the child
            data = json.dumps({"crash": first_line(e)})
        os.write(w, data.encode())
        os._exit(0)
    os.close(w)
    signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
    signal.alarm(timeout)
    chunks = []
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    signal.alarm(0)
    os.close(r)
    if chunks:
        return json.loads(b"".join(chunks).decode())
    if os.WIFSIGNALED(status):
        return {"crash": "killed by signal %d" % os.WTERMSIG(status)}
    return {"crash": "exited with status %d" % os.WEXITSTATUS(status)}


def main(ext):
    try:
        import torch
    except Exception as e:
        print(json.dumps({"error": "torch cannot be imported: " + first_line(e)}))
        return
    if not hasattr(torch.library, "opcheck"):
        print(json.dumps({"error": "torch %s has no torch.library.opcheck (2.4 and later do)" % torch.__version__}))
        return
    before = set(torch._C._dispatch_get_all_op_names())
    try:
        torch.ops.load_library(ext)
    except Exception as e:
        print(json.dumps({"error": "the extension does not load: " + first_line(e)}))
        return
    names = sorted(set(torch._C._dispatch_get_all_op_names()) - before)
    ops = []
    for name in names:
        record = in_child(lambda: check_op(torch, name), 120)
        record.setdefault("op", name)
        ops.append(record)
    print(json.dumps({"torch": torch.__version__, "ops": ops}))


if __name__ == "__main__":
    main(sys.argv[1])
