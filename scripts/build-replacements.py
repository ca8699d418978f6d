#!/usr/bin/env python3
"""Derives rules/api/replacements_derived.yaml: the legacy -> stable
replacements that follow from PyTorch's own files, so they are never typed in.

  scripts/build-replacements.py [--check] [--native-functions YAML] [--legacy-include DIR]

Reads:
  rules/api/stable_cxx_apis.tsv   the stable C++ API and the release of each name
                                  (scripts/build-cxx-rules.sh, from the real stable headers)
  rules/api/headeronly_cxx.tsv    the c10:: entities the header-only headers define
                                  (scripts/headeronly-cxx.py, from the same headers)
  native_functions.yaml           ATen's operators and their variants (function/method),
                                  from Debian's newest python3-torch (scripts/fetch-torch.sh)
  torch/types.h                   the legacy torch::kInt32-style dtype aliases, from the
                                  legacy headers (Debian bookworm's libtorch-dev, /usr/include)

Writes one entry per legacy spelling of:
  - every ScalarType, Layout, MemoryFormat and DeviceType enumerator and constant
    (c10::kFloat, at::kFloat, torch::kFloat32, at::ScalarType::Float, ...);
  - every torch::stable::Tensor method under at::Tensor / at::TensorBase (same method);
  - every torch::stable op of ops.h that ATen has as a function (at::X, torch::X) or a
    method (x.X(...) -> torch::stable::X(x, ...));
  - every THO_DISPATCH_* macro under its AT_DISPATCH_* name;
  - every ATen function without a stable op that has a generated C shim
    (aoti_torch_<device>_<op>, rules/api/stable_c_functions.tsv), with its release;
  - every standard name the real headers re-export at namespace scope of c10, at or
    torch (`using std::optional;` in torch/types.h: torch::optional is std::optional).
rules/api/replacements.yaml (hand-written: idioms, notes) is read first and wins
where both name an API. --check compares instead of writing (exit 1 on a
difference): the test that keeps the committed file honest.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "rules/api/replacements_derived.yaml")


def read_tsv(path, header=None):
    """Rows as dicts; the first non-comment line is the header unless given."""
    rows = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if header is None:
            header = cols
            continue
        rows.append(dict(zip(header, cols)))
    return rows


def release(since):
    return "2.9" if since.startswith("<=") else since


def native_ops(path):
    """{op base name: set of variants} from native_functions.yaml (no YAML library needed:
    the file's '- func:' and 'variants:' lines are all this reads), and every operator
    as (name, overload) ("" when it has none)."""
    ops = {}
    overloads = []
    current = None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"- func: ([A-Za-z0-9_]+)(\.[A-Za-z0-9_]+)?\(", line)
        if m:
            current = m.group(1)
            overloads.append((current, (m.group(2) or ".")[1:]))
            ops.setdefault(current, set()).add("function")  # the default when no variants line
            continue
        m = re.match(r"\s+variants:\s*(.*)", line)
        if m and current:
            variants = {v.strip() for v in m.group(1).split(",")}
            if "function" not in variants and ops[current] == {"function"}:
                ops[current] = set()
            ops[current] |= variants
    if len(ops) < 1000:
        sys.exit(f"torchabi: {path}: only {len(ops)} operators: not ATen's native_functions.yaml")
    return ops, overloads


def dtype_aliases(types_h):
    """torch::kInt32 -> 'Int' (the ScalarType enumerator), following alias chains."""
    text = open(types_h, encoding="utf-8").read()
    direct = dict(re.findall(r"constexpr auto (k\w+) = (?:at::|c10::)?(k\w+);", text))
    out = {}
    for alias in direct:
        target, seen = direct[alias], set()
        while target in direct and target not in seen:
            seen.add(target)
            target = direct[target]
        out[alias] = target[1:]  # at::kInt -> "Int"
    return out


def accessor_members(header):
    """{class: member names} of the accessor classes in the real
    torch/headeronly/core/TensorAccessor.h: the header-only aliases
    (HeaderOnlyTensorAccessor, ...) are these detail:: classes, so their members
    are not in stable_cxx_apis.tsv."""
    text = open(header, encoding="utf-8").read()
    out = {}
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"\bclass (\w*Accessor\w*)\b[^;{]*\{", text)]
    for i, (at, cls) in enumerate(starts):
        body = text[at:starts[i + 1][0] if i + 1 < len(starts) else len(text)]
        names = set(re.findall(r"C10_(?:HOST_DEVICE|HOST|DEVICE)\s+[^;{}()]*?\b(\w+|operator\[\])\s*\(", body))
        # Not the constructors, nor the members for the class's own use (bounds_check_).
        out.setdefault(cls, set()).update(n for n in names if n != cls and not n.endswith("_"))
    return out


def entry(legacy, kind, replacement, since, fix, style=None, header=None, note=None):
    e = {"legacy": sorted(set(legacy)), "kind": kind, "replacement": replacement, "since": since, "fix": fix}
    if style:
        e["style"] = style
    if header:
        e["header"] = header
    if note:
        e["note"] = note
    return e


def derive(stable, headeronly, ops, aliases, accessors):
    by_name = {r["name"]: r for r in stable}
    out = []
    # ---- accessor members: x[i], a.size(0) keep their spelling on the header-only accessors ----
    for cls in sorted(accessors):
        stable_cls = by_name.get(f"torch::headeronly::HeaderOnly{cls}")
        if not stable_cls:
            continue
        for meth in sorted(accessors[cls]):
            # No `since`: the members are not indexed apart (stable_cxx_apis.tsv has the alias);
            # the accessor type's own entry carries the release.
            # A base's member is also called through the derived accessor, and the
            # legacy headers may declare it there (1.13's TensorAccessor<T, 1>).
            derived = cls[:-len("Base")] if cls.endswith("Base") else None
            legacy = [f"at::{cls}::{meth}"]
            if derived in accessors and meth not in accessors[derived]:
                legacy.append(f"at::{derived}::{meth}")
            e = entry(legacy, "method", f"{stable_cls['name']}::{meth}", "", "safe",
                      style="same-method", header=stable_cls["header"],
                      note=f"The call is unchanged on a {stable_cls['name']} ({release(stable_cls['since'])}).")
            del e["since"]
            out.append(e)
    # ---- enumerations: every enumerator under every legacy spelling ------------
    for enum in ("ScalarType", "Layout", "MemoryFormat", "DeviceType"):
        stable_type = by_name.get(f"torch::headeronly::{enum}")
        if not stable_type:
            continue
        since, header = release(stable_type["since"]), stable_type["header"]
        names = sorted(r["name"].rsplit("::", 1)[1] for r in headeronly
                       if r["kind"] == "enumerator" and r["name"].startswith(f"c10::{enum}::"))
        for n in names:
            repl = f"torch::headeronly::{enum}::{n}"
            out.append(entry([f"c10::{enum}::{n}", f"at::{enum}::{n}", f"torch::{enum}::{n}"], "enumerator", repl,
                             since, "safe", header=header))
            if enum == "ScalarType":
                # c10::kFloat (DEFINE_CONSTANT in the legacy ScalarType.h) and its at:: spelling;
                # the header-only headers have the enumerator only.
                # torch::kHalf too: torch/types.h brings namespace at into torch.
                legacy = [f"c10::k{n}", f"at::k{n}", f"torch::k{n}"] + [f"torch::{a}" for a, t in aliases.items() if t == n]
                out.append(entry(legacy, "variable", repl, since, "safe", header=header,
                                 note="The header-only headers have the enumerator, not the k-constant."))
    # DeviceType and Layout constants the header-only headers do define (kCPU, kStrided).
    for r in stable:
        m = re.fullmatch(r"torch::headeronly::(k\w+)", r["name"])
        if m and r["kind"] == "variable":
            k = m.group(1)
            out.append(entry([f"c10::{k}", f"at::{k}", f"torch::{k}"], "variable", r["name"], release(r["since"]),
                             "safe", header=r["header"]))
    # ---- torch::stable::Tensor methods: unchanged on a stable tensor ------------
    for r in stable:
        m = re.fullmatch(r"torch::stable::Tensor::(\w+|operator=)", r["name"])
        if m and r["kind"] == "method":
            meth = m.group(1)
            out.append(entry([f"at::Tensor::{meth}", f"at::TensorBase::{meth}"], "method", r["name"],
                             release(r["since"]), "safe", style="same-method", header=r["header"],
                             note="The call is unchanged once the receiver is a torch::stable::Tensor."))
    # ---- header-only twins of legacy classes: members spelled the same --------------
    # c10::ArrayRef::vec -> HeaderOnlyArrayRef::vec, c10::Device::index -> torch::stable::Device::index:
    # the call is unchanged once the object's type is the stable class.
    twins = {"c10::HeaderOnlyArrayRef": ["c10::ArrayRef", "at::ArrayRef"],
             "torch::stable::Device": ["c10::Device", "at::Device", "torch::Device"]}
    for r in stable:
        cls, _, meth = r["name"].rpartition("::")
        if cls in twins and r["kind"] == "method" and re.fullmatch(r"\w+|operator\[\]|operator==|operator!=", meth):
            out.append(entry([f"{l}::{meth}" for l in twins[cls]], "method", r["name"], release(r["since"]), "safe",
                             style="same-method", header=r["header"],
                             note=f"The call is unchanged once the object is a {cls}."))
    # ---- accessors: torch::headeronly::HeaderOnly<X> of TensorAccessor.h is at::<X> ------
    # with sizes()/strides() returning IntHeaderOnlyArrayRef (the same template parameters).
    for r in stable:
        m = re.fullmatch(r"torch::headeronly::(HeaderOnly(\w*Accessor\w*)|(\w+PtrTraits))", r["name"])
        if m and r["kind"] == "type" and r["header"].endswith("core/TensorAccessor.h"):
            legacy = m.group(2) or m.group(3)
            out.append(entry([f"at::{legacy}", f"torch::{legacy}"], "type", r["name"], release(r["since"]),
                             "unsafe" if m.group(2) else "safe", header=r["header"],
                             note=None if m.group(3) else
                             "Same template parameters; sizes() and strides() return IntHeaderOnlyArrayRef."))
    # ---- THO_ macros with an AT_ twin (THO_DISPATCH_SWITCH for AT_DISPATCH_SWITCH) ----
    for r in stable:
        m = re.fullmatch(r"THO_(DISPATCH\w*)", r["name"])
        if m and r["kind"] == "macro" and not m.group(1).endswith("_TMPL"):
            out.append(entry([f"AT_{m.group(1)}"], "macro", r["name"], release(r["since"]), "unsafe", header=r["header"],
                             note=f"{r['name']} is {'AT_' + m.group(1)} of the header-only headers: it takes a "
                                  "torch::headeronly::ScalarType."))
    # ---- stable ops that ATen has ------------------------------------------------
    for r in stable:
        m = re.fullmatch(r"torch::stable::(\w+)", r["name"])
        if not m or r["kind"] != "function" or not r["header"].endswith("/ops.h"):
            continue
        op = m.group(1)
        variants = ops.get(op, set())
        since = release(r["since"])
        if "function" in variants:
            out.append(entry([f"at::{op}", f"torch::{op}"], "function", r["name"], since, "unsafe", header=r["header"],
                             note=f"torch::stable::{op} takes stable types; arguments the legacy call "
                                  "passed as TensorOptions or Scalar become separate values."))
        # torch::stable::sum_out: ATen spells every out= overload of sum as at::sum_out.
        base = op[:-len("_out")] if op.endswith("_out") else None
        if base and "function" not in variants and "function" in ops.get(base, set()):
            out.append(entry([f"at::{op}", f"torch::{op}"], "function", r["name"], since, "unsafe", header=r["header"],
                             note=f"torch::stable::{op} takes the output first, like at::{op}; the other arguments "
                                  "are stable types."))
        if "method" in variants:
            out.append(entry([f"at::Tensor::{op}"], "method", r["name"], since, "unsafe", style="method-to-function",
                             header=r["header"],
                             note=f"Call torch::stable::{op}(tensor, ...) from torch/csrc/stable/ops.h instead of the method."))
    return out


# The standard header of each std name a torch namespace re-exports.
STD_HEADERS = {"optional": "<optional>", "nullopt": "<optional>", "nullopt_t": "<optional>",
               "make_optional": "<optional>", "bad_optional_access": "<optional>", "string": "<string>",
               "to_string": "<string>", "stoi": "<string>", "stod": "<string>", "stoll": "<string>",
               "stoull": "<string>", "hardware_destructive_interference_size": "<new>",
               "string_view": "<string_view>", "variant": "<variant>", "get": "<variant>",
               "holds_alternative": "<variant>", "visit": "<variant>", "in_place": "<utility>",
               "in_place_t": "<utility>"}


def std_reexports(include, headers):
    """{(namespace, name)}: `using std::NAME;` at namespace scope of c10, at or
    torch (not inside a class or function, not in a nested namespace) in the
    real headers under `include` (a directory walked, or one file)."""
    out = set()
    files = []
    for h in headers:
        path = os.path.join(include, h)
        if os.path.isdir(path):
            files += [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if f.endswith(".h")]
        elif os.path.exists(path):
            files.append(path)
    token = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|\bnamespace\s+([\w:]+)\s*\{|'
                       r'\busing\s+(?:::)?std::(\w+)\s*;|[{}]', re.S)
    for path in sorted(files):
        text = open(path, encoding="utf-8", errors="replace").read()
        stack = []  # one entry per open brace: the namespace it opens, or None
        for m in token.finditer(text):
            t = m.group(0)
            if t.startswith("/") or t.startswith('"'):
                continue
            if m.group(1):
                stack.append(m.group(1))
            elif t == "{":
                stack.append(None)
            elif t == "}":
                if stack:
                    stack.pop()
            elif m.group(2) and stack and None not in stack:
                ns = "::".join(stack)
                if ns in ("c10", "at", "torch") and m.group(2) in STD_HEADERS:
                    out.add((ns, m.group(2)))
    return out


def derive_std_reexports(reexports, taken):
    out = []
    for ns, name in sorted(reexports):
        legacy = f"{ns}::{name}"
        if legacy in taken:
            continue
        kind = "type" if name in ("optional", "nullopt_t", "bad_optional_access", "string", "string_view",
                                  "variant", "in_place_t") else "variable" if name in (
            "nullopt", "in_place", "hardware_destructive_interference_size") else "function"
        out.append(entry([legacy], kind, f"std::{name}", None, "safe", header=STD_HEADERS[name],
                         note=f"{legacy} is std::{name} (a using-declaration of the torch headers): name the standard one."))
    return out


SHIM = re.compile(r"aoti_torch_(aten|cpu|cuda|mps|xpu)_(\w+)")
DEVICE_ORDER = ("aten", "cpu", "cuda", "xpu", "mps")  # aten: any device


def minor(since):
    """'<=2.9' -> '2.9', '2.10.0' -> '2.10': the release, as the other entries spell it."""
    return ".".join(release(since).split(".")[:2])


def derive_shims(shims, ops, overloads, taken):
    """ATen functions that have no torch::stable op but a generated C shim
    (aoti_torch_<device>_<op>[_<overload>] in generated/c_shim_<device>.h): the shim,
    with its release, and every other device's shim in the note. `taken`: legacy names
    that already have an entry."""
    # The shim's suffix is the operator's name and overload joined by "_" (fill_.Scalar -> fill__Scalar).
    by_suffix = {(op + "_" + ov if ov else op): (op, ov) for op, ov in overloads}
    found = {}  # (op, out?) -> [(device, shim row, overload)]
    for r in shims:
        m = SHIM.fullmatch(r["name"])
        if not m or r["kind"] != "function" or "/generated/" not in r["header"]:
            continue
        device, suffix = m.groups()
        if suffix not in by_suffix:
            continue
        op, ov = by_suffix[suffix]
        found.setdefault((op, ov == "out" or ov.endswith("_out")), []).append((device, r, ov))
    out = []
    for (op, is_out), rows in sorted(found.items()):
        variants = ops.get(op, set())
        legacy = []
        if "function" in variants:
            legacy += [f"at::{op}_out", f"at::{op}_outf"] if is_out else [f"at::{op}", f"torch::{op}"]
        if "method" in variants and not is_out:
            legacy.append(f"at::Tensor::{op}")
        legacy = [l for l in legacy if l not in taken]
        if not legacy:
            continue
        # The overload a plain call most often means: none, else Tensor (x.add(y)), else the first.
        rows.sort(key=lambda x: (DEVICE_ORDER.index(x[0]), x[2] not in ("", "Tensor"), x[2] != "", x[2]))
        device, chosen, ov = rows[0]
        others = [r["name"] for d, r, _ in rows[1:]]
        where = "any device" if device == "aten" else f"{device.upper()} tensors"
        note = (f"No torch::stable op; the generated C shim {chosen['name']} ({chosen['header']}, {where}) "
                f"runs aten::{op}{'.' + ov if ov else ''}: pass t.get() handles and check its error code "
                "with TORCH_ERROR_CODE_CHECK.")
        if others:
            note += " Also: " + ", ".join(others[:6]) + (f" and {len(others) - 6} more" if len(others) > 6 else "") + "."
        if device != "aten":
            note += (f" For any device, aoti_torch_call_dispatcher(\"aten::{op}\", \"{ov}\", stack) "
                     "runs the dispatcher with a StableIValue stack.")
        functions = [l for l in legacy if not l.startswith("at::Tensor::")]
        methods = [l for l in legacy if l.startswith("at::Tensor::")]
        if functions:
            out.append(entry(functions, "function", chosen["name"], minor(chosen["since"]), "no",
                             header=chosen["header"], note=note))
        if methods:
            out.append(entry(methods, "method", chosen["name"], minor(chosen["since"]), "no",
                             style="method-to-function", header=chosen["header"], note=note))
        taken.update(legacy)
    return out


def check_alternatives(stable):
    """Each alternative's `use` must exist with the release it claims, and be
    older than what it stands in for (both read from the stable headers' table)."""
    since = {r["name"]: release(r["since"]) for r in stable}
    vt = lambda v: tuple(int(x) for x in v.split("."))
    bad = []
    text = open(os.path.join(ROOT, "rules/api/alternatives.yaml"), encoding="utf-8").read()
    for m in re.finditer(r"- for: (\S+)\n\s+use: (\S+)\n\s+since: \"([0-9.]+)\"", text):
        for_api, use, claimed = m.groups()
        if use not in since:
            bad.append(f"{use}: not in stable_cxx_apis.tsv")
        elif since[use] != claimed:
            bad.append(f"{use}: since {claimed}, but the stable headers say {since[use]}")
        elif for_api not in since:
            bad.append(f"{for_api}: not in stable_cxx_apis.tsv")
        elif vt(since[for_api]) <= vt(claimed):
            bad.append(f"{use} ({claimed}) is no older than {for_api} ({since[for_api]})")
    if not re.search(r"- for: ", text):
        bad.append("no entries")
    return bad


def hand_written_legacy():
    """The legacy names rules/api/replacements.yaml already gives a replacement."""
    text = open(os.path.join(ROOT, "rules/api/replacements.yaml"), encoding="utf-8").read()
    names = set()
    for m in re.finditer(r"legacy:\s*\[([^\]]*)\]", text):
        names |= {n.strip().strip('"').strip("'") for n in m.group(1).split(",") if n.strip()}
    for m in re.finditer(r"legacy:\s*\"?([A-Za-z_:][\w:]*)\"?\s*$", text, re.M):
        names.add(m.group(1))
    return names


def dump(entries, sources):
    lines = ["# Generated by scripts/build-replacements.py; do not edit by hand.",
             "# Legacy -> stable replacements derived from PyTorch's own files:"]
    lines += [f"#   {s}" for s in sources]
    lines += ["# rules/api/replacements.yaml (hand-written) is read first and wins where both name an API.",
              "", "apis:"]
    for e in entries:
        lines.append("  - legacy: [" + ", ".join(f'"{l}"' for l in e["legacy"]) + "]")
        for key in ("kind", "replacement", "header", "since", "fix", "style", "note"):
            if e.get(key) is not None:
                value = e[key].replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'    {key}: "{value}"')
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--native-functions", default=os.path.join(
        ROOT, "build/torch-sid/root/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml"))
    ap.add_argument("--legacy-include", default="/usr/include")
    ap.add_argument("--stable-include", default=os.path.join(ROOT, "build/torch-sid/root/usr/include"),
                    help="the real stable headers (torch/headeronly/core/TensorAccessor.h)")
    a = ap.parse_args()
    types_h = os.path.join(a.legacy_include, "torch/csrc/api/include/torch/types.h")
    accessor_h = os.path.join(a.stable_include, "torch/headeronly/core/TensorAccessor.h")
    for p in (a.native_functions, types_h, accessor_h):
        if not os.path.exists(p):
            print(f"torchabi: {p}: missing (scripts/fetch-torch.sh; libtorch-dev)", file=sys.stderr)
            return 77
    # Its header is a comment line ("# name since kind header").
    stable = read_tsv(os.path.join(ROOT, "rules/api/stable_cxx_apis.tsv"), ["name", "since", "kind", "header"])
    headeronly = read_tsv(os.path.join(ROOT, "rules/api/headeronly_cxx.tsv"))
    shims = read_tsv(os.path.join(ROOT, "rules/api/stable_c_functions.tsv"),
                     ["name", "since", "kind", "dlopen_export", "header", "prototype", "backend", "library",
                      "build_condition"])
    ops, overloads = native_ops(a.native_functions)
    entries = derive(stable, headeronly, ops, dtype_aliases(types_h), accessor_members(accessor_h))
    taken = {l for e in entries for l in e["legacy"]} | hand_written_legacy()
    entries += derive_shims(shims, ops, overloads, taken)
    entries += derive_std_reexports(
        std_reexports(a.stable_include, ["c10", "ATen/core", "torch/csrc/api/include/torch/types.h"]), taken)
    text = dump(entries,
                ["rules/api/stable_cxx_apis.tsv, rules/api/headeronly_cxx.tsv (the real stable headers)",
                 "rules/api/stable_c_functions.tsv (the real generated C shims: aoti_torch_<device>_<op>)",
                 "ATen's native_functions.yaml (Debian's python3-torch)",
                 "torch/headeronly/core/TensorAccessor.h (the real stable headers: the accessors' members)",
                 "torch/csrc/api/include/torch/types.h (the legacy headers: torch::kInt32 and friends)",
                 "c10/**, ATen/core/**, torch/types.h (the real 2.14 headers: `using std::X;` in c10, at, torch)"])
    if a.check:
        bad = check_alternatives(stable)
        for b in bad:
            print(f"torchabi: rules/api/alternatives.yaml: {b}", file=sys.stderr)
        if bad:
            return 1
        old = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if old != text:
            print(f"torchabi: {OUT} differs from what the files give: run scripts/build-replacements.py", file=sys.stderr)
            return 1
        print(f"{OUT}: up to date ({text.count('  - legacy:')} entries)")
        return 0
    open(OUT, "w", encoding="utf-8").write(text)
    print(f"{OUT}: {text.count('  - legacy:')} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
