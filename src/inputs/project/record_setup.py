"""Runs a setuptools build script with setup() and the extension classes
recorded instead of built, and writes what it declared as one JSON document.

torchabi's project mode (src/inputs/project/setup_run.cpp) embeds this file,
writes it next to a temporary copy of the project and runs

    python record_setup.py --platform linux|darwin|win32 --out FILE
        --cuda-home DIR SETUP_PY

as `python setup.py build_ext` would run, except that nothing is built:
setuptools.setup and distutils.core.setup only record their arguments, and
every setuptools Extension records where the build script created it.
CUDA looks available (CUDA_HOME, FORCE_CUDA, torch.cuda.is_available) so that
the script's CUDA branches are taken; the platform is emulated (sys.platform,
os.name, platform.system) so that its per-platform branches can be compared.
The installed torch's cpp_extension is used when it imports; otherwise
stand-in modules give setuptools Extensions without torch's include paths
(torchabi adds the headers it was told to use).

Exit status: 0 with the JSON written; 1 when the script raised, with one line
"FILE:LINE: Type: message" on stderr, last; 2 on bad usage.
"""

import argparse
import builtins
import json
import os
import sys
import sysconfig
import traceback
import types

PLATFORMS = {"linux": ("posix", "Linux"), "darwin": ("posix", "Darwin"), "win32": ("nt", "Windows")}
STANDIN_TORCH_VERSION = "2.10.0"
STANDIN_CUDA_VERSION = "12.8"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--platform", default="linux", choices=sorted(PLATFORMS))
    p.add_argument("--out", required=True)
    p.add_argument("--cuda-home", required=True)
    p.add_argument("--no-torch", action="store_true", help="use the stand-in cpp_extension even if torch imports")
    p.add_argument("setup_py")
    return p.parse_args()


def make_cuda_home(path):
    """An empty CUDA toolkit whose nvcc only tells its version: scripts ask it."""
    for d in ("bin", "include", "lib64"):
        os.makedirs(os.path.join(path, d), exist_ok=True)
    nvcc = os.path.join(path, "bin", "nvcc")
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                f"echo 'Cuda compilation tools, release {STANDIN_CUDA_VERSION}, V{STANDIN_CUDA_VERSION}.0'\n")
    os.chmod(nvcc, 0o755)


def inside(path, root):
    path = os.path.abspath(path)
    return path == root or path.startswith(root + os.sep)


def project_frame(project, frames):
    """The innermost (file, line) of `frames` (outermost first) in the project."""
    for f in reversed(frames):
        if inside(f.filename, project):
            return os.path.abspath(f.filename), f.lineno
    return None, 0


class Recorder:
    def __init__(self, project):
        self.project = project
        self.created = []   # (extension, file, line), in creation order
        self.kinds = {}     # id(extension) -> "CppExtension" | "CUDAExtension"
        self.setup_calls = []

    def where(self):
        return project_frame(self.project, traceback.extract_stack()[:-2])

    def hook_extension(self, setuptools):
        # The base class every setuptools (and distutils) Extension initialises through.
        base = [c for c in setuptools.Extension.__mro__ if c.__name__ == "Extension"][-1]
        original = base.__init__
        recorder = self

        def init(ext, *args, **kwargs):
            original(ext, *args, **kwargs)
            if not any(e is ext for e, _, _ in recorder.created):
                file, line = recorder.where()
                recorder.created.append((ext, file, line))

        base.__init__ = init

    def tag(self, factory, kind):
        recorder = self

        def make(*args, **kwargs):
            ext = factory(*args, **kwargs)
            recorder.kinds[id(ext)] = kind
            return ext

        make.__name__ = kind
        make.__wrapped__ = factory
        return make

    def setup(self, **attrs):
        file, line = self.where()
        self.setup_calls.append((attrs, file, line))
        return None


