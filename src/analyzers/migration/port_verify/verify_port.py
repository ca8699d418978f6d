"""Whether a port behaves like its original, in the interpreter of a real
torch (run by `torchabi verify-port` and `migrate --fix --verify`, confined
like a build script: the two trees are copies in the scratch directory).

Usage: python verify_port.py SPEC.json                 the driver
       python verify_port.py SPEC.json MODE INDEX      its children
SPEC: {"target": "0x020a000000000000" or "", "inputs": "FILE.py" or "",
       "work": DIR, "extensions": [{"name", "original_dir", "port_dir",
       "original_sources", "port_sources"}]}
Prints one JSON line: {"torch", "extensions": [{"name", "stable_only",
"original_build", "port_build", "ops": [{"op", "status", "why", "inputs"}]}]}
or {"error": why}.

Per extension: the port's sources are compiled with the stable headers alone
(torch/csrc/stable, torch/headeronly, the AOTI shim) at the target; both trees
are built against this torch as cpp_extension would (its include and library
paths, its C++ ABI); the original and the port run in separate processes (both
may register the same namespace), each op on the same inputs: the project's
own (SPEC "inputs": a file whose `inputs(op)` returns a list of argument
tuples, or None) or the ones opcheck_run.py's search finds the original
accepts. Outputs and the arguments after the call (what a kernel writes) are
compared with torch.testing.assert_close.
"""
import json
import os
import re
import subprocess
import sys

CHILD_TIMEOUT = 600
COMPILE_TIMEOUT = 600
LEGACY_HEADER = re.compile(r"/(torch|c10|ATen)/")


def first_line(text):
    lines = [l.strip() for l in str(text).splitlines() if l.strip()]
    return lines[0][:600] if lines else ""


def compiler_error(output):
    """The first 'error:' line of a compiler's output, else its first line."""
    for line in output.splitlines():
        if "error:" in line or "fatal error" in line:
            return line.strip()[:600]
    return first_line(output)


def std_flag(torch):
    m = re.match(r"(\d+)\.(\d+)", torch.__version__)
    major, minor = (int(m.group(1)), int(m.group(2))) if m else (2, 10)
    return "-std=c++20" if (major, minor) >= (2, 10) else "-std=c++17"


def torch_paths(torch):
    from torch.utils import cpp_extension
    import sysconfig
    includes = list(cpp_extension.include_paths())
    libs = list(cpp_extension.library_paths())
    return includes, libs, sysconfig.get_paths()["include"]


def stable_only_tree(torch, work, includes):
    """A directory with nothing but the stable headers of this torch."""
    tree = os.path.join(work, "stable_only")
    if os.path.isdir(tree):
        return tree
    root = includes[0]
    for part in ("torch/csrc/stable", "torch/headeronly", "torch/csrc/inductor/aoti_torch"):
        source = os.path.join(root, part)
        if not os.path.isdir(source):
            continue
        link = os.path.join(tree, part)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(source, link)
    return tree


def run(argv, cwd):
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=COMPILE_TIMEOUT)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return -1, "%s did not finish within %d s" % (argv[0], COMPILE_TIMEOUT)
    except OSError as e:
        return -1, "%s cannot be started: %s" % (argv[0], e)


def check_stable_only(torch, spec, ext, includes, python_include):
    """'' when every port source compiles with the stable headers alone, else why not.
    Python's own headers stay on the path: a stable extension may define its module (PyInit_)."""
    tree = stable_only_tree(torch, spec["work"], includes)
    flags = [std_flag(torch), "-I" + ext["port_dir"], "-isystem", tree, "-isystem", python_include]
    if spec.get("target"):
        flags.append("-DTORCH_TARGET_VERSION=" + spec["target"])
    for source in ext["port_sources"]:
        path = os.path.join(ext["port_dir"], source)
        here = ["-I" + os.path.dirname(path)]
        code, out = run(["g++", "-fsyntax-only"] + flags + here + [path], ext["port_dir"])
        if code != 0:
            return "%s does not compile with the stable headers alone: %s" % (source, compiler_error(out))
        # Not canonical: GCC would print a header reached through the tree's symlinks by its real path.
        code, out = run(["g++", "-M", "-fno-canonical-system-headers"] + flags + here + [path], ext["port_dir"])
        for dep in out.replace("\\\n", " ").split():
            if LEGACY_HEADER.search(dep) and not dep.startswith(tree) and not dep.startswith(ext["port_dir"]):
                return "%s reads a header outside the stable API: %s" % (source, dep)
    return ""


