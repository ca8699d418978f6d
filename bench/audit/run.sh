#!/usr/bin/env bash
# Benchmark: `torchabi audit` against what users run today to find unstable
# imports, `nm -D --undefined-only X | c++filt`, on Debian's libtorch_cpu.so
# (~120 MB) and on small fixture extensions. Then shows that torchabi's time
# does not grow with file size: a fixture padded with a huge section nobody
# reads costs what the unpadded one does.
#
#   bench/audit/run.sh                     # REPS=20 runs per measurement
#   BUILD_DIR=build-x REPS=50 bench/audit/run.sh
#
# For each file: median wall time and median CPU time (user+sys of every
# process, both sides of the pipeline) of each command, warm page cache,
# output discarded, and the ratios pipeline / torchabi (> 1: torchabi is
# faster). On a busy machine wall times include waiting for a core; CPU times
# do not. torchabi's bare process start-up (--version) is printed too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
reps=${REPS:-20}
libtorch=${LIBTORCH:-/usr/lib/x86_64-linux-gnu/libtorch_cpu.so}
pad_mb=${PAD_MB:-512}

for tool in "$torchabi" nm c++filt objcopy python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool not found (build torchabi first: scripts/build.sh)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { python3 "$here/measure.py" "$reps" -- "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

compare() {
  local label=$1 file=$2
  [ -f "$file" ] || { echo "skip $label: $file not found"; return; }
  read -r abi_wall abi_cpu <<<"$(measure "$torchabi" audit "$file")"
  read -r nm_wall nm_cpu <<<"$(measure nm -D --undefined-only "$file" '|' c++filt)"
  printf '%-26s %10s B | wall %7s vs %7s ms %6sx | cpu %7s vs %7s ms %6sx\n' \
    "$label" "$(stat -L -c %s "$file")" "$abi_wall" "$nm_wall" "$(ratio "$nm_wall" "$abi_wall")" \
    "$abi_cpu" "$nm_cpu" "$(ratio "$nm_cpu" "$abi_cpu")"
}

echo "torchabi: $torchabi ($("$torchabi" --version)); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median of $reps runs; each cell: torchabi audit vs nm -D --undefined-only | c++filt, then pipeline/torchabi"
read -r w c <<<"$(measure "$torchabi" --version)"
echo "torchabi process start-up alone (--version): wall $w ms, cpu $c ms"
echo
compare "libtorch_cpu.so (Debian)" "$(readlink -f "$libtorch")"
compare "legacy_ext (at::/c10::)" "$build/fixtures/legacy_ext/liblegacy_ext.so"
compare "stable_ext (C shim)" "$build/fixtures/stable_ext/libstable_ext.so"
compare "stable_ext_2_12" "$build/fixtures/stable_ext/libstable_ext_2_12.so"

# Size independence: the same library plus a large section nobody reads.
small="$build/fixtures/legacy_ext/liblegacy_ext.so"
[ -f "$small" ] || small="$build/fixtures/stable_ext/libstable_ext.so"
echo
echo "size independence: $(basename "$small") vs. a copy with an extra ${pad_mb} MB non-symbol section"
head -c "$((pad_mb * 1024 * 1024))" /dev/urandom >"$work/pad.bin"
objcopy --add-section .bench_padding="$work/pad.bin" --set-section-flags .bench_padding=noload,readonly \
  "$small" "$work/padded.so"
rm -f "$work/pad.bin"
read -r small_wall small_cpu <<<"$(measure "$torchabi" audit "$small")"
read -r pad_wall pad_cpu <<<"$(measure "$torchabi" audit "$work/padded.so")"
printf '%-26s %10s B | torchabi wall %7s ms, cpu %7s ms\n' "unpadded" "$(stat -c %s "$small")" "$small_wall" "$small_cpu"
printf '%-26s %10s B | torchabi wall %7s ms, cpu %7s ms  (padded/unpadded: wall %sx, cpu %sx)\n' "padded" \
  "$(stat -c %s "$work/padded.so")" "$pad_wall" "$pad_cpu" "$(ratio "$pad_wall" "$small_wall")" \
  "$(ratio "$pad_cpu" "$small_cpu")"
