"""`python -m torchabi ...`: replaces this Python process with the native
program (the `torchabi` command pip installed), so that the tool's exit code,
signals and output are its own."""
import os
import sys


def main():
    from torchabi import binary

    exe = binary()
    argv = sys.argv[1:]
    # `torchabi scan` runs its Dask front end on an interpreter with Dask:
    # this one when it has it.
    if argv[:1] == ["scan"] and not os.environ.get("TORCHABI_SCAN_PYTHON"):
        import importlib.util

        if importlib.util.find_spec("distributed") is not None:
            os.environ["TORCHABI_SCAN_PYTHON"] = sys.executable
    try:
        os.execv(exe, ["torchabi"] + argv)
    except OSError as e:
        sys.stderr.write("torchabi: cannot run %s: %s\n" % (exe, e.strerror))
        return 2


if __name__ == "__main__":
    sys.exit(main())
