"""torchabi: checks PyTorch C++/CUDA extensions against the LibTorch stable ABI.

The `torchabi` command is the native program itself: pip installs it into the
environment's scripts directory (the wheel's torchabi-X.data/scripts/), and it
finds this package (its reference runtime in lib/torchabi-runtime/, the
libclang it parses with and that library's own dependencies in lib/, clang's
headers) from its own location. This package holds those files;
`python -m torchabi ...` runs the program.
"""
import os
import shutil
import sys
import sysconfig

__version__ = "@VERSION@"

_HERE = os.path.dirname(os.path.abspath(__file__))


def binary():
    """Path of the torchabi executable installed with this package."""
    # Where pip puts scripts for this interpreter's scheme (a venv, a system
    # or conda Python): the common case, without reading any metadata.
    p = os.path.join(sysconfig.get_path("scripts"), "torchabi")
    if os.path.isfile(p):
        return p
    # Else the file pip recorded for this distribution (--user, --prefix, ...).
    try:
        from importlib.metadata import PackageNotFoundError, distribution
    except ImportError:  # Python < 3.8 has no importlib.metadata
        distribution = None
    if distribution is not None:
        try:
            for f in distribution("torchabi").files or []:
                if f.name == "torchabi" and f.parent.name == "bin":
                    p = os.path.realpath(str(f.locate()))
                    if os.path.isfile(p):
                        return p
        except PackageNotFoundError:
            pass
    return shutil.which("torchabi") or os.path.join(os.path.dirname(sys.executable), "torchabi")
