#!/usr/bin/env bash
# bench/accuracy/migrate: migrate plans against hand-written ports (pairs/)
# and the facts of the port PyTorch's documentation cites (cited_port.tsv).
#   bench/accuracy/migrate/run.sh [BUILD_DIR]
# Needs Debian's libtorch-dev (the legacy headers) and python3-yaml.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built (scripts/build.sh)" >&2; exit 2; }
[ -f /usr/include/torch/extension.h ] || { echo "bench: Debian's libtorch-dev is not installed" >&2; exit 2; }
py=$(ls -d /usr/include/python3.* | head -n1)
# The real 2.14.1 stable headers (scripts/fetch-torch.sh) for compiling what --fix writes.
real="$build/torch-sid/root/usr/include"
[ -d "$real/torch/csrc/stable" ] && export REAL_TORCH_INCLUDE="$real"
exec python3 "$here/bench.py" "$build/torchabi" -std=c++17 -I/usr/include/torch/csrc/api/include "-I$py" -DTORCH_EXTENSION_NAME=bench
