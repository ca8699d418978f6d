#!/usr/bin/env bash
# bench/accuracy/migrate_public: migrate plans on public legacy extension sources
# (corpus.tsv; not committed: read from TORCHABI_PUBLIC_LEGACY), with Debian
# bookworm's PyTorch 1.13.1 headers and Debian sid's 2.14.1 headers in one run.
#   bench/accuracy/migrate_public/run.sh [BUILD_DIR]
# Needs Debian's libtorch-dev (the legacy headers) and the 2.14.1 packages
# scripts/fetch-torch.sh unpacks (run here when absent). Exit 77 when the corpus is absent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-${BUILD_DIR:-$root/build}}
corpus=${TORCHABI_PUBLIC_LEGACY:-$HOME/.cache/torchabi/public-legacy}
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built (scripts/build.sh)" >&2; exit 2; }
[ -f /usr/include/torch/extension.h ] || { echo "bench: Debian's libtorch-dev is not installed" >&2; exit 2; }
py=$(ls -d /usr/include/python3.* | head -n1)
sid_root=${TORCHABI_REAL_TORCH_ROOT:-$build/torch-sid/root}
if [ ! -f "$sid_root/.torchabi-fetched" ]; then
  sid_root=$(BUILD_DIR="$build" "$root/scripts/fetch-torch.sh") ||
    { echo "bench: Debian sid's PyTorch 2.14.1 could not be fetched (scripts/fetch-torch.sh)" >&2; exit 2; }
fi
exec python3 "$here/bench.py" "$build/torchabi" "$corpus" "$sid_root/usr/include" "$py"