def build(torch, spec, ext, side, includes, libs, python_include):
    """(path of the built library, '') or ('', why not)."""
    root = ext[side + "_dir"]
    sources = [os.path.join(root, s) for s in ext[side + "_sources"]]
    out = os.path.join(spec["work"], "%s_%s.so" % (ext["name"], side))
    module = "torchabi_%s_%s" % (side, re.sub(r"\W", "_", ext["name"]))
    flags = ["-shared", "-fPIC", "-O1", std_flag(torch), "-w",
             "-D_GLIBCXX_USE_CXX11_ABI=%d" % int(torch._C._GLIBCXX_USE_CXX11_ABI),
             "-DTORCH_EXTENSION_NAME=" + module, "-DTORCH_API_INCLUDE_EXTENSION_H", "-I" + root]
    if side == "port" and spec.get("target"):
        flags.append("-DTORCH_TARGET_VERSION=" + spec["target"])
    for d in includes:
        flags += ["-isystem", d]
    flags += ["-isystem", python_include]
    dirs = sorted({os.path.dirname(s) for s in sources})
    flags += ["-I" + d for d in dirs]
    link = []
    for d in libs:
        link += ["-L" + d, "-Wl,-rpath," + d]
    link += ["-lc10", "-ltorch_cpu", "-ltorch"]
    if side == "original" and any(os.path.exists(os.path.join(d, "libtorch_python.so")) for d in libs):
        link.append("-ltorch_python")
    code, text = run(["g++"] + flags + sources + ["-o", out] + link, root)
    if code != 0:
        return "", "the %s does not build against torch %s: %s" % (side, torch.__version__, compiler_error(text))
    return out, ""


def child(spec_path, mode, index):
    """Runs MODE (list | original | port) of extension INDEX in a fresh process; its JSON, or an error record."""
    argv = [sys.executable, os.path.abspath(__file__), spec_path, mode, str(index)]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": "did not finish within %d s" % CHILD_TIMEOUT}
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    if p.returncode < 0:
        return {"error": "crashed (signal %d): %s" % (-p.returncode, first_line(p.stdout[-2000:]))}
    return {"error": "exited with status %d: %s" % (p.returncode, first_line(p.stdout[-2000:]))}


# ---- children ----------------------------------------------------------------

def load_port(torch, path):
    before = set(torch._C._dispatch_get_all_op_names())
    torch.ops.load_library(path)
    return sorted(set(torch._C._dispatch_get_all_op_names()) - before)


def op_handle(torch, name):
    ns, rest = name.split("::", 1)
    op_name, _, overload = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), op_name), overload or "default")


def list_ops(torch, spec, ext):
    names = load_port(torch, ext["port_so"])
    return {"ops": [{"op": n, "schema": str(op_handle(torch, n)._schema)} for n in names]}


def load_original(torch, path, module_name):
    """The original's callables by name: its pybind11 functions and its ops."""
    import importlib.machinery
    import importlib.util
    before = set(torch._C._dispatch_get_all_op_names())
    callables = {}
    loader = importlib.machinery.ExtensionFileLoader(module_name, path)
    try:
        module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(module_name, path,
                                                                                        loader=loader))
        loader.exec_module(module)
        for attr in dir(module):
            if not attr.startswith("_") and callable(getattr(module, attr)):
                callables[attr] = getattr(module, attr)
    except ImportError as e:
        if "module export function" not in str(e) and "PyInit" not in str(e):
            raise
        torch.ops.load_library(path)  # no PYBIND11_MODULE: registrations only
    for name in sorted(set(torch._C._dispatch_get_all_op_names()) - before):
        callables[name] = op_handle(torch, name)
    return callables


