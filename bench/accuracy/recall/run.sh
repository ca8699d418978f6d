#!/usr/bin/env bash
# Recall of `torchabi lint` on legacy code: of the source lines that use an
# unstable torch name, macro or header (listed in fixtures/<file>.lines, next
# to each fixture), how many carry a finding. Covers inactive #if branches,
# templates, CUDA files (parsed with the stand-in toolkit of
# fixtures/cuda_toolkit, or the real one with --real-cuda), a missing CUDA
# library header, and the patterns the AST checks cover.
#
#   bench/accuracy/recall/run.sh [BUILD_DIR] [--real-cuda]   (default: build/)
#
# Prints recall per file and overall, every missed line with its text, and
# the lines with findings that the list does not name. Exit code: 0 at 100%
# recall, 1 below, 2 when it cannot run. Needs libtorch-dev (1.13 headers).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$ROOT/build
EXTRA=()
for a in "$@"; do
  case "$a" in
    --real-cuda) EXTRA+=(--real-cuda) ;;
    *) BUILD=$a ;;
  esac
done
TORCHABI=${TORCHABI:-$BUILD/torchabi}
[ -x "$TORCHABI" ] || { echo "run.sh: $TORCHABI not built (cmake --build $BUILD --target torchabi)" >&2; exit 2; }
[ -f /usr/include/ATen/ATen.h ] || { echo "run.sh: libtorch-dev is not installed (/usr/include/ATen/ATen.h)" >&2; exit 2; }
exec python3 "$ROOT/bench/accuracy/recall/recall.py" --torchabi "$TORCHABI" --root "$ROOT" "${EXTRA[@]}"
