#!/usr/bin/env bash
# Second command of the README (and what CI runs): install what is missing,
# build everything, run the whole test suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" --timeout 600