def original_for(callables, op):
    """The original's callable for the port's op: the same op, or the pybind11 function of its name."""
    if op in callables:
        return callables[op]
    bare = op.split("::", 1)[1].split(".")[0]
    return callables.get(bare)


def clone(torch, v):
    if isinstance(v, torch.Tensor):
        return v.clone()
    if isinstance(v, (list, tuple)):
        return [clone(torch, x) for x in v]
    return v


def plain(torch, v):
    """Outputs as lists and tensors: pybind11 returns lists where torch.ops returns tuples."""
    if isinstance(v, (list, tuple)):
        return [plain(torch, x) for x in v]
    return v


def user_inputs(spec, op):
    if not spec.get("inputs"):
        return None
    import runpy
    hook = runpy.run_path(spec["inputs"]).get("inputs")
    if hook is None:
        raise ValueError("%s defines no inputs(op) function" % spec["inputs"])
    calls = hook(op)
    if isinstance(calls, tuple):  # one call's arguments
        calls = [calls]
    if not calls:  # None or []: nothing of the project's, so the generated inputs (never zero calls: a pass)
        return None
    return [tuple(c) for c in calls]


def run_original(torch, spec, ext):
    import opcheck_run
    schemas = {o["op"]: o["schema"] for o in ext["port_ops"]}
    callables = load_original(torch, ext["original_so"], "torchabi_original_" + re.sub(r"\W", "_", ext["name"]))
    results, saved = {}, {}
    for op, schema_text in schemas.items():
        fn = original_for(callables, op)
        if fn is None:
            results[op] = {"status": "not_verified", "why": "the original has no op or function of this name"}
            continue
        torch.manual_seed(0)
        calls = user_inputs(spec, op)
        source = "the inputs of " + os.path.basename(spec["inputs"]) if calls else "generated inputs"
        if calls is None:
            schema = torch._C.parse_schema(schema_text)
            args, kwargs, attempts = opcheck_run.find_inputs(torch, fn, schema)
            if args is None or kwargs:
                why = "the original accepts none of the generated inputs"
                if attempts:
                    why += " (last: %s)" % attempts[-1]
                results[op] = {"status": "not_verified", "why": why + "; give inputs with --inputs FILE.py"}
                continue
            calls = [tuple(args)]
        records = []
        try:
            for args in calls:
                given = clone(torch, list(args))
                mine = clone(torch, list(args))
                out = fn(*mine)
                records.append({"args": given, "out": plain(torch, out), "after": mine})
        except Exception as e:
            results[op] = {"status": "not_verified", "why": "the original raises on %s: %s" % (source, first_line(e))}
            continue
        saved[op] = records
        described = "; ".join(opcheck_run.describe(r["args"], {}) for r in records[:3])
        results[op] = {"status": "ran", "inputs": described, "source": source}
    torch.save(saved, os.path.join(spec["work"], "%d.original.pt" % ext["index"]))
    covered = set(schemas) | {op.split("::", 1)[1].split(".")[0] for op in schemas}
    missing = sorted(n for n in callables if n not in covered)
    return {"results": results, "missing": missing}


