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

What a build machine has and the scratch copy lacks is given, and each is
named in the output's "given" list so the report can say what was assumed:
- the stand-in torch is built from --torch-surface (rules/project/
  torch_surface.json, generated from a real torch by
  scripts/gen-torch-surface.py): every name a real torch.utils.cpp_extension,
  torch.version, torch.cuda and torch._C define, and a permissive value for
  any other name a script reads;
- a module the script imports that the interpreter lacks (a build-only
  package: wheel, packaging, setuptools_git_versioning) is a permissive
  stand-in;
- a file of the project the script opens for reading that is not there
  (README.md, version.txt) is created empty (a version file: 0.0.0);
- a git submodule (.gitmodules) that is not checked out is an empty
  directory, and every path below it "exists".
When the script raises after constructing extensions, those are recorded
("partial" names the error): what it built before failing is kept.

Exit status: 0 with the JSON written; 1 when the script raised before
constructing anything, with one line "FILE:LINE: Type: message" on stderr,
last; 2 on bad usage.
"""

import argparse
import builtins
import importlib.abc
import importlib.util
import io
import json
import os
import re
import sys
import sysconfig
import traceback
import types

import record_cmake_drive  # written next to this file (setup_run.cpp, jit_run.cpp)

PLATFORMS = {"linux": ("posix", "Linux"), "darwin": ("posix", "Darwin"), "win32": ("nt", "Windows")}
STANDIN_TORCH_VERSION = "2.10.0"
STANDIN_CUDA_VERSION = "12.8"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--platform", default="linux", choices=sorted(PLATFORMS))
    p.add_argument("--out", required=True)
    p.add_argument("--cuda-home", required=True)
    p.add_argument("--cuda-version", default=STANDIN_CUDA_VERSION)
    p.add_argument("--no-torch", action="store_true", help="use the stand-in cpp_extension even if torch imports")
    p.add_argument("--no-cuda", action="store_true", help="CUDA unavailable: the script's CPU configuration")
    p.add_argument("--torch-surface", help="rules/project/torch_surface.json")
    p.add_argument("--torch-version", help="the release of the headers in use (the stand-in's __version__)")
    p.add_argument("--torch-include", help="the include directory of the headers in use (the stand-in's paths)")
    p.add_argument("--rocm", metavar="ROCM_HOME", help="a ROCm build of torch on an AMD GPU machine (stand-in ROCm there)")
    p.add_argument("--gpu-capability", default="8.0", help="what torch.cuda.get_device_capability() says (MAJOR.MINOR)")
    p.add_argument("--tree", help="the top of the copy the script runs in (default: its directory)")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="set in the environment before the script runs (what its CI sets)")
    p.add_argument("setup_py")
    return p.parse_args()


def make_cuda_home(path, version):
    """An empty CUDA toolkit whose nvcc only tells its version: scripts ask it."""
    for d in ("bin", "include", "lib64"):
        os.makedirs(os.path.join(path, d), exist_ok=True)
    nvcc = os.path.join(path, "bin", "nvcc")
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                f"echo 'Cuda compilation tools, release {version}, V{version}.0'\n")
    os.chmod(nvcc, 0o755)


STANDIN_ROCM_VERSION = "6.4.1"
STANDIN_ROCM_ARCHS = "gfx942;gfx1100"


def make_rocm_home(path):
    """An empty ROCm whose hipcc and rocminfo only tell what scripts ask."""
    for d in ("bin", "include/hip", "lib", "amdgcn/bitcode"):
        os.makedirs(os.path.join(path, d), exist_ok=True)
    tools = {"hipcc": f"echo 'HIP version: {STANDIN_ROCM_VERSION}'",
             "hipconfig": f"echo '{STANDIN_ROCM_VERSION}'",
             "rocminfo": "echo '  Name:                    gfx1100'"}
    for name, line in tools.items():
        tool = os.path.join(path, "bin", name)
        with open(tool, "w") as f:
            f.write(f"#!/bin/sh\n{line}\n")
        os.chmod(tool, 0o755)
    os.makedirs(os.path.join(path, ".info"), exist_ok=True)
    with open(os.path.join(path, ".info", "version"), "w") as f:  # where ROCm keeps its release
        f.write(STANDIN_ROCM_VERSION + "\n")


def rocm_looks_available(torch, cpp_extension, rocm_home):
    """A ROCm build of torch on an AMD GPU machine: torch.version.hip set,
    cpp_extension's ROCm paths, IS_HIP_EXTENSION, and no CUDA toolkit."""
    cpp_extension.ROCM_HOME = cpp_extension.HIP_HOME = rocm_home
    cpp_extension.ROCM_VERSION = tuple(int(x) for x in STANDIN_ROCM_VERSION.split(".")[:2])
    cpp_extension.IS_HIP_EXTENSION = True
    cpp_extension.CUDA_HOME = None
    torch.version.hip = STANDIN_ROCM_VERSION
    torch.version.cuda = None
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_name = lambda *a, **k: "AMD Radeon (stand-in)"
    for name in ("CUDA_HOME", "CUDA_PATH", "FORCE_CUDA"):
        os.environ.pop(name, None)
    os.environ.update({"ROCM_HOME": rocm_home, "ROCM_PATH": rocm_home, "HIP_PATH": rocm_home,
                       "PYTORCH_ROCM_ARCH": os.environ.get("PYTORCH_ROCM_ARCH", STANDIN_ROCM_ARCHS),
                       "PATH": os.path.join(rocm_home, "bin") + os.pathsep + os.environ.get("PATH", "")})


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


