#!/usr/bin/env python3
"""Regenerates rules/api/stable_c_functions.tsv, the catalog of LibTorch's
stable C ABI, from a real PyTorch include tree.

  scripts/build-rules.py [--torch-include DIR] [--shared DIR | --no-shared] [-o OUT] [--keep-newer]

Source of truth: the C shim headers of --torch-include (default: the Debian
PyTorch that scripts/fetch-torch.sh unpacks, build/torch-sid/root/usr/include).
Every function declared with C linkage in torch/csrc/inductor/aoti_torch/c/*.h,
aoti_torch/generated/c_shim_*.h and torch/csrc/stable/c/*.h, and every type
they declare, gets a row: the release from the TORCH_FEATURE_VERSION guards
around it (unguarded: the '<=2.9' baseline), its header, its prototype on one
line, the backend and library that provide it and the build configuration it
needs (c_shim_headers.py reads the headers).

../shared/data/pytorch (or --shared) adds what headers cannot say: which
functions libtorch exports for dlopen users, and the header-only C++ helpers
the catalog also lists. Its release list must agree with the headers: every
disagreement is printed. Without a real include tree the catalog is built
from the shared data alone, as before.

The output is committed: torchabi ships its rules and needs neither input at
run time. Functions newer than rules/api/releases.yaml's `latest` are left out
(and printed) unless --keep-newer: add the release there first.
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import c_shim_headers as shim  # noqa: E402

root = pathlib.Path(__file__).resolve().parent.parent
COLUMNS = ["name", "since", "kind", "dlopen_export", "header", "prototype", "backend", "library", "build_condition"]

# Which library holds each backend's shim: CUDA and XPU have their own, MPS is
# built into libtorch_cpu on macOS (caffe2/CMakeLists.txt), the rest is libtorch_cpu.
LIBRARY = {"common": "libtorch_cpu", "aten": "libtorch_cpu", "cpu": "libtorch_cpu", "mps": "libtorch_cpu",
           "cuda": "libtorch_cuda", "xpu": "libtorch_xpu"}
# The build option a backend's shim needs, and back: a USE_X guard in a common
# header makes the declarations inside it X's.
BACKEND_OPTION = {"cuda": "USE_CUDA", "mps": "USE_MPS", "xpu": "USE_XPU"}
OPTION_BACKEND = {v: k for k, v in BACKEND_OPTION.items()}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--torch-include", default=str(root / "build/torch-sid/root/usr/include"),
                    help="a PyTorch include directory (default: %(default)s)")
    ap.add_argument("--shared", default=str(root.parent / "shared" / "data" / "pytorch"),
                    help="PyTorch reference data (default: %(default)s)")
    ap.add_argument("--no-shared", action="store_true", help="only what the headers say")
    ap.add_argument("-o", "--output", default=str(root / "rules" / "api" / "stable_c_functions.tsv"))
    ap.add_argument("--keep-newer", action="store_true",
                    help="also write functions newer than rules/api/releases.yaml knows")
    ap.add_argument("shared_positional", nargs="?", help=argparse.SUPPRESS)  # the old calling convention
    a = ap.parse_args()
    if a.shared_positional:
        a.shared = a.shared_positional
    return a


def release_bounds():
    """(baseline, latest) of rules/api/releases.yaml as (major, minor)."""
    text = (root / "rules" / "api" / "releases.yaml").read_text(encoding="utf-8")
    get = lambda key: tuple(int(x) for x in re.search(r'^%s:\s*"(\d+)\.(\d+)"' % key, text, re.M).groups())
    return get("baseline"), get("latest")


def label(version, baseline):
    """'<=2.9' for anything the baseline already has, else '2.12.0'."""
    if version[:2] <= baseline:
        return "<=%d.%d" % baseline
    return "%d.%d.%d" % version


def backend_of(header, name):
    m = re.search(r"(?:c_shim|shim)_(\w+)\.h$", header)
    if m and m.group(1) != "deprecated":
        return m.group(1)
    m = re.match(r"aoti_torch_(cpu|cuda|mps|xpu)_", name)
    return m.group(1) if m else "common"


# ---------------------------------------------------------------- from the headers

def from_headers(include_dir, baseline, notes):
    rows = {}
    for d in shim.read_shim(include_dir):
        if d.kind == "cxx-function":
            if d.exported:
                notes.append("%s: %s is exported with C++ linkage (a mangled symbol), not part of the C shim"
                             % (d.where, d.name))
            continue
        found = d.condition.analyse()
        if found is None:
            notes.append("%s: %s is behind a condition no build can meet; left out" % (d.where, d.name))
            continue
        since, until, config = found
        if d.split:
            notes.append("%s: parts of %s's declaration are in other #if branches than its name; its prototype "
                         "is written as if every branch were taken" % (d.where, d.name))
        terms = [t for t in config.split(" && ") if t] if " || " not in config else [config]
        backend = backend_of(d.header, d.name)
        for t in terms:
            backend = OPTION_BACKEND.get(t, backend)
        option = BACKEND_OPTION.get(backend)
        if option:  # the backend's own option first: "USE_XPU && AT_MKLDNN_ENABLED()"
            terms = [option] + [t for t in terms if t != option]
        if backend not in LIBRARY:
            notes.append("%s: backend '%s' of %s has no known library; assuming libtorch_%s"
                         % (d.where, backend, d.name, backend))
        if until is not None:
            notes.append("%s: %s is hidden again from TORCH_FEATURE_VERSION %d.%d.%d on (still listed: "
                         "libtorch keeps exporting what older targets use)" % ((d.where, d.name) + shim.version_of(until)))
        row = {"name": d.name, "since": shim.version_of(since), "kind": d.kind, "header": d.header,
               "prototype": d.prototype, "backend": backend,
               "library": LIBRARY.get(backend, "libtorch_" + backend), "build_condition": " && ".join(terms) or "-",
               "where": d.where}
        old = rows.get(d.name)
        if old is None:
            rows[d.name] = row
            continue
        # Declared again (another header, or the other branch of an #if): one
        # symbol, so the oldest declaration dates it; prototypes must agree.
        if old["kind"] == "function" and row["kind"] == "function" and old["prototype"] != row["prototype"]:
            notes.append("%s and %s declare %s differently: '%s' / '%s'"
                         % (old["where"], d.where, d.name, old["prototype"], row["prototype"]))
        if row["since"] < old["since"]:
            row["header"], row["prototype"] = old["header"], old["prototype"]
            rows[d.name] = dict(old, since=row["since"])
    for r in rows.values():
        r["since"] = label(r["since"], baseline)
    return rows


# ---------------------------------------------------------------- from shared/

def read_shared(data):
    versions = {}
    for line in (data / "shim_function_versions.txt").read_text().splitlines():
        m = re.match(r"^(\w+):\s*TORCH_VERSION_(\d+)_(\d+)_(\d+)\s*$", line)
        if m:
            versions[m[1]] = "%s.%s.%s" % (m[2], m[3], m[4])
    exports = set(re.findall(r"^\s*(\w+);", (data / "libtorch_stable_exports.syms").read_text(), re.M))
    exports -= {"local", "global"}
    listed = {}
    for line in (data / "stable_c_abi_functions.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, since, header, proto = line.split("\t")
        listed[name] = (since, header, proto)
    return versions, exports, listed


def kind_by_name(name, proto):
    if proto != "-":
        return "function"
    # Known only by name: handles and callback typedefs are types, the rest functions.
    return "type" if name[:1].isupper() or name.endswith("_t") else "function"


def from_shared(versions, listed, baseline):
    """The catalog as the shared data alone describes it (no headers at hand)."""
    rows = {}
    for name, (since, header, proto) in listed.items():
        if name in versions and since != "<=2.9" and versions[name] != since:
            sys.exit("%s: stable_c_abi_functions.tsv says %s, shim_function_versions.txt says %s"
                     % (name, since, versions[name]))
        rows[name] = {"since": since, "header": header, "prototype": proto}
    for name, ver in versions.items():
        rows.setdefault(name, {"since": ver, "header": "-", "prototype": "-"})
    for name, r in rows.items():
        r["name"], r["kind"] = name, kind_by_name(name, r["prototype"])
        header_only = r["header"].startswith("torch/headeronly/")
        r["backend"] = "-" if header_only else backend_of(r["header"], name)
        r["library"] = "-" if header_only else LIBRARY.get(r["backend"], "-")
        r["build_condition"] = BACKEND_OPTION.get(r["backend"], "-")
    return rows


def merge_shared(rows, versions, listed, headers_read, notes, disagreements):
    """Checks the headers' rows against the shared data and adds what only it
    knows: header-only C++ helpers (headers this script does not read)."""
    for name, r in sorted(rows.items()):
        want = versions.get(name, "<=2.9")
        if want != r["since"] and not (want == "<=2.9" and r["since"].startswith("<=")):
            disagreements.append("%s: headers say %s (%s), shim_function_versions.txt says %s"
                                 % (name, r["since"], r["where"], want))
        if name in listed:
            since, header, proto = listed[name]
            if since != r["since"] and not (since == "<=2.9" and r["since"].startswith("<=")):
                disagreements.append("%s: headers say %s, stable_c_abi_functions.tsv says %s" % (name, r["since"], since))
            if proto not in ("-", r["prototype"]):
                disagreements.append("%s: headers declare '%s', stable_c_abi_functions.tsv '%s'"
                                     % (name, r["prototype"], proto))
    extra = {}
    for name in sorted(set(listed) | set(versions)):
        if name in rows:
            continue
        since, header, proto = listed.get(name, (versions.get(name), "-", "-"))
        if header in headers_read or header == "-":
            # The shared data was taken from another PyTorch: the real tree
            # does not declare this, so its release there is unknown.
            notes.append("%s (%s in the shared data, header %s) is not declared in the real headers; left out"
                         % (name, versions.get(name, since), header))
            continue
        extra[name] = {"name": name, "since": versions.get(name, since), "kind": kind_by_name(name, proto),
                       "header": header, "prototype": proto, "backend": "-", "library": "-",
                       "build_condition": "-"}
    rows.update(extra)


def read_catalog(path):
    """The rows of an existing catalog (this script's output), name -> columns."""
    rows = {}
    if not path.is_file():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) == len(COLUMNS):
            rows[cols[0]] = dict(zip(COLUMNS, cols))
    return rows