def same(torch, got, want, where):
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            raise AssertionError("%s: a %s where the original gives a tensor" % (where, type(got).__name__))
        torch.testing.assert_close(got, want, equal_nan=True, msg=lambda m: "%s: %s" % (where, " ".join(m.split())))
    elif isinstance(want, list):
        got = plain(torch, got)
        if not isinstance(got, list) or len(got) != len(want):
            raise AssertionError("%s: %r where the original gives %d values" % (where, type(got).__name__, len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            same(torch, g, w, "%s[%d]" % (where, i))
    elif got != want:
        raise AssertionError("%s: %r where the original gives %r" % (where, got, want))


def run_port(torch, spec, ext):
    load_port(torch, ext["port_so"])
    saved = torch.load(os.path.join(spec["work"], "%d.original.pt" % ext["index"]), weights_only=False)
    results = {}
    for op, records in saved.items():
        fn = op_handle(torch, op)
        try:
            for r in records:
                args = clone(torch, r["args"])
                out = fn(*args)
                same(torch, out, r["out"], "output")
                same(torch, args, r["after"], "arguments after the call")
            results[op] = {"status": "verified"}
        except AssertionError as e:
            results[op] = {"status": "differs", "why": first_line(e)}
        except Exception as e:
            results[op] = {"status": "differs", "why": "the port raises where the original does not: " + first_line(e)}
    return {"results": results}


def child_main(spec_path, mode, index):
    spec = json.load(open(spec_path))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    ext = spec["extensions"][index]
    ext["index"] = index
    fn = {"list": list_ops, "original": run_original, "port": run_port}[mode]
    try:
        print(json.dumps(fn(torch, spec, ext)))
    except Exception as e:
        cause = e.__cause__ or e  # torch.ops.load_library's OSError says only which library; its cause says why
        print(json.dumps({"error": "%s: %s" % (type(cause).__name__, first_line(cause))}))


# ---- the driver --------------------------------------------------------------

def verify_extension(torch, spec_path, spec, index, paths):
    ext = spec["extensions"][index]
    includes, libs, python_include = paths
    record = {"name": ext["name"], "sources": ext["port_sources"], "ops": []}
    record["stable_only"] = check_stable_only(torch, spec, ext, includes, python_include)
    port_so, record["port_build"] = build(torch, spec, ext, "port", includes, libs, python_include)
    record["original_build"] = ""
    if record["port_build"]:
        return record  # nothing to compare with: the original's build would be time spent for nothing
    original_so, record["original_build"] = build(torch, spec, ext, "original", includes, libs, python_include)
    ext["port_so"], ext["original_so"] = port_so, original_so
    write_spec(spec_path, spec)  # the children read the libraries' paths from it
    listed = child(spec_path, "list", index)
    if "error" in listed:
        record["port_build"] = "the port does not load: " + listed["error"]
        if "undefined symbol" in listed["error"] and ext.get("cuda_sources"):
            record["port_build"] += " (its CUDA sources are not built: no GPU is assumed)"
        return record
    ext["port_ops"] = listed["ops"]
    write_spec(spec_path, spec)
    if not ext["port_ops"]:
        record["port_build"] = "the port registers no op"
        return record
    if record["original_build"]:
        why = record["original_build"]
    else:
        original = child(spec_path, "original", index)
        why = "the original does not load: " + original["error"] if "error" in original else ""
    if why:
        record["ops"] = [{"op": o["op"], "status": "not_verified", "why": why} for o in ext["port_ops"]]
        return record
    port = child(spec_path, "port", index)
    for o in ext["port_ops"]:
        r = dict(original["results"].get(o["op"], {}))
        if r.get("status") == "ran":
            r.update(port.get("results", {}).get(o["op"], {"status": "differs", "why": "the port " + port.get(
                "error", "gave no result")}))
        record["ops"].append({"op": o["op"], "status": r.get("status", "not_verified"), "why": r.get("why", ""),
                              "inputs": r.get("inputs", "")})
    record["missing"] = original.get("missing", [])
    return record


def write_spec(path, spec):
    with open(path + ".tmp", "w") as f:
        json.dump(spec, f)
    os.replace(path + ".tmp", path)


def main(spec_path):
    try:
        import torch
    except Exception as e:
        print(json.dumps({"error": "torch cannot be imported: " + first_line(e)}))
        return
    spec = json.load(open(spec_path))
    m = re.match(r"(\d+)\.(\d+)", torch.__version__)
    if m and (int(m.group(1)), int(m.group(2))) < (2, 9):
        print(json.dumps({"error": "torch %s has no stable ABI (2.9 and later have it): give --torch the python of a "
                                   "torch 2.9 or later" % torch.__version__}))
        return
    try:
        paths = torch_paths(torch)
    except Exception as e:
        print(json.dumps({"error": "torch %s gives no build paths: %s" % (torch.__version__, first_line(e))}))
        return
    out = []
    for i in range(len(spec["extensions"])):
        out.append(verify_extension(torch, spec_path, spec, i, paths))
    print(json.dumps({"torch": torch.__version__, "extensions": out}))


if __name__ == "__main__":
    if len(sys.argv) == 4:
        child_main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    else:
        main(sys.argv[1])