class EnvironmentReads:
    """Environment variables the project's own code asked for and was not
    given (os.environ.get, os.getenv, os.environ[...], `in os.environ`): the
    switches a build machine (its CI) sets, reported so the caller can say
    which defaults were taken and run again with the CI's values."""

    _SKIPPED_FILES = ("os.py", "_collections_abc.py", "<frozen os>", "<frozen _collections_abc>")

    def __init__(self, project):
        self.project, self.unset = project, []

    def install(self):
        environ_type = type(os.environ)
        getitem, contains, reads = environ_type.__getitem__, environ_type.__contains__, self

        def recorded_getitem(env, key):
            try:
                return getitem(env, key)
            except KeyError:
                reads.note(key)
                raise

        def recorded_contains(env, key):
            found = contains(env, key)
            if not found:
                reads.note(key)
            return found

        environ_type.__getitem__ = recorded_getitem
        environ_type.__contains__ = recorded_contains

    def note(self, key):
        if not isinstance(key, str) or key in self.unset:
            return
        # The first caller outside os and this recorder must be the project's.
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            if name != __file__ and not name.endswith(self._SKIPPED_FILES):
                if inside(name, self.project):
                    self.unset.append(key)
                return
            frame = frame.f_back


class Given:
    """What the run was given that a build machine would have had."""

    def __init__(self):
        self.items = []  # (what, detail), in order, once each
        self.seen = set()

    def add(self, what, detail):
        if (what, detail) not in self.seen:
            self.seen.add((what, detail))
            self.items.append((what, detail))


_STANDIN_CLASSES = {}


def standin_class(name):
    """The class a permissive name stands for when a script derives from it
    (torch.nn.Module, a build-only package's base command): constructed with
    any arguments, subclassed with any keywords."""
    cls = _STANDIN_CLASSES.get(name)
    if cls is None:
        def __init__(self, *args, **kwargs):
            pass

        def __init_subclass__(cls, **kwargs):
            pass

        module, _, short = name.rpartition(".")
        cls = type(short or "StandIn", (), {"__init__": __init__, "__init_subclass__": classmethod(__init_subclass__),
                                            "__module__": module or "torchabi_stand_in"})
        _STANDIN_CLASSES[name] = cls
    return cls


class Permissive:
    """The stand-in's value for a name it does not model: a value, a
    callable, a base class, a context manager, an empty iterable, a version
    that passes minimum-version checks. Reading one is recorded."""

    def __init__(self, name, given):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_given", given)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return Permissive(f"{self._name}.{attr}", self._given)

    def __call__(self, *args, **kwargs):
        return Permissive(f"{self._name}()", self._given)

    # A base class: one class per name, so that `class Q(torch.nn.modules.lazy.LazyModuleMixin, QLinear)`
    # with `class QLinear(nn.Linear)` has a consistent method resolution order.
    def __mro_entries__(self, bases):
        return (standin_class(self._name),)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __getitem__(self, key):
        return Permissive(f"{self._name}[]", self._given)

    def __contains__(self, item):
        return False

    def __bool__(self):
        return True

    def __str__(self):
        return "0.0.0"

    __fspath__ = __str__

    def __int__(self):
        return 0

    __index__ = __int__

    def __float__(self):
        return 0.0

    # A version string built on: get_version() + "+cu128" (vLLM's setup.py).
    def __add__(self, other):
        if isinstance(other, str):
            return str(self) + other
        return other if isinstance(other, (int, float)) else self

    def __radd__(self, other):
        if isinstance(other, str):
            return other + str(self)
        return other if isinstance(other, (int, float)) else self

    # Module constants computed from one: `EPS0 * scale`, `-x`, `2 ** n`.
    def _arithmetic(self, *other):
        return self

    __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arithmetic
    __floordiv__ = __rfloordiv__ = __mod__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = _arithmetic
    __neg__ = __pos__ = __abs__ = __invert__ = __and__ = __rand__ = __xor__ = __rxor__ = _arithmetic
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _arithmetic

    def __enter__(self):
        return self

    # `torch.Tensor | None` in an annotation evaluated at import.
    def __or__(self, other):
        return self

    __ror__ = __or__

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return other is self

    def __hash__(self):
        return id(self)

    # "new enough": checks such as `if v < min: raise` pass.
    def __lt__(self, other):
        return False

    __le__ = __lt__

    def __gt__(self, other):
        return True

    __ge__ = __gt__