def standin_torch(cuda_home, setuptools):
    """Modules torch, torch.version, torch.cuda, torch.utils and
    torch.utils.cpp_extension with what build scripts use of them."""
    from setuptools.command.build_ext import build_ext

    torch = types.ModuleType("torch")
    torch.__version__ = STANDIN_TORCH_VERSION
    torch.__file__ = None
    version = types.ModuleType("torch.version")
    version.__version__ = STANDIN_TORCH_VERSION
    version.cuda = STANDIN_CUDA_VERSION
    version.hip = None
    cuda = types.ModuleType("torch.cuda")
    utils = types.ModuleType("torch.utils")
    ext = types.ModuleType("torch.utils.cpp_extension")

    def CppExtension(name, sources, *args, **kwargs):
        kwargs["language"] = "c++"
        return setuptools.Extension(name, sources, *args, **kwargs)

    def CUDAExtension(name, sources, *args, **kwargs):
        kwargs["language"] = "c++"
        return setuptools.Extension(name, sources, *args, **kwargs)

    class BuildExtension(build_ext):
        @classmethod
        def with_options(cls, **options):
            return type(cls.__name__, (cls,), {"_options": options})

    for f in (CppExtension, CUDAExtension, BuildExtension):
        f.__module__ = ext.__name__  # what build_ext_of() looks for
    ext.CppExtension = CppExtension
    ext.CUDAExtension = CUDAExtension
    ext.BuildExtension = BuildExtension
    ext.CUDA_HOME = cuda_home
    ext.ROCM_HOME = None
    ext.SYCL_HOME = None
    ext.CUDNN_HOME = None
    ext.IS_HIP_EXTENSION = False
    ext.include_paths = lambda *a, **k: []
    ext.library_paths = lambda *a, **k: []
    ext.TORCH_LIB_PATH = ""
    # Helpers some build scripts call while computing their flags.
    ext._get_cuda_arch_flags = lambda *a, **k: []
    ext._get_rocm_arch_flags = lambda *a, **k: []
    ext.is_ninja_available = lambda: True
    ext.verify_ninja_availability = lambda: None
    ext.get_default_build_root = lambda: os.path.join(os.getcwd(), "build")
    ext._is_cuda_file = lambda path: os.path.splitext(path)[1] in (".cu", ".cuh")
    torch.version = version
    torch.cuda = cuda
    torch.utils = utils
    utils.cpp_extension = ext
    for m in (torch, version, cuda, utils, ext):
        sys.modules[m.__name__] = m
    return torch, ext


def cuda_looks_available(torch, cpp_extension, cuda_home):
    cpp_extension.CUDA_HOME = cuda_home
    cpp_extension.ROCM_HOME = None
    if getattr(torch.version, "cuda", None) is None:
        torch.version.cuda = STANDIN_CUDA_VERSION
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_capability = lambda *a, **k: (8, 0)
    torch.cuda.get_device_name = lambda *a, **k: "stand-in"


def emulate_platform(name, cpp_extension):
    import pathlib
    import platform

    # Path() picks WindowsPath when os.name is "nt", which cannot be made
    # on this system: keep the native class.
    native = type(pathlib.Path())
    original_new = pathlib.Path.__new__

    def new(cls, *args, **kwargs):
        if cls is pathlib.Path:
            cls = native
        return original_new(cls, *args, **kwargs)

    pathlib.Path.__new__ = new
    os_name, system = PLATFORMS[name]
    sys.platform = name
    os.name = os_name
    platform.system = lambda: system
    for attr, value in (("IS_WINDOWS", name == "win32"), ("IS_MACOS", name == "darwin"),
                        ("IS_LINUX", name == "linux")):
        setattr(cpp_extension, attr, value)


def strings(values):
    if values is None:
        return []
    if isinstance(values, (str, os.PathLike)):
        values = [values]
    return [os.fspath(v) if isinstance(v, os.PathLike) else str(v) for v in values]


def resolve(path, project):
    return os.path.normpath(os.path.join(project, path))


def describe(ext, file, line, kind, project):
    args = getattr(ext, "extra_compile_args", None) or []
    if isinstance(args, dict):
        args = {str(k): strings(v) for k, v in args.items()}
    else:
        args = strings(args)
    macros = []
    for m in getattr(ext, "define_macros", None) or []:
        if isinstance(m, (tuple, list)) and m:
            macros.append([str(m[0]), None if len(m) < 2 or m[1] is None else str(m[1])])
        else:
            macros.append([str(m), None])
    return {
        "name": str(getattr(ext, "name", "")),
        "kind": kind,
        "sources": [resolve(s, project) for s in strings(getattr(ext, "sources", None))],
        "include_dirs": [resolve(s, project) for s in strings(getattr(ext, "include_dirs", None))],
        "define_macros": macros,
        "undef_macros": strings(getattr(ext, "undef_macros", None)),
        "extra_compile_args": args,
        "py_limited_api": bool(getattr(ext, "py_limited_api", False)),
        "file": file,
        "line": line,
    }


def build_ext_of(cmdclass):
    cls = (cmdclass or {}).get("build_ext")
    if cls is None:
        return None
    for c in getattr(cls, "__mro__", ()):
        if c.__name__ == "BuildExtension" and c.__module__.startswith("torch.utils.cpp_extension"):
            return "BuildExtension"
    return f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', cls)}"


