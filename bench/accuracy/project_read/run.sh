#!/usr/bin/env bash
# bench/accuracy/project_read: project mode against hand-written ground truth
# (projects.json), asking the build system versus reading its files.
#   bench/accuracy/project_read/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built (scripts/build.sh)" >&2; exit 2; }
exec python3 "$here/bench.py" "$build"
