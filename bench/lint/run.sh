#!/usr/bin/env bash
# torchabi lint cost per translation unit, as a ratio to what users run
# anyway: `clang++-19 -fsyntax-only` with the same flags. Also the -j speed-up
# and what an unchanged re-run costs with the results cache.
#
#   bench/lint/run.sh [BUILD_DIR]      (default: build/; RUNS=5 repetitions)
#
# Also two generated repositories of TUS=20 translation units that start with
# the same headers (shared preambles): torch/extension.h, and the real 2.14
# stable headers from build/torch-sid (scripts/fetch-torch.sh build/torch-sid),
# ROUNDS=1 alternating rounds each. REPOSITORIES_ONLY=1 measures only those;
# CHECK_SAME=0 skips comparing their reports with --no-preamble (a plain parse
# of every TU more).
#
# Needs libtorch-dev (torch/extension.h) and python3-dev (Python.h) for the
# legacy TU; the stable TU uses the stand-in headers under fixtures/lint.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
TORCHABI=${TORCHABI:-$BUILD/torchabi}
[ -x "$TORCHABI" ] || { echo "run.sh: $TORCHABI not built (cmake --build $BUILD --target torchabi)" >&2; exit 2; }
command -v clang++-19 >/dev/null || { echo "run.sh: clang++-19 not found" >&2; exit 2; }
extra=()
[ "${REPOSITORIES_ONLY:-0}" = 1 ] && extra+=(--only-repositories)
[ "${CHECK_SAME:-1}" = 0 ] && extra+=(--no-check-same)
exec python3 "$ROOT/bench/lint/bench.py" --torchabi "$TORCHABI" --root "$ROOT" --runs "${RUNS:-5}" \
  --repository-tus "${TUS:-20}" --repository-rounds "${ROUNDS:-1}" "${extra[@]}"