PROBED_DUNDERS = {"__path__", "__file__", "__spec__", "__loader__", "__all__", "__wrapped__", "__package__",
                  "__getattr__", "__dict__", "__class__", "__module__", "__qualname__", "__name__", "__origin__",
                  "__args__", "__signature__", "__annotations__", "__builtins__", "__cached__", "__fspath__",
                  "__mro_entries__", "__set_name__", "__get__", "__set__", "__delete__", "__iter__", "__len__"}


def permissive_module(name, given, why):
    module = types.ModuleType(name)
    module.__path__ = []  # a package: `from x.y import z` works too
    # A path, not None: scripts compute directories from it (os.path.dirname(
    # mod.__file__)); nothing is there, so existence checks still say absent.
    module.__file__ = os.path.join(os.sep, "nonexistent", "torchabi-stand-in", *name.split("."), "__init__.py")

    def missing(attr):
        # What Python itself probes for stays absent; torch.__config__ and
        # other dunder names a script reads are values.
        if attr in PROBED_DUNDERS:
            raise AttributeError(attr)
        given.add("stand-in", f"{name}.{attr} ({why})")
        return Permissive(f"{name}.{attr}", given)

    module.__getattr__ = missing
    return module


def importing_frame():
    """The frame of the `import` statement being resolved (the first one
    outside importlib)."""
    frame = sys._getframe(1)
    while frame is not None:
        file = frame.f_code.co_filename
        if not file.startswith("<frozen") and "importlib" not in file and file != __file__:
            return frame
        frame = frame.f_back
    return None


def from_project(project):
    """True when the import being resolved was written in the project's code."""
    frame = importing_frame()
    return frame is not None and inside(frame.f_code.co_filename, project)


_GUARDED_LINES = {}  # file -> lines inside a try whose handler takes ImportError


def guarded_lines(file):
    """Lines of `file` inside the body of a `try:` that catches ImportError
    (or ModuleNotFoundError, Exception, BaseException, or everything)."""
    if file in _GUARDED_LINES:
        return _GUARDED_LINES[file]
    import ast
    lines = set()
    try:
        with open(file, "rb") as f:
            tree = ast.parse(f.read(), file)
    except (OSError, SyntaxError, ValueError):
        tree = None
    catching = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}

    def names(node):
        if node is None:
            return {"*"}
        if isinstance(node, ast.Tuple):
            return set().union(*(names(e) for e in node.elts))
        if isinstance(node, ast.Attribute):
            return {node.attr}
        return {node.id} if isinstance(node, ast.Name) else set()

    def gives_up(handler):
        # `except ImportError: raise RuntimeError("pip install wheel")`: the
        # module is required after all, and a stand-in serves the script better.
        for n in ast.walk(handler):
            if isinstance(n, ast.Raise):
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute)) and \
                    (getattr(n.func, "id", None) or getattr(n.func, "attr", None)) in ("exit", "_exit", "abort"):
                return True
        return False

    for node in ast.walk(tree) if tree else ():
        handlers = [h for h in getattr(node, "handlers", ()) if names(h.type) & (catching | {"*"})]
        if isinstance(node, ast.Try) and handlers and not any(gives_up(h) for h in handlers):
            for stmt in node.body:
                lines.update(range(stmt.lineno, (getattr(stmt, "end_lineno", None) or stmt.lineno) + 1))
    _GUARDED_LINES[file] = lines
    return lines


def import_is_optional():
    """True when the import being resolved is written inside a try that
    handles its ImportError: the script has its own answer for a missing
    module (`try: import jax except ImportError: jax = None`), and a stand-in
    would make it take the branch for an installed one."""
    frame = importing_frame()
    return frame is not None and frame.f_lineno in guarded_lines(frame.f_code.co_filename)


