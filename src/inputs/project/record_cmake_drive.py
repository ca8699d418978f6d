"""What a setup.py that drives CMake would configure (inputs/project/setup_run.h).

vLLM and the projects derived from it declare extensions without sources
(CMakeExtension) and a build_ext whose build_extensions() runs
`cmake <source dir> -D... ` itself, with values only the script knows
(VLLM_PYTHON_EXECUTABLE, the build type, the target device). That build_ext
is run here, as record_setup.py runs overrides, with the CMake it would
start intercepted: `cmake --version` and every other non-configure call run
as they would, the first configure's source directory and -D arguments are
recorded, and the build stops there. torchabi then configures that directory
with those arguments (CMake File API), as the build would have.

Imported by record_setup.py, which is written next to this file.
"""

import os
import shlex
import subprocess

CMAKE_NAMES = ("cmake", "cmake3")


class Configured(Exception):
    """Raised where the script's first CMake configure would start."""

    def __init__(self, record):
        super().__init__("configure recorded")
        self.record = record


def command_line(args, kwargs):
    """argv of a subprocess call, or None when it is not one we can read."""
    if kwargs.get("args") is not None:
        args = kwargs["args"]
    if isinstance(args, (str, bytes)):
        if isinstance(args, bytes):
            args = args.decode(errors="replace")
        try:
            return shlex.split(args)
        except ValueError:
            return None
    if isinstance(args, (list, tuple)):
        return [os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else str(a) for a in args]
    return None


def configure_of(argv, cwd, project):
    """{"source": dir relative to the project, "defines": [...]} when argv
    configures a CMake project; None for --build, --install, -E, -P, ..."""
    rest = argv[1:]
    if any(a in ("--build", "--install", "-E", "-P", "--version", "--help", "--find-package") for a in rest):
        return None
    source, defines, i = None, [], 0
    while i < len(rest):
        a = rest[i]
        if a == "-D" and i + 1 < len(rest):
            defines.append(rest[i + 1])
            i += 2
            continue
        if a.startswith("-D") and len(a) > 2:
            defines.append(a[2:])
        elif a == "-S" and i + 1 < len(rest):
            source = rest[i + 1]
            i += 2
            continue
        elif a.startswith("-S") and len(a) > 2:
            source = a[2:]
        elif a in ("-B", "-G", "-T", "-A", "-C") and i + 1 < len(rest):
            i += 2
            continue
        elif not a.startswith("-") and source is None:
            source = a
        i += 1
    if source is None:
        return None
    source = os.path.normpath(os.path.join(cwd or os.getcwd(), source))
    if not os.path.isfile(os.path.join(source, "CMakeLists.txt")):
        return None
    return {"source": os.path.relpath(source, project), "defines": defines}


def intercept(project):
    """Patches subprocess so that a CMake configure raises Configured;
    returns a function that undoes it."""
    names = ("run", "call", "check_call", "check_output", "Popen")
    saved = {n: getattr(subprocess, n) for n in names}

    def wrap(name):
        original = saved[name]

        def call(*args, **kwargs):
            argv = command_line(args[0] if args else None, kwargs)
            if argv and os.path.basename(argv[0]) in CMAKE_NAMES:
                record = configure_of(argv, kwargs.get("cwd"), project)
                if record is not None:
                    raise Configured(record)
            return original(*args, **kwargs)

        return call

    for n in names:
        setattr(subprocess, n, wrap(n))

    def undo():
        for n, f in saved.items():
            setattr(subprocess, n, f)

    return undo


def record_cmake_configure(build_ext, extensions, compiler, given, project, build_dir, describe_failure):
    """Runs build_ext's build_extensions() until its first CMake configure;
    returns that configure's record, or None."""
    if not isinstance(build_ext, type) or not extensions:
        return None
    undo = intercept(project)
    try:
        from setuptools.dist import Distribution
        command = build_ext(Distribution({"name": "project", "ext_modules": list(extensions)}))
        command.extensions = list(extensions)
        command.compiler = compiler
        command.build_temp = os.path.join(build_dir, "temp")
        command.build_lib = os.path.join(build_dir, "lib")
        os.makedirs(command.build_temp, exist_ok=True)
        command.build_extensions()
    except Configured as c:
        record = dict(c.record, build_ext=build_ext.__qualname__)
        given.add("cmake", f"{build_ext.__qualname__}.build_extensions() configures {record['source']} with "
                           f"{len(record['defines'])} -D values: recorded, and the configure run with them")
        return record
    except BaseException as e:  # noqa: B902  the override's failure, whatever it is
        given.add("cmake", f"{build_ext.__qualname__}.build_extensions() failed before configuring CMake "
                           f"({describe_failure(e)})")
        return None
    finally:
        undo()
    return None
