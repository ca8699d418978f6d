"""Imports the Python modules of a project that build extensions just in time
(torch.utils.cpp_extension.load) with load() recorded instead of run, and
writes every call's arguments as one JSON document.

Reading load() calls without running them (src/inputs/project/jit_load.cpp)
fails where a project wraps load() in a helper whose arguments come from its
callers (`def load_ext(name, cur_dir, sources): ... load(name=name,
sources=[os.path.join(cur_dir, s) for s in sources], ...)`, called by each
kernel module). Importing those modules, as the application would, gives
each call's real values. torchabi (src/inputs/project/jit_run.cpp) writes
this file next to record_setup.py, whose build environment it shares (the
stand-in torch, permissive stand-ins for missing modules, placeholders, the
stand-in CUDA toolkit), and runs, sandboxed, in a temporary copy:

    python record_jit_loads.py --out FILE --cuda-home DIR [...] PROJECT PY_FILE...

PY_FILE: the modules that call load(). Imported are those of them that call
it at module level, and every module of the project that calls, at module
level, a function of theirs that calls load(). Nothing is compiled: load()
returns a permissive stand-in module. A module that raises is named in
"failures"; what it recorded before raising is kept.

Exit status: 0 with the JSON written; 2 on bad usage.
"""

import argparse
import ast
import contextlib
import importlib
import inspect
import json
import os
import runpy
import signal
import sys
import traceback

import record_setup as rs

MAX_FILES = 4000
MAX_BYTES = 1 << 20
SKIPPED_DIRS = {"build", "dist", "venv", "env", "site-packages", "node_modules", "third_party", "third-party",
                "3rdparty", "external", "__pycache__"}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--cuda-home", required=True)
    p.add_argument("--cuda-version", default=rs.STANDIN_CUDA_VERSION)
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--torch-surface")
    p.add_argument("--torch-version")
    p.add_argument("--torch-include")
    p.add_argument("--tree", help="the top of the copy (default: the project)")
    p.add_argument("project")
    p.add_argument("files", nargs="+")
    return p.parse_args()


def parse(path):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        return None if len(data) > MAX_BYTES else ast.parse(data, path)
    except (OSError, SyntaxError, ValueError):
        return None


def called_name(call):
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def module_level_calls(tree):
    """Calls made when the module is imported: outside def and class bodies."""
    out, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def is_extension_load(call):
    """A call of load() with cpp_extension's shape (a name and sources):
    torch.load(f), json.load(f) and np.load(f) take one argument."""
    return called_name(call) == "load" and (len(call.args) >= 2 or any(k.arg == "sources" for k in call.keywords))


def loading_functions(tree):
    """Names of the functions of `tree` whose body calls load()."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(n, ast.Call) and called_name(n) == "load" for n in ast.walk(node)):
                names.add(node.name)
    return names


def lazy_builders(tree):
    """(name, first line, last line) of the module-level functions of `tree`
    that call cpp_extension.load() themselves: `def build_extension(*,
    verbose=False): ... load(...)`, which the package calls on first use,
    not on import."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and \
                any(isinstance(n, ast.Call) and is_extension_load(n) for n in ast.walk(node)):
            out.append((node.name, node.lineno, getattr(node, "end_lineno", None) or node.lineno))
    return out


def callable_without_arguments(function):
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in signature.parameters.values())


BUILDER_SECONDS = 5


class BuilderTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds):
    """A builder that goes on after load() (`while True: serve()` in a
    script's main) is stopped; what it recorded is kept."""
    def expire(signum, frame):
        raise BuilderTimeout(f"still running after {seconds} s: stopped")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def call_lazy_builders(path, namespace, records, failures, project):
    """Calls the functions of `path` that build an extension when first
    used, and that nothing called on import, as the package would: one whose
    parameters all have defaults is called with none. Their load() is the
    recorded one, so nothing is compiled."""
    tree = parse(path)
    if tree is None or namespace is None:
        return
    for name, first, last in lazy_builders(tree):
        if any(r["file"] == path and first <= r["line"] <= last for r in records):
            continue  # called on import already
        function = namespace.get(name)
        if not callable(function) or not callable_without_arguments(function):
            continue
        try:
            with time_limit(BUILDER_SECONDS):
                function()
        except BaseException as e:  # noqa: B902  after load(), the stand-in it returned may not do
            if not any(r["file"] == path and first <= r["line"] <= last for r in records):
                failures.append(f"{os.path.relpath(path, project)}: {name}(): " + rs.one_line(e, project))


def project_files(project):
    seen = 0
    for root, dirs, files in os.walk(project):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS
                         and not d.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith(".py"):
                seen += 1
                if seen > MAX_FILES:
                    return
                yield os.path.join(root, name)