def is_namespace_package(module):
    """A package without __init__.py, which several distributions share."""
    return module is not None and hasattr(module, "__path__") and getattr(module, "__file__", None) is None


class MissingModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Last on sys.meta_path: a module the project imports that no finder
    has (a build-only package) is a permissive stand-in."""

    def __init__(self, project, given, standin_torch=False):
        self.project, self.given, self.made = project, given, set()
        self.standin_torch = standin_torch

    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        if top == "torch" and name != top and self.standin_torch and from_project(self.project):
            # The stand-in models what build scripts read of torch; a module
            # importing torch._inductor or torch.distributed still imports.
            self.given.add("module", f"{name} (a module of torch the stand-in does not model: permissive)")
            return importlib.util.spec_from_loader(name, self, is_package=True)
        parent = name.rpartition(".")[0]
        if name != top and not any(parent == m or parent.startswith(m + ".") for m in self.made):
            if not (is_namespace_package(sys.modules.get(parent)) and from_project(self.project)
                    and not import_is_optional()):
                return None  # a real package lacks a submodule: its own error
            # `witwin.core` next to the project's `witwin/maxwell`: another
            # distribution's part of a namespace package.
            self.made.add(name)
            self.given.add("module", f"{name} (not installed: another distribution's part of the namespace "
                                     f"package {parent}; a permissive stand-in)")
            return importlib.util.spec_from_loader(name, self, is_package=True)
        if top in ("torch",) or not from_project(self.project):
            return None
        if import_is_optional():
            self.given.add("module", f"{name} (not installed; imported where the script handles its absence, "
                                     "so left absent)")
            return None
        self.made.add(top)
        if name == top:
            self.given.add("module", f"{name} (not installed in this interpreter: a permissive stand-in)")
        return importlib.util.spec_from_loader(name, self, is_package=True)

    def create_module(self, spec):
        return permissive_module(spec.name, self.given, "not installed")

    def exec_module(self, module):
        pass


def alias_vendored(given):
    """packaging is vendored by setuptools: the real thing beats a stand-in."""
    try:
        import packaging  # noqa: F401
        return
    except ImportError:
        pass
    try:
        import setuptools.extern.packaging as vendored
        import setuptools.extern.packaging.version  # noqa: F401
        import setuptools.extern.packaging.specifiers  # noqa: F401
    except ImportError:
        return
    for name, module in list(sys.modules.items()):
        if name.startswith("setuptools.extern.packaging"):
            sys.modules[name.replace("setuptools.extern.", "", 1)] = module
    sys.modules["packaging"] = vendored
    given.add("module", "packaging (setuptools' vendored copy)")


def load_surface(path):
    if not path:
        return {}
    try:
        with open(path) as f:
            return json.load(f).get("modules", {})
    except (OSError, ValueError):
        return {}


def fill_from_surface(module, names, given):
    """Every name of the real module the stand-in does not set itself:
    constants with their real values, functions and classes permissive."""
    for name, entry in names.items():
        if hasattr(module, name) or (name.startswith("__") and name.endswith("__")):
            continue
        kind = entry.get("kind")
        if kind == "constant" and "value" in entry:
            setattr(module, name, entry["value"])
        elif kind == "constant" and entry.get("type") in ("_bool", "bool"):
            setattr(module, name, False)
        else:
            setattr(module, name, Permissive(f"{module.__name__}.{name}", given))
    module.__getattr__ = permissive_module(module.__name__, given, "not in the real module either").__getattr__


class PackageDirectory(list):
    """The stand-in torch's __path__: `torch.__path__[0]` is its directory, as
    build scripts read it to find torch's headers (apex), but the import
    system, which iterates it, finds no submodule there: they are the
    stand-in's, or permissive."""

    def __iter__(self):
        return iter(())


def place_standin(torch, utils, ext, include_dir):
    """Paths of the stand-in torch that lead to the headers in use, laid out
    as an installed torch is (torch/__init__.py, torch/include,
    torch/share/cmake, torch/lib): scripts that compute their include
    directory from torch.__file__, torch.utils.cmake_prefix_path or
    include_paths() find the headers torchabi lints with."""
    if not include_dir:
        return
    root = os.path.dirname(os.path.normpath(include_dir))
    torch.__file__ = os.path.join(root, "__init__.py")
    torch.__path__ = PackageDirectory([root])
    utils.cmake_prefix_path = os.path.join(root, "share", "cmake")
    api = os.path.join(include_dir, "torch", "csrc", "api", "include")
    ext.include_paths = lambda *a, **k: [include_dir] + ([api] if os.path.isdir(api) else [])
    ext.TORCH_LIB_PATH = os.path.join(root, "lib")


