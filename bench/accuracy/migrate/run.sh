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
# TORCHABI_HEADERS=2.14: plan with Debian sid's PyTorch 2.14.1 headers
# (scripts/fetch-torch.sh unpacks them under BUILD_DIR/torch-sid) instead of
# bookworm's 1.13.1 (issue 40: the same plan with every release's headers).
if [ "${TORCHABI_HEADERS:-1.13}" = 2.14 ]; then
  sid="$build/torch-sid/root/usr/include"
  [ -d "$sid/torch/csrc/stable" ] || { echo "bench: $sid missing (scripts/fetch-torch.sh)" >&2; exit 2; }
  torch_flags=(-std=c++20 -isystem "$sid" -isystem "$sid/torch/csrc/api/include")
else
  torch_flags=(-std=c++17 -I/usr/include/torch/csrc/api/include)
fi
exec python3 "$here/bench.py" "$build/torchabi" "${torch_flags[@]}" "-I$py" -DTORCH_EXTENSION_NAME=bench
