#!/usr/bin/env bash
# Benchmark: `torchabi audit` against what users run today to find unstable
# imports, `nm -D --undefined-only X | c++filt`, on Debian's libtorch_cpu.so
# (~120 MB) and on small fixture extensions. Then shows that torchabi's time
# does not grow with file size: a fixture padded with a huge non-symbol
# section costs what the unpadded one does.
#
#   bench/audit/run.sh                  # REPS=20 runs per measurement
#   BUILD_DIR=build-x REPS=50 bench/audit/run.sh
#
# Prints the median wall time of each command (warm page cache, output
# discarded) and the ratio nm|c++filt / torchabi (> 1: torchabi is faster).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
reps=${REPS:-20}
libtorch=${LIBTORCH:-/usr/lib/x86_64-linux-gnu/libtorch_cpu.so}
pad_mb=${PAD_MB:-512}

for tool in "$torchabi" nm c++filt objcopy; do
  command -v "$tool" >/dev/null || { echo "bench: $tool not found (build torchabi first: scripts/build.sh)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median wall time in milliseconds of `bash -c CMD`, after one warm-up run.
median_ms() {
  local cmd=$1 times=()
  bash -c "$cmd" >/dev/null 2>&1 || true
  for ((i = 0; i < reps; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    bash -c "$cmd" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f", m / 1000}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

compare() {
  local label=$1 file=$2
  [ -f "$file" ] || { echo "skip $label: $file not found"; return; }
  local size t_abi t_nm
  size=$(stat -L -c %s "$file")
  t_abi=$(median_ms "'$torchabi' audit '$file'")
  t_nm=$(median_ms "nm -D --undefined-only '$file' | c++filt")
  printf '%-28s %10s B   torchabi %8s ms   nm|c++filt %8s ms   ratio %6sx\n' \
    "$label" "$size" "$t_abi" "$t_nm" "$(ratio "$t_nm" "$t_abi")"
}

echo "torchabi: $torchabi ($("$torchabi" --version))"
echo "median of $reps runs each, warm cache; ratio = (nm|c++filt time) / (torchabi time)"
echo
compare "libtorch_cpu.so (Debian)" "$(readlink -f "$libtorch")"
compare "legacy_ext (at::/c10::)" "$build/fixtures/legacy_ext/liblegacy_ext.so"
compare "stable_ext (C shim)" "$build/fixtures/stable_ext/libstable_ext.so"
compare "stable_ext_2_12" "$build/fixtures/stable_ext/libstable_ext_2_12.so"

# Size independence: the same library plus a large section nobody reads.
small="$build/fixtures/legacy_ext/liblegacy_ext.so"
[ -f "$small" ] || small="$build/fixtures/stable_ext/libstable_ext.so"
echo
echo "size independence: $(basename "$small") vs. a copy padded with a ${pad_mb} MB non-symbol section"
head -c "$((pad_mb * 1024 * 1024))" /dev/urandom >"$work/pad.bin"
objcopy --add-section .bench_padding="$work/pad.bin" --set-section-flags .bench_padding=noload,readonly \
  "$small" "$work/padded.so"
rm -f "$work/pad.bin"
t_small=$(median_ms "'$torchabi' audit '$small'")
t_padded=$(median_ms "'$torchabi' audit '$work/padded.so'")
printf '%-28s %10s B   torchabi %8s ms\n' "unpadded" "$(stat -c %s "$small")" "$t_small"
printf '%-28s %10s B   torchabi %8s ms   (padded/unpadded time %sx)\n' "padded" "$(stat -c %s "$work/padded.so")" \
  "$t_padded" "$(ratio "$t_padded" "$t_small")"