class TorchVersion(str):
    """torch.__version__ as torch has it (torch.torch_version.TorchVersion):
    a str that compares as a version with strings, tuples and versions, so
    `torch.__version__ >= "2.6.0"` holds for 2.14.1 (as plain strings it
    does not: "2.14.1" < "2.6.0"), and the script takes its new-torch branch."""

    @staticmethod
    def _release(value):
        if isinstance(value, tuple):
            parts = [int(p) for p in value if isinstance(p, int)]
        else:
            parts = []
            for piece in str(value).split("+")[0].split("."):
                digits = re.match(r"\d+", piece)
                if not digits:
                    break
                parts.append(int(digits.group()))
                if digits.end() != len(piece):  # "0a0", "1rc1": the release ends here
                    break
        while parts and parts[-1] == 0:
            parts.pop()
        return tuple(parts)

    def _compare(self, other):
        if not isinstance(other, (str, tuple)) and not hasattr(other, "release"):
            return None
        mine, theirs = self._release(self), self._release(other)
        return (mine > theirs) - (mine < theirs)

    def __lt__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c >= 0

    def __eq__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c == 0

    def __ne__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c != 0

    __hash__ = str.__hash__


def standin_torch(cuda_home, setuptools, surface, torch_version, cuda_version, given, include_dir=None):
    """Modules torch, torch.version, torch._C, torch.cuda, torch.utils and
    torch.utils.cpp_extension with what build scripts use of them: the names
    of the real modules (surface), the values of the headers in use."""
    try:
        from setuptools.command.build_ext import build_ext
    except ImportError:  # a configure's Python without setuptools (standin_torch_package.py)
        build_ext = object

    torch = types.ModuleType("torch")
    torch.__version__ = TorchVersion(torch_version)
    torch.__file__ = None
    torch.__path__ = PackageDirectory([os.path.join(os.sep, "nonexistent", "torchabi-stand-in", "torch")])
    version = types.ModuleType("torch.version")
    version.__version__ = torch.__version__
    version.cuda = cuda_version
    version.hip = None
    version.git_version = "0" * 40
    version.debug = False
    c = types.ModuleType("torch._C")
    # Every torch since 2.7 (and Debian's) is built with the new libstdc++ ABI.
    c._GLIBCXX_USE_CXX11_ABI = True
    cuda = types.ModuleType("torch.cuda")
    utils = types.ModuleType("torch.utils")
    utils.__path__ = []
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
    ext.SyclExtension = CppExtension
    ext.BuildExtension = BuildExtension
    ext.CUDA_HOME = cuda_home
    ext.ROCM_HOME = ext.HIP_HOME = ext.SYCL_HOME = ext.CUDNN_HOME = ext.ROCM_VERSION = None
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
    ext.get_cxx_compiler = lambda: "c++"
    ext.check_compiler_ok_for_platform = lambda compiler: True
    ext.get_compiler_abi_compatibility_and_version = lambda compiler: (True, (12, 2, 0))
    ext._get_num_workers = lambda verbose: 1
    place_standin(torch, utils, ext, include_dir)
    config = config_module(torch_version)
    torch.__config__ = config
    torch_version_module = types.ModuleType("torch.torch_version")
    torch_version_module.TorchVersion = TorchVersion
    torch_version_module.__version__ = torch.__version__
    torch.torch_version = torch_version_module
    torch.version = version
    torch._C = c
    torch.cuda = cuda
    torch.utils = utils
    utils.cpp_extension = ext
    for m in (torch, version, c, cuda, utils, ext, config, torch_version_module):
        sys.modules[m.__name__] = m
    for m in (torch, version, c, cuda, ext):
        fill_from_surface(m, surface.get(m.__name__, {}), given)
    # torch.cuda's functions are read before cuda_looks_available sets them.
    utils.__getattr__ = permissive_module("torch.utils", given, "not modelled").__getattr__
    given.add("torch", f"stand-in torch {torch_version} (the headers' release), CUDA {cuda_version}")
    return torch, ext


