#!/usr/bin/env bash
# bench/accuracy/build_imports: lint's predicted shim imports of each stable
# TU against what g++ really imports (nm -u), on fixtures/real_stable built
# with the real 2.14.1 headers, at each file's lowest target and without a
# target, at -O0 and -O2.
#   bench/accuracy/build_imports/run.sh [BUILD_DIR]
# Needs the build's fixtures (scripts/build.sh -DTORCHABI_BUILD_TESTS=ON after
# scripts/fetch-torch.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built (scripts/build.sh)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "bench: $build/compile_commands.json missing" >&2; exit 2; }
exec python3 "$here/bench.py" "$build"
