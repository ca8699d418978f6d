#!/usr/bin/env bash
# Accuracy of `torchabi lint` on correct stable-ABI code: lints every file of
# fixtures/real_stable (our own stable extension) against Debian's newest real
# PyTorch headers, at each file's lowest TORCH_TARGET_VERSION and at the
# headers' own release, file by file and as a whole project, and prints the
# false findings (every error or warning is one; goal: 0) per file, the time
# taken, and the lint / `g++ -fsyntax-only` time ratio.
#
#   bench/accuracy/run.sh [BUILD_DIR]      (default: build/)
#
# Fetches the headers with scripts/fetch-torch.sh when they are missing.
# Exit code: 0 when there are no false findings, 1 otherwise, 2 when it cannot run.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
TORCHABI=${TORCHABI:-$BUILD/torchabi}
[ -x "$TORCHABI" ] || { echo "run.sh: $TORCHABI not built (cmake --build $BUILD --target torchabi)" >&2; exit 2; }
command -v g++ >/dev/null || { echo "run.sh: g++ not found" >&2; exit 2; }
TORCH_ROOT=${TORCHABI_REAL_TORCH_ROOT:-$BUILD/torch-sid/root}
if [ ! -f "$TORCH_ROOT/.torchabi-fetched" ]; then
  TORCH_ROOT=$(BUILD_DIR=$BUILD "$ROOT/scripts/fetch-torch.sh") || exit 2
fi
exec python3 "$ROOT/bench/accuracy/bench.py" --torchabi "$TORCHABI" --fixture "$ROOT/fixtures/real_stable" \
  --torch-include "$TORCH_ROOT/usr/include"