def config_module(torch_version):
    """torch.__config__ as a Linux wheel of the headers' release answers it:
    scripts add -fopenmp only when parallel_info() names OpenMP as ATen's
    backend, and a permissive string would choose the build without it."""
    config = types.ModuleType("torch.__config__")
    config.parallel_info = lambda: ("ATen/Parallel:\n\tat::get_num_threads() : 1\n"
                                    "OpenMP 201511 (a.k.a. OpenMP 4.5)\n\tomp_get_max_threads() : 1\n"
                                    "ATen parallel backend: OpenMP\n")
    config.show = lambda: (f"PyTorch built with:\n  - GCC 13.3\n  - C++ Version: 202002\n"
                           f"  - OpenMP 201511 (a.k.a. OpenMP 4.5)\n  - CPU capability usage: AVX2\n"
                           f"  - Build settings: TORCH_VERSION={torch_version}, USE_OPENMP=ON, USE_CUDA=ON\n")
    config.cxx_flags = lambda: "-D_GLIBCXX_USE_CXX11_ABI=1 -fopenmp -DUSE_FBGEMM -O2 -fPIC"
    return config


def cuda_looks_available(torch, cpp_extension, cuda_home, cuda_version, capability=(8, 0)):
    cpp_extension.CUDA_HOME = cuda_home
    cpp_extension.ROCM_HOME = None
    if getattr(torch.version, "cuda", None) is None:
        torch.version.cuda = cuda_version
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_capability = lambda *a, **k: tuple(capability)
    torch.cuda.get_device_name = lambda *a, **k: "stand-in"


def cuda_unavailable(torch, cpp_extension):
    cpp_extension.CUDA_HOME = None
    for name in ("CUDA_HOME", "CUDA_PATH", "FORCE_CUDA"):
        os.environ.pop(name, None)
    torch.cuda.is_available = lambda: False
    torch.cuda.device_count = lambda: 0


class Placeholders:
    """Files a script reads that a checkout has and the copy lacks."""

    def __init__(self, project, given, tree=None):
        # tree: the top of the copy (the repository around a script that
        # reaches up out of its directory), else the project itself.
        self.project, self.given, self.tree = project, given, tree or project
        self.submodules = []
        self.original_exists = {}

    def read_submodules(self):
        for top in dict.fromkeys((self.tree, self.project)):
            self.read_gitmodules(top)

    def read_gitmodules(self, top):
        path = os.path.join(top, ".gitmodules")
        try:
            with open(path) as f:
                lines = f.read().splitlines()
        except OSError:
            return
        for line in lines:
            key, _, value = line.strip().partition("=")
            if key.strip() != "path":
                continue
            sub = os.path.normpath(os.path.join(top, value.strip()))
            if not inside(sub, self.tree) or sub in self.submodules:
                continue
            try:
                present = bool(os.listdir(sub))
            except OSError:
                present = False
            if not present:
                os.makedirs(sub, exist_ok=True)
                self.submodules.append(sub)
                self.given.add("submodule", f"{os.path.relpath(sub, self.project)} (not checked out: an empty placeholder)")

    def in_submodule(self, path):
        try:
            p = os.path.abspath(os.fspath(path))
        except TypeError:
            return False
        return any(inside(p, s) for s in self.submodules)

    def missing_file(self, path, mode):
        """Creates `path` when the script reads a project file that is not there."""
        if any(m in mode for m in "wax+"):
            return
        try:
            p = os.path.abspath(os.fspath(path))
        except TypeError:
            return
        # The copy's parent directory is ours too: a subproject's script that
        # reads ../README.md finds a placeholder there.
        if not inside(p, os.path.dirname(self.tree)) or os.path.exists(p):
            return
        name = os.path.basename(p).lower()
        text = "0.0.0\n" if "version" in name else ""
        try:
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with io.open(p, "w") as f:
                f.write(text)
        except OSError:
            return
        self.given.add("file", f"{os.path.relpath(p, self.project)} (missing: created {'with 0.0.0' if text else 'empty'})")

    def install(self):
        placeholders = self
        original_open = builtins.open

        def open_(file, mode="r", *args, **kwargs):
            if isinstance(file, (str, bytes, os.PathLike)) and not isinstance(file, bytes):
                placeholders.missing_file(file, mode)
            return original_open(file, mode, *args, **kwargs)

        builtins.open = open_
        io.open = open_
        for module, name in ((os.path, "exists"), (os.path, "isdir"), (os.path, "isfile"), (os.path, "lexists")):
            original = getattr(module, name)

            def check(path, _original=original, _name=name):
                if _original(path):
                    return True
                if placeholders.in_submodule(path):
                    return _name != "isdir" or not os.path.splitext(os.fspath(path))[1]
                return False

            setattr(module, name, check)


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


