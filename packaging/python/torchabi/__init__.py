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
    # The file pip recorded for this distribution (the scripts directory of
    # whichever scheme it was installed with: venv, --user, --prefix, ...).
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        try:
            for f in distribution("torchabi").files or []:
                if f.name == "torchabi" and f.parent.name in ("bin", "Scripts"):
                    p = os.path.realpath(str(f.locate()))
                    if os.path.isfile(p):
                        return p
        except PackageNotFoundError:
            pass
    except ImportError:  # Python < 3.8 has no importlib.metadata
        pass
    for scheme in (None, "posix_user"):
        try:
            d = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        p = os.path.join(d, "torchabi")
        if os.path.isfile(p):
            return p
    return shutil.which("torchabi") or os.path.join(os.path.dirname(sys.executable), "torchabi")
