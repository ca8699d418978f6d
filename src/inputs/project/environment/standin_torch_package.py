"""The `torch` a CMake configure's own Python imports when torchabi runs the
configure: vLLM-derived projects ask it for their torch paths and flags
(`python -c "import torch; print(torch.utils.cmake_prefix_path)"`,
`from torch.utils.cpp_extension import COMMON_NVCC_FLAGS`) and stop with
"Failed to locate torch path" on a machine without torch.

This file is torch/__init__.py of a directory put first on the configure's
PYTHONPATH (src/inputs/project/environment/standin_torch_package.cpp writes
it there with record_setup.py and standin.json). Importing it gives the
interpreter's own torch when it has one as new as the headers in use, else
the stand-in torch setup.py scripts run with (record_setup.standin_torch),
whose paths lead to the headers torchabi lints with. Using the stand-in
leaves a file `used` next to standin.json, for the report."""

import json
import os
import sys

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _drop_torch_modules():
    for name in [m for m in sys.modules if m == "torch" or m.startswith("torch.")]:
        del sys.modules[name]


def _real_torch(headers_release, older_than_headers):
    """The interpreter's torch, imported past this directory; None when it
    has none, or one older than the headers."""
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
    _drop_torch_modules()
    try:
        import torch as real
        if older_than_headers(str(getattr(real, "__version__", "")), headers_release):
            raise ImportError("older than the headers")
        return real
    except Exception:  # noqa: BLE001  any failure of the real one means the stand-in
        _drop_torch_modules()
        return None
    finally:
        sys.path[:] = saved


def _install():
    if _HERE not in sys.path:
        sys.path.insert(0, _HERE)
    import record_setup as rs

    with open(os.path.join(_HERE, "standin.json")) as f:
        config = json.load(f)
    if _real_torch(config.get("torch_version"), rs.older_than_headers) is not None:
        return
    try:
        import setuptools
    except ImportError:
        setuptools = None

    given = rs.Given()
    rs.standin_torch(config["cuda_home"], setuptools, rs.load_surface(config.get("surface")),
                     config.get("torch_version") or rs.STANDIN_TORCH_VERSION, config["cuda_version"], given,
                     config.get("include_dir"))
    torch = sys.modules["torch"]
    rs.cuda_looks_available(torch, torch.utils.cpp_extension, config["cuda_home"], config["cuda_version"])
    try:
        with open(os.path.join(_HERE, "used"), "a") as f:
            f.write(" ".join(sys.argv) + "\n")
    except OSError:
        pass


_install()