class BuildReached(Exception):
    """Raised where the build itself would start: what ran before is recorded."""


class StandInCompiler(Permissive):
    """self.compiler of a build_ext run: the platform's compiler type, and
    every method a no-op (overrides wrap spawn, add flags to compiler_so)."""

    def __init__(self, platform_name, given):
        super().__init__("build_ext.compiler", given)
        object.__setattr__(self, "compiler_type", "msvc" if platform_name == "win32" else "unix")
        object.__setattr__(self, "compiler_so", ["cc"])
        object.__setattr__(self, "compiler_cxx", ["c++"])
        object.__setattr__(self, "spawn", lambda *a, **k: None)


def build_bases(cls):
    """The classes of cls's MRO that are torch's BuildExtension or
    setuptools'/distutils' build_ext: where the project's code ends."""
    out = []
    for c in getattr(cls, "__mro__", ()):
        module = getattr(c, "__module__", "")
        if (c.__name__ == "BuildExtension" and module.startswith("torch.utils.cpp_extension")) or \
                (c.__name__ == "build_ext" and module.split(".")[0] in ("setuptools", "distutils")):
            out.append(c)
    return out


def run_build_ext_override(cmdclass, extensions, platform_name, given, project):
    """Runs a project's build_ext subclass up to the point where the build
    would start, so that what its build_extensions() does to the extensions
    first (nunchaku copies extra_compile_args["gcc"] into ["cxx"]) is in the
    recorded flags. The real build is never reached: build_extensions of the
    torch/setuptools bases raises BuildReached, and the extensions are
    mutated in place, so the report describes them as the compiler gets them."""
    cls = (cmdclass or {}).get("build_ext")
    bases = build_bases(cls) if isinstance(cls, type) else []
    if not bases or not extensions:
        return
    own = [c for c in cls.__mro__ if c not in bases and c is not object and not any(issubclass(b, c) for b in bases)]
    if not any("build_extensions" in vars(c) for c in own):
        return

    def reached(self, *args, **kwargs):
        raise BuildReached()

    saved = [(b, vars(b).get("build_extensions")) for b in bases]
    for b, _ in saved:
        b.build_extensions = reached
    # An override that runs CMake itself is stopped at its configure too.
    undo_cmake = record_cmake_drive.intercept(project)
    try:
        from setuptools.dist import Distribution
        command = cls(Distribution({"name": "project", "ext_modules": list(extensions)}))
        command.extensions = list(extensions)
        command.compiler = StandInCompiler(platform_name, given)
        command.build_temp = command.build_lib = os.path.join(project, "build")
        command.build_extensions()
    except (BuildReached, record_cmake_drive.Configured):
        given.add("build_ext", f"{cls.__qualname__}.build_extensions() ran up to the build; its changes to the "
                               "extensions' flags are recorded")
    except BaseException as e:  # noqa: B902  the override's failure, whatever it is
        given.add("build_ext", f"{cls.__qualname__}.build_extensions() failed before the build "
                               f"({one_line(e, project)}): flags it would add are not recorded")
    finally:
        undo_cmake()
        for b, original in saved:
            if original is None:
                del b.build_extensions
            else:
                b.build_extensions = original


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


def older_than_headers(installed, headers):
    """True when the installed torch's major.minor is below the headers'."""
    def key(v):
        parts = []
        for p in (v or "").split("+")[0].split(".")[:2]:
            digits = "".join(c for c in p if c.isdigit())
            parts.append(int(digits) if digits else 0)
        return tuple(parts)
    return bool(headers) and key(installed) < key(headers)


def write_report(path, recorder, project, info, given, partial=None):
    data = report(recorder, project, info)
    data["given"] = [list(g) for g in given.items]
    data["partial"] = partial
    with open(path, "w") as f:
        json.dump(data, f, indent=1)