# ---------------------------------------------------------------- main

def main():
    a = parse_args()
    baseline, latest = release_bounds()
    include_dir = pathlib.Path(a.torch_include)
    shared = None if a.no_shared else pathlib.Path(a.shared)
    if shared is not None and not (shared / "shim_function_versions.txt").is_file():
        print("note: no shared data at %s; the headers alone" % shared, file=sys.stderr)
        shared = None
    notes, disagreements = [], []
    have_headers = (include_dir / "torch/csrc/inductor/aoti_torch/c/shim.h").is_file()
    if have_headers:
        try:
            rows = from_headers(include_dir, baseline, notes)
        except shim.HeaderError as e:
            sys.exit("build-rules: %s: %s" % (include_dir, e))
        release = "%d.%d.%d" % shim.torch_release(include_dir)
        source = "the C shim headers of PyTorch " + release
        exports = set()
        if shared is not None:
            versions, exports, listed = read_shared(shared)
            headers_read = {r["header"] for r in rows.values()}
            merge_shared(rows, versions, listed, headers_read, notes, disagreements)
            source += " and shared/data/pytorch"
    elif shared is not None:
        # Without headers nothing the headers once said is dropped: the catalog
        # being replaced keeps its rows, the shared data adds what it lacks.
        print("note: no PyTorch headers at %s (scripts/fetch-torch.sh unpacks them); the shared data "
              "over the existing catalog" % include_dir, file=sys.stderr)
        versions, exports, listed = read_shared(shared)
        rows = from_shared(versions, listed, baseline)
        for name, old in read_catalog(pathlib.Path(a.output)).items():
            new = rows.get(name)
            if new is not None and new["since"] != old["since"] and not (
                    new["since"].startswith("<=") and old["since"].startswith("<=")):
                disagreements.append("%s: the existing catalog says %s, the shared data %s"
                                     % (name, old["since"], new["since"]))
            rows[name] = old
        source = "shared/data/pytorch and the catalog it replaced"
    else:
        sys.exit("build-rules: neither PyTorch headers (%s) nor shared data to read" % include_dir)

    newer = sorted(n for n, r in rows.items() if not r["since"].startswith("<=") and
                   tuple(int(x) for x in r["since"].split(".")[:2]) > latest)
    if newer and not a.keep_newer:
        for n in newer:
            notes.append("%s (%s) is newer than rules/api/releases.yaml's latest %d.%d; left out"
                         % ((n, rows[n]["since"]) + latest))
            del rows[n]

    out = ["# Stable C ABI of LibTorch: one row per entry point or type.",
           "# Generated by scripts/build-rules.py from %s; do not edit by hand." % source,
           "# since: release that introduced it ('<=%d.%d' = available in %d.%d or earlier)." % (baseline + baseline),
           "# dlopen_export: listed in libtorch_stable_exports.syms (exported for dlopen users).",
           "# backend: common, aten, cpu, cuda, mps, xpu ('-': header-only C++, nothing to link).",
           "# library: the libtorch library that defines it (MPS builds put theirs in libtorch_cpu).",
           "# build_condition: build options it needs ('-': every build), e.g. USE_CUDA, AT_MKLDNN_ENABLED().",
           "# " + "\t".join(COLUMNS)]
    for name in sorted(rows):
        r = dict(rows[name], dlopen_export="yes" if name in exports else "no")
        out.append("\t".join(r[c] for c in COLUMNS))
    dst = pathlib.Path(a.output)
    dst.write_text("\n".join(out) + "\n")
    for n in notes:
        print("note: " + n, file=sys.stderr)
    for d in disagreements:
        print("disagreement: " + d, file=sys.stderr)
    shown = dst.relative_to(root) if dst.is_relative_to(root) else dst
    print("wrote %s: %d rows (%d disagreements with the shared data)" % (shown, len(rows), len(disagreements)))


if __name__ == "__main__":
    main()
