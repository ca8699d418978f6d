#!/usr/bin/env bash
# bench/accuracy/real_stable: precision of source checks on the real repositories'
# stable TUs (see bench.py).  run.sh [BUILD_DIR] [--only NAME,...] [--rerun] [--cached] [--unclassified] [--timeout S]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then build=$1; shift; fi
build=$(cd "$build" 2>/dev/null && pwd || echo "$build")  # the check runs in each repository
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built" >&2; exit 2; }
exec python3 "$here/bench.py" "$build/torchabi" "$build/torch-sid/root/usr/include" "$@"