def main():
    args = parse_args()
    script = os.path.abspath(args.setup_py)
    project = os.path.dirname(script)
    args.out, args.cuda_home = os.path.abspath(args.out), os.path.abspath(args.cuda_home)
    make_cuda_home(args.cuda_home, args.cuda_version)
    if not args.no_cuda:
        os.environ.update({"CUDA_HOME": args.cuda_home, "CUDA_PATH": args.cuda_home, "FORCE_CUDA": "1"})
    os.environ.update(dict(e.partition("=")[::2] for e in args.env))
    os.chdir(project)
    sys.path[0] = project  # as `python setup.py` has it
    sys.dont_write_bytecode = True
    given = Given()

    info = {"python": "%d.%d" % sys.version_info[:2], "python_include": sysconfig.get_paths()["include"],
            "platform": args.platform, "cuda_home": None if args.no_cuda else args.cuda_home, "project": project,
            "torch": None, "cuda": not args.no_cuda}
    import setuptools  # noqa: F401  (before the stand-ins and the emulation)
    import setuptools.command.build_ext  # noqa: F401
    import setuptools.extension  # noqa: F401
    # What build scripts import, loaded while the platform is still the real one:
    # some standard modules import platform-only ones when sys.platform/os.name
    # say so (urllib.request takes _scproxy on darwin, ctypes _ctypes.FormatError
    # on nt), which this interpreter does not have.
    import glob, pathlib, platform, shutil, subprocess, tempfile  # noqa: F401,E401
    for module in ("urllib.request", "ctypes", "ctypes.util", "multiprocessing", "concurrent.futures", "uuid",
                   "tarfile", "zipfile", "getpass", "mimetypes"):
        try:
            importlib.import_module(module)
        except ImportError:
            pass

    torch = cpp_extension = None
    if not args.no_torch:
        try:
            import torch
            import torch.utils.cpp_extension as cpp_extension
            if older_than_headers(str(torch.__version__), args.torch_version):
                given.add("torch", f"the interpreter's torch {torch.__version__} is older than the headers in use "
                                   f"({args.torch_version}): the stand-in torch of the headers' release instead")
                raise ImportError("older than the headers")
            info["torch"] = {"version": str(torch.__version__).split("+")[0],
                             "cpp_extension": os.path.abspath(cpp_extension.__file__),
                             "include_paths": list(cpp_extension.include_paths())}
        except Exception:
            for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
                del sys.modules[name]
            torch = cpp_extension = None
    if cpp_extension is None:
        torch, cpp_extension = standin_torch(args.cuda_home, setuptools, load_surface(args.torch_surface),
                                             args.torch_version or STANDIN_TORCH_VERSION, args.cuda_version, given,
                                             args.torch_include)
    if args.no_cuda:
        cuda_unavailable(torch, cpp_extension)
    else:
        cuda_looks_available(torch, cpp_extension, args.cuda_home, args.cuda_version,
                             tuple(int(x) for x in args.gpu_capability.split(".")))
    if args.rocm:
        make_rocm_home(os.path.abspath(args.rocm))
        rocm_looks_available(torch, cpp_extension, os.path.abspath(args.rocm))
        info["cuda_home"] = None
        info["rocm"] = True

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
    alias_vendored(given)
    sys.meta_path.append(MissingModules(project, given, standin_torch=info["torch"] is None))
    placeholders = Placeholders(project, given, os.path.abspath(args.tree) if args.tree else None)
    placeholders.read_submodules()
    placeholders.install()
    emulate_platform(args.platform, cpp_extension)
    sys.argv = ["setup.py", "build_ext"]
    environment_reads = EnvironmentReads(project)
    environment_reads.install()
    info["environment_unset"] = environment_reads.unset

    with open(script, "rb") as f:
        code = compile(f.read(), script, "exec")
    scope = {"__name__": "__main__", "__file__": script, "__builtins__": builtins}
    failure = None
    try:
        exec(code, scope)
    except SystemExit as e:
        if e.code not in (None, 0):
            failure = f"setup.py exited with {e.code}"
    except BaseException as e:  # noqa: B902  the script's failure, whatever it is
        failure = one_line(e, project)
    if failure is not None and not recorder.created and not recorder.setup_calls:
        fail(failure)  # nothing constructed: the failure is the answer
        return 1
    for attrs, _, _ in recorder.setup_calls:
        run_build_ext_override(attrs.get("cmdclass"), [e for e in (attrs.get("ext_modules") or [])
                                                       if getattr(e, "sources", None)], args.platform, given, project)
    # Extensions without sources built by a build_ext that runs CMake itself:
    # what it would configure, once (the configure is the same on every platform run).
    for attrs, _, _ in recorder.setup_calls:
        exts = attrs.get("ext_modules") or []
        if args.platform != "linux" or not exts or any(getattr(e, "sources", None) for e in exts):
            continue
        record = record_cmake_drive.record_cmake_configure(
            (attrs.get("cmdclass") or {}).get("build_ext"), exts, StandInCompiler(args.platform, given), given,
            project, os.path.join(project, "build", "torchabi-cmake-drive"), lambda e: one_line(e, project))
        if record:
            info["cmake_configure"] = record
            break
    write_report(args.out, recorder, project, info, given, failure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