def modules_to_import(project, files):
    """The load() modules that call it on import, then the project's modules
    that call one of their loading functions on import."""
    chosen, helpers = [], set()
    for path in files:
        tree = parse(path)
        if tree is None:
            continue
        if any(called_name(c) == "load" for c in module_level_calls(tree)):
            chosen.append(path)
        helpers |= loading_functions(tree)
    if helpers:
        for path in project_files(project):
            if path in chosen or os.path.basename(path) in ("setup.py", "conftest.py"):
                continue
            tree = parse(path)
            if tree is not None and any(called_name(c) in helpers for c in module_level_calls(tree)):
                chosen.append(path)
    return chosen


def import_file(path, project):
    """Imports `path` under its package name when it is in a package (its
    relative imports need one), else runs it as a module of its own; returns
    the module's namespace."""
    directory, parts = os.path.dirname(path), [os.path.splitext(os.path.basename(path))[0]]
    while directory != project and os.path.isfile(os.path.join(directory, "__init__.py")):
        parts.insert(0, os.path.basename(directory))
        directory = os.path.dirname(directory)
    if len(parts) > 1:
        if directory not in sys.path:
            sys.path.insert(0, directory)
        return vars(importlib.import_module(".".join(parts)))
    return runpy.run_path(path, run_name=parts[0])


def unique(records):
    """One record per call site and arguments: a builder called on import
    and again by its caller is one extension."""
    seen, out = set(), []
    for r in records:
        key = json.dumps(r, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def main():
    args = parse_args()
    project = os.path.abspath(args.project)
    args.out, args.cuda_home = os.path.abspath(args.out), os.path.abspath(args.cuda_home)
    rs.make_cuda_home(args.cuda_home, args.cuda_version)
    os.environ.update({"CUDA_HOME": args.cuda_home, "CUDA_PATH": args.cuda_home, "FORCE_CUDA": "1"})
    os.chdir(project)
    sys.path[0] = project
    sys.dont_write_bytecode = True
    given = rs.Given()
    import setuptools  # noqa: F401  (the stand-in torch builds on it)

    torch = cpp_extension = None
    real_torch = False
    if not args.no_torch:
        try:
            import torch
            import torch.utils.cpp_extension as cpp_extension
            if rs.older_than_headers(str(torch.__version__), args.torch_version):
                given.add("torch", f"the interpreter's torch {torch.__version__} is older than the headers in use "
                                   f"({args.torch_version}): the stand-in torch of the headers' release instead")
                raise ImportError("older than the headers")
            real_torch = True
        except Exception:
            for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
                del sys.modules[name]
            torch = cpp_extension = None
    if cpp_extension is None:
        torch, cpp_extension = rs.standin_torch(args.cuda_home, setuptools, rs.load_surface(args.torch_surface),
                                                args.torch_version or rs.STANDIN_TORCH_VERSION, args.cuda_version,
                                                given, args.torch_include)
    rs.cuda_looks_available(torch, cpp_extension, args.cuda_home, args.cuda_version)

    records = []

    def load(name, sources, extra_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
             extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None,
             is_python_module=True, is_standalone=False, keep_intermediates=True, **_):
        file, line = rs.project_frame(project, traceback.extract_stack()[:-1])
        sources = [sources] if isinstance(sources, (str, os.PathLike)) else sources
        records.append({
            "name": str(name),
            "sources": [os.path.abspath(s) for s in rs.strings(sources or [])],
            "extra_cflags": rs.strings(extra_cflags or []),
            "extra_cuda_cflags": rs.strings(extra_cuda_cflags or []),
            "extra_include_paths": [os.path.abspath(s) for s in rs.strings(extra_include_paths or [])],
            "with_cuda": None if with_cuda is None else bool(with_cuda),
            "is_standalone": bool(is_standalone),
            "file": file,
            "line": line,
        })
        return rs.Permissive(f"the extension {name}", given)

    cpp_extension.load = load
    # load_inline's literal sources are read without running (jit_load.cpp);
    # an installed torch's would compile them here.
    cpp_extension.load_inline = lambda name, *a, **k: rs.Permissive(f"the extension {name}", given)
    rs.alias_vendored(given)
    sys.meta_path.append(rs.MissingModules(project, given, standin_torch=not real_torch))
    placeholders = rs.Placeholders(project, given, os.path.abspath(args.tree) if args.tree else None)
    placeholders.read_submodules()
    placeholders.install()

    failures, namespaces = [], {}
    files = [os.path.abspath(f) for f in args.files]
    for path in modules_to_import(project, files):
        try:
            namespaces[path] = import_file(path, project)
        except BaseException as e:  # noqa: B902  the module's failure, whatever it is
            failures.append(rs.one_line(e, project))
    for path in files:
        if path not in namespaces and (tree := parse(path)) is not None and lazy_builders(tree):
            try:
                namespaces[path] = import_file(path, project)
            except BaseException as e:  # noqa: B902
                failures.append(rs.one_line(e, project))
        call_lazy_builders(path, namespaces.get(path), records, failures, project)
    with open(args.out, "w") as f:
        json.dump({"loads": unique(records), "failures": failures, "given": [list(g) for g in given.items]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
