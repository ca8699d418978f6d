#!/usr/bin/env python3
"""The flags a real torch.utils.cpp_extension.load()/load_inline() passes to
each compiler, captured instead of built.

    jit_load_capture.py [--cpp-extension PATH] --torch-include DIR MODULE.py...

Runs each module (with __file__ and a package-style __name__) after replacing
the parts of cpp_extension that would build (ninja, the compiler checks, the
import of the result) and capturing what _write_ninja_file receives: the
cflags of c++, the cuda_cflags of nvcc, and the sources. Prints one JSON object
{name: {"cflags": [...], "cuda_cflags": [...] | null, "sources": [...]}}.

With --cpp-extension, that cpp_extension.py (e.g. torch 2.14.1's, from the sid
root) is loaded under minimal stand-in `torch` modules, so that no torch
install is needed; otherwise the installed torch's own is used. Either way the
flag-computing code that runs is torch's; torch's include paths are replaced by
--torch-include, as torchabi is given them. The modules' own code runs: use it
on fixtures only (scripts/against-torch/jit_load.sh).
"""
import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import types


def stand_in_torch(cpp_extension_py, root):
    """A `torch` package with just what cpp_extension.py imports, and its
    neighbours _cpp_extension_versioner.py / _filelock.py next to it."""
    src = os.path.dirname(cpp_extension_py)
    pkg = os.path.join(root, "torch")
    os.makedirs(os.path.join(pkg, "utils"))
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write(
            "import types\n"
            "__version__ = '2.14.1'\n"
            "version = types.SimpleNamespace(__version__=__version__, cuda=None, hip=None, xpu=None)\n"
            "class _Cuda:\n"
            "    @staticmethod\n"
            "    def _is_compiled(): return False\n"
            "    @staticmethod\n"
            "    def is_available(): return False\n"
            "cuda = _Cuda()\n"
            "xpu = _Cuda()\n"
            "from . import _appdirs, torch_version, _utils_internal, utils, library\n"
        )
    # A module that builds on import may register its ops' Python parts there
    # too (@torch.library.register_fake): decorators that keep the function.
    with open(os.path.join(pkg, "library.py"), "w") as f:
        f.write("def _keep(name, fn=None, **kwargs):\n"
                "    return fn if fn is not None else (lambda f: f)\n"
                "register_fake = register_autograd = register_kernel = impl_abstract = _keep\n")
    with open(os.path.join(pkg, "_appdirs.py"), "w") as f:
        f.write("def user_cache_dir(appname=None, appauthor=None, version=None, opinion=True):\n"
                "    import tempfile; return tempfile.gettempdir()\n")
    with open(os.path.join(pkg, "torch_version.py"), "w") as f:
        f.write("class TorchVersion(str):\n    pass\nVersion = TorchVersion\n")
    with open(os.path.join(pkg, "_utils_internal.py"), "w") as f:
        f.write("import os\ndef get_file_path(*parts):\n"
                "    return os.path.join(os.path.dirname(__file__), *parts[1:])\n")
    with open(os.path.join(pkg, "utils", "__init__.py"), "w") as f:
        f.write("")
    shutil.copy(cpp_extension_py, os.path.join(pkg, "utils", "cpp_extension.py"))
    shutil.copy(os.path.join(src, "_cpp_extension_versioner.py"), os.path.join(pkg, "utils"))
    with open(os.path.join(pkg, "utils", "_filelock.py"), "w") as f:
        f.write("import contextlib\n"
                "class FileLock(contextlib.nullcontext):\n"
                "    def __init__(self, path, *a, **k): super().__init__()\n")
    sys.path.insert(0, root)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpp-extension")
    ap.add_argument("--torch-include", action="append", required=True)
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="torchabi-jit-capture-")
    try:
        if args.cpp_extension:
            stand_in_torch(os.path.abspath(args.cpp_extension), os.path.join(scratch, "pkg"))
        import torch.utils.cpp_extension as ce

        captured = {}
        current = {}

        def write_ninja(path, cflags, post_cflags, cuda_cflags, cuda_post_cflags, cuda_dlink_post_cflags,
                        sycl_cflags, sycl_post_cflags, sycl_dlink_post_cflags, sources, objects, ldflags,
                        library_target, with_cuda, with_sycl):
            captured[current["name"]] = {
                "cuda_home": ce.CUDA_HOME,
                "cflags": list(cflags or []),
                "cuda_cflags": list(cuda_cflags) if with_cuda else None,
                "sources": [os.path.abspath(s) for s in sources],
            }

        real_jit = ce._jit_compile

        def jit_compile(name, *a, **k):
            current["name"] = name
            return real_jit(name, *a, **k)

        ce._jit_compile = jit_compile
        ce._write_ninja_file = write_ninja
        ce.verify_ninja_availability = lambda: None
        ce.get_compiler_abi_compatibility_and_version = lambda compiler: (True, ce.TorchVersion("0.0.0"))
        ce._run_ninja_build = lambda *a, **k: None
        ce._import_module_from_library = lambda *a, **k: None
        ce._get_exec_path = lambda *a, **k: None
        ce._get_cuda_arch_flags = lambda cflags=None: []
        ce._prepare_ldflags = lambda extra_ldflags, *a, **k: list(extra_ldflags)
        # torch's own paths are the headers torchabi is given; the device's
        # (CUDA_HOME/include) are those of a CUDA build of torch on this
        # machine: CUDA_HOME found as torch finds it, none without CUDA.
        if ce.CUDA_HOME is None:
            ce.CUDA_HOME = ce._find_cuda_home()
        real_include_paths = ce.include_paths

        def include_paths(device_type="cpu", torch_include_dirs=True):
            try:
                device = real_include_paths(device_type, torch_include_dirs=False)
            except OSError:  # no CUDA_HOME
                device = []
            return list(args.torch_include) + device

        ce.include_paths = include_paths
        def build_directory(name, verbose):
            d = os.path.join(scratch, "build", name)
            os.makedirs(d, exist_ok=True)
            return d

        ce._get_build_directory = build_directory
        ce.remove_extension_h_precompiler_headers = lambda: None
        os.makedirs(os.path.join(scratch, "build"), exist_ok=True)

        for module in args.modules:
            path = os.path.abspath(module)
            spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        json.dump(captured, sys.stdout, indent=1, sort_keys=True)
        print()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
