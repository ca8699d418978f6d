#!/usr/bin/env bash
# How long building torchabi takes from scratch, and where the time goes:
# a fresh build tree (tests off, as the README's first command builds it),
# every compile timed by time-compile.sh, then the wall time, the compile CPU
# time per library and the slowest files.
#
#   bench/build/run.sh [TARGET...]     (default: torchabi; JOBS=nproc; BUILD_TYPE=Release;
#                                       CMAKE_ARGS="-DTORCHABI_UNITY_BUILD=OFF" to compare)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
targets=("${@:-torchabi}")
dir=$(mktemp -d /tmp/torchabi-build-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
export TORCHABI_COMPILE_TIMES=$dir/times.log
: >"$TORCHABI_COMPILE_TIMES"
cmake -S "$root" -B "$dir/build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DTORCHABI_BUILD_TESTS=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$root/bench/build/time-compile.sh" ${CMAKE_ARGS:-} >"$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log" >&2; exit 1; }
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done
start=$(date +%s.%N)
cmake --build "$dir/build" -j "${JOBS:-$(nproc)}" "${args[@]}" >"$dir/build.log" 2>&1 ||
  { tail -30 "$dir/build.log" >&2; exit 1; }
end=$(date +%s.%N)
printf 'build of %s (%s, %s jobs on %s cores): wall %.0f s, compile CPU %.0f s in %d files\n' \
  "${targets[*]}" "${BUILD_TYPE:-Release}" "${JOBS:-$(nproc)}" "$(nproc)" "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" \
  "$(awk '{s+=$1} END {print s}' "$TORCHABI_COMPILE_TIMES")" "$(wc -l <"$TORCHABI_COMPILE_TIMES")"
# Time during which fewer compiles ran than there were jobs: a library
# waiting for another, or one long batch at the end.
awk '{ print $3, 1; print $4, -1 }' "$TORCHABI_COMPILE_TIMES" | sort -n |
  awk -v jobs="${JOBS:-$(nproc)}" 'NR > 1 && c < jobs { idle += (jobs - c) * ($1 - p) } { c += $2; p = $1 }
    END { printf "job slots idle between the first and the last compile: %.0f s\n", idle }'
echo "compile CPU per library:"
awk '{n=split($2,a,"/"); t=a[2]; s[t]+=$1; c[t]++} END {for (k in s) printf "  %6.1f s %3d files  %s\n", s[k], c[k], k}' \
  "$TORCHABI_COMPILE_TIMES" | sort -rn | head -12
echo "slowest files:"
sort -rn "$TORCHABI_COMPILE_TIMES" | head -10 | awk '{printf "  %6.1f s  %s\n", $1, $2}'
