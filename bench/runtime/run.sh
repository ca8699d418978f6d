#!/bin/sh
# Builds and runs the runtime benchmarks: the cost of one boxed call through
# the reference runtime (Google Benchmark), and a whole `torchabi run` of
# every fixture against `python3 -c "import torch"`.
# Usage: bench/runtime/run.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
cmake -S "$src" -B "$build" >/dev/null
cmake --build "$build" -j2 --target torchabi torchabi_runtime_fixtures runtime_boxed_call_bench
echo "== one boxed call (CPU time per call)"
"$build/bench/runtime/runtime_boxed_call_bench" --benchmark_min_time=0.5
echo "== start + load + run of every runtime fixture vs import torch"
python3 "$here/compare_startup.py" "$build"
