"""torchabi: checks PyTorch C++/CUDA extensions against the LibTorch stable ABI.

This package is a thin wrapper: the tool is the native binary in bin/ next to
this file (with its reference runtime in lib/torchabi-runtime/, the libclang it
parses with and that library's own dependencies in lib/), which the
`torchabi` command runs in place of the Python interpreter.
"""
import os

__version__ = "@VERSION@"

_HERE = os.path.dirname(os.path.abspath(__file__))


def binary():
    """Path of the torchabi executable shipped in this package."""
    return os.path.join(_HERE, "bin", "torchabi")
