#!/usr/bin/env python3
"""Generates N artifacts for the scan benchmark from the fixture libraries.

Kinds rotate through stable (floor 2.10), stable 2.12, legacy (unstable C++),
CUDA 12 and CUDA 11 libraries; containers rotate through wheels, .conda and
.tar.bz2 packages (made by our fixtures' make_wheel and make_conda). Each
artifact has its own name and version, so its own bytes and sha256.

  gen_artifacts.py BUILD_DIR OUTDIR N
"""
import os
import subprocess
import sys


def main(build, out, n):
    fx = os.path.join(build, "fixtures")
    libs = [("stable", f"{fx}/stable_ext/libstable_ext.so"), ("ext212", f"{fx}/stable_ext/libstable_ext_2_12.so"),
            ("legacy", f"{fx}/legacy_ext/liblegacy_ext.so"), ("cuda12", f"{fx}/cuda_ext/libcuda_ext12.so"),
            ("cuda11", f"{fx}/cuda_ext/libcuda_ext11.so")]
    libs = [(k, p) for k, p in libs if os.path.exists(p)]
    if len(libs) < 4:
        sys.exit(f"gen_artifacts: the fixture libraries are not built under {fx} (build torchabi_fixtures)")
    make_wheel, make_conda = f"{fx}/wheels/torchabi_make_wheel", f"{fx}/conda/torchabi_make_conda"
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        kind, lib = libs[i % len(libs)]
        name, version = f"{kind}_{i:04d}", f"1.{i % 7}"
        # Every third package states a too-old requirement for its floor.
        floor = "2.12" if kind == "ext212" else "2.10"
        low = "2.9" if i % 3 == 0 else floor
        container = (i // len(libs)) % 3
        if container == 0:
            path = f"{out}/{name}-{version}-cp311-cp311-linux_x86_64.whl"
            cmd = [make_wheel, "--out", path, "--name", name, "--version", version, "--requires", f"torch>={low}",
                   f"{name}/_C.cpython-311-x86_64-linux-gnu.so={lib}"]
        else:
            path = f"{out}/{name}-{version}-py311_0.{'conda' if container == 1 else 'tar.bz2'}"
            cmd = [make_conda, "--out", path, "--name", name, "--version", version, "--depends", f"pytorch >={low}",
                   f"lib/python3.11/site-packages/{name}/_C.cpython-311-x86_64-linux-gnu.so={lib}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