def torch_requirements(attrs, file, line):
    out = []
    reqs = attrs.get("install_requires") or []
    if isinstance(reqs, str):
        reqs = reqs.splitlines()
    for r in reqs:
        r = str(r).strip()
        name = r
        for stop in "<>=!~;[ (@":
            name = name.split(stop)[0]
        if name.strip().lower() == "torch":
            out.append({"text": r, "file": file, "line": line})
    return out


def report(recorder, project, info):
    extensions, requirements, build_ext, setup_line = [], [], None, 0
    listed = []
    for attrs, file, line in recorder.setup_calls:
        setup_line = setup_line or line
        listed += [e for e in (attrs.get("ext_modules") or []) if hasattr(e, "sources")]
        requirements += torch_requirements(attrs, file, line)
        build_ext = build_ext or build_ext_of(attrs.get("cmdclass"))
    chosen = listed if listed else [e for e, _, _ in recorder.created]
    where = {id(e): (f, l) for e, f, l in recorder.created}
    for ext in chosen:
        file, line = where.get(id(ext), (None, 0))
        extensions.append(describe(ext, file, line, recorder.kinds.get(id(ext), "Extension"), project))
    info.update({
        "setup_called": bool(recorder.setup_calls),
        "setup_line": setup_line,
        "from_setup": bool(listed),
        "build_ext": build_ext,
        "requirements": requirements,
        "extensions": extensions,
    })
    return info


def one_line(exc, project):
    tb = traceback.extract_tb(exc.__traceback__)
    file, line = project_frame(project, tb)
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    if file:
        return f"{os.path.relpath(file, project)}:{line}: {text}"
    return text


def fail(line):
    # The last line of the output, after whatever the script printed.
    sys.stdout.flush()
    print(line, file=sys.stderr, flush=True)


def main():
    args = parse_args()
    script = os.path.abspath(args.setup_py)
    project = os.path.dirname(script)
    args.out, args.cuda_home = os.path.abspath(args.out), os.path.abspath(args.cuda_home)
    make_cuda_home(args.cuda_home)
    os.environ.update({"CUDA_HOME": args.cuda_home, "CUDA_PATH": args.cuda_home, "FORCE_CUDA": "1"})
    os.chdir(project)
    sys.path[0] = project  # as `python setup.py` has it
    sys.dont_write_bytecode = True

    info = {"python": "%d.%d" % sys.version_info[:2], "python_include": sysconfig.get_paths()["include"],
            "platform": args.platform, "cuda_home": args.cuda_home, "project": project, "torch": None}
    import setuptools  # noqa: F401  (before the stand-ins and the emulation)
    import setuptools.command.build_ext  # noqa: F401
    import setuptools.extension  # noqa: F401
    # What build scripts import, loaded while the platform is still the real one.
    import glob, pathlib, platform, shutil, subprocess, tempfile  # noqa: F401,E401

    torch = cpp_extension = None
    if not args.no_torch:
        try:
            import torch
            import torch.utils.cpp_extension as cpp_extension
            info["torch"] = {"version": str(torch.__version__).split("+")[0],
                             "cpp_extension": os.path.abspath(cpp_extension.__file__),
                             "include_paths": list(cpp_extension.include_paths())}
        except Exception:
            for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
                del sys.modules[name]
            torch = cpp_extension = None
    if cpp_extension is None:
        torch, cpp_extension = standin_torch(args.cuda_home, setuptools)
    cuda_looks_available(torch, cpp_extension, args.cuda_home)

    recorder = Recorder(project)
    recorder.hook_extension(setuptools)
    cpp_extension.CppExtension = recorder.tag(cpp_extension.CppExtension, "CppExtension")
    cpp_extension.CUDAExtension = recorder.tag(cpp_extension.CUDAExtension, "CUDAExtension")
    record = recorder.setup
    setuptools.setup = record
    try:
        import distutils.core
        distutils.core.setup = record
    except ImportError:
        pass
    emulate_platform(args.platform, cpp_extension)
    sys.argv = ["setup.py", "build_ext"]

    with open(script, "rb") as f:
        code = compile(f.read(), script, "exec")
    scope = {"__name__": "__main__", "__file__": script, "__builtins__": builtins}
    try:
        exec(code, scope)
    except SystemExit as e:
        if e.code not in (None, 0):
            fail(f"setup.py exited with {e.code}")
            return 1
    except BaseException as e:  # noqa: B902  the script's failure, whatever it is
        fail(one_line(e, project))
        return 1
    with open(args.out, "w") as f:
        json.dump(report(recorder, project, info), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
