#!/usr/bin/env bash
# Second command of the README (and what CI runs): install what is missing,
# fetch Debian's newest PyTorch packages (headers and libraries, unpacked into
# the build tree; tests that need them skip with the reason if this fails),
# build everything, run the whole test suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/fetch-torch.sh" "$build/torch-sid" >/dev/null || true
# A newer CMake for projects that ask for one (Debian bookworm-backports;
# project mode uses it, tests that need it skip without it).
"$root/scripts/fetch-cmake.sh" >/dev/null || true
# The old glibc the wheel's program is linked against: with it configured,
# the build links that program too and the wheel test runs alongside the
# others (tests/CMakeLists.txt); without it (no mirror) the test skips.
sysroot=$("$root/scripts/fetch-glibc-sysroot.sh" 2>/dev/null) || sysroot=""
"$root/scripts/build.sh" -DTORCHABI_BUILD_TESTS=ON ${sysroot:+"-DTORCHABI_GLIBC_SYSROOT=$sysroot"}
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" --timeout 600
