#!/usr/bin/env bash
# Benchmark: `torchabi audit --torch INSTALL LIB` against what answers the
# same question today, `ldd -r LIB` (the dynamic linker relocating LIB and
# every library it needs, then listing what stayed undefined).
#
#   bench/audit_torch/run.sh                 # REPS=10 runs per measurement
#   BUILD_DIR=build-x REPS=20 bench/audit_torch/run.sh
#
# Medians of wall and CPU time (user+sys of every process), warm page cache,
# output discarded; ratio = ldd / torchabi (> 1: torchabi is faster). Also
# torchabi without --torch (what an audit costs anyway) and one run over
# several libraries (each install's export tables are read once per run).
#
# ldd -r needs libraries it can load. Bookworm's libtorch 1.13
# (/usr/lib/x86_64-linux-gnu) loads here; Debian sid's 2.14 (unpacked by
# scripts/fetch-torch.sh) does not (it needs a newer glibc and libraries
# bookworm lacks), so for 2.14 ldd -r runs over export stubs (same names and
# exported symbols, no code; tests/support/make_export_stubs.py), which makes
# ldd's side far cheaper than real libraries would: that ratio is a lower bound.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
reps=${REPS:-10}
bookworm=${BOOKWORM_LIBDIR:-/usr/lib/x86_64-linux-gnu}
sid=$(dirname "$(ls "$build"/torch-sid/root/usr/lib/*/libtorch_cpu.so 2>/dev/null | head -1)")
loader=$(readelf -lW /bin/true | sed -n 's/.*interpreter: \([^]]*\)].*/\1/p')

for tool in "$torchabi" ldd python3 cc readelf; do
  command -v "$tool" >/dev/null || { echo "bench: $tool not found (build torchabi first: scripts/build.sh)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { python3 "$root/bench/audit/measure.py" "$reps" -- "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

legacy=$build/fixtures/legacy_ext/liblegacy_ext.so
legacy_pip=$build/fixtures/legacy_ext/liblegacy_ext_pip.so
stable=$build/fixtures/stable_ext/libstable_ext.so
stable212=$build/fixtures/stable_ext/libstable_ext_2_12.so

# compare LABEL INSTALL LIB LIBRARY_PATH [PRELOAD]: ldd -r as ldd runs it
# (LD_TRACE_LOADED_OBJECTS, bind now, warn), the loader called directly so a
# preload (torch loaded globally, for libraries that link no libtorch) goes
# into the traced library only.
compare() {
  local label=$1 install=$2 lib=$3 path=$4 preload=${5:-}
  [ -f "$lib" ] || { echo "skip $label: $lib not built"; return; }
  local pre=()
  [ -n "$preload" ] && pre=(--preload "$preload")
  read -r t_wall t_cpu <<<"$(measure "$torchabi" audit -q --torch "$install" "$lib")"
  read -r l_wall l_cpu <<<"$(measure env LD_LIBRARY_PATH="$path" LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes \
    "$loader" "${pre[@]}" "$lib")"
  printf '%-34s | torchabi wall %7s cpu %7s ms | ldd -r wall %7s cpu %7s ms | ratio wall %6sx cpu %6sx\n' \
    "$label" "$t_wall" "$t_cpu" "$l_wall" "$l_cpu" "$(ratio "$l_wall" "$t_wall")" "$(ratio "$l_cpu" "$t_cpu")"
}

echo "torchabi: $torchabi ($("$torchabi" --version)); load average: $(cut -d' ' -f1-3 /proc/loadavg); median of $reps runs"
for lib in "$legacy" "$stable"; do
  [ -f "$lib" ] || continue
  read -r w c <<<"$(measure "$torchabi" audit -q "$lib")"
  echo "without --torch: $(basename "$lib"): wall $w ms, cpu $c ms"
done
echo
echo "== bookworm's libtorch 1.13 ($bookworm): real libraries"
compare "legacy_ext (needs *.so.1.13)" "$bookworm" "$legacy" ""
compare "legacy_ext_pip (needs *.so)" "$bookworm" "$legacy_pip" "$bookworm"
# A stable extension links no libtorch: the loader sees torch only when preloaded.
compare "stable_ext (links no libtorch)" "$bookworm" "$stable" "" "$bookworm/libtorch_cpu.so"

if [ "$sid" = . ] || [ ! -e "$sid/libtorch_cpu.so" ]; then
  echo; echo "== Debian sid's libtorch: not unpacked (run scripts/fetch-torch.sh); skipped"
  exit 0
fi
echo
why=$(ldd -r "$sid/libtorch_cpu.so" 2>&1 | grep -m1 -E "not found" || true)
echo "== Debian sid's libtorch ($sid): ldd -r cannot load it here (${why:-unknown reason}); ldd runs over export stubs"
python3 "$root/tests/support/make_export_stubs.py" "$work/stubs" \
  "$sid/libc10.so=libc10.so.1.13,libc10.so" "$sid/libtorch_cpu.so=libtorch_cpu.so.1.13,libtorch_cpu.so" >/dev/null
compare "legacy_ext (needs *.so.1.13)" "$sid" "$legacy" "$work/stubs"
compare "legacy_ext_pip (needs *.so)" "$sid" "$legacy_pip" "$work/stubs"
compare "stable_ext (links no libtorch)" "$sid" "$stable" "$work/stubs" "$work/stubs/libtorch_cpu.so"

echo
echo "== one run, several libraries and both installs (export tables read once per install)"
libs=()
for l in "$legacy" "$legacy_pip" "$stable" "$stable212"; do [ -f "$l" ] && libs+=("$l"); done
read -r w c <<<"$(measure "$torchabi" audit -q --torch "$bookworm" --torch "$sid" "${libs[@]}")"
echo "torchabi audit --torch 1.13 --torch 2.14 (${#libs[@]} libraries): wall $w ms, cpu $c ms"

# The case the issue sizes: a site-packages of 100 extension libraries against
# one torch. Copies of the fixture libraries under distinct names (as in a
# real environment, most are unrelated packages' libraries). torchabi reads
# the install's export tables once; ldd -r relocates each library and every
# library it needs, 100 times (the real 1.13 libraries: ldd can load those).
echo
echo "== a 100-library site-packages against bookworm's libtorch 1.13"
site=$work/site-packages
mkdir -p "$site"
srcs=()
for l in "$legacy" "$legacy_pip" "$stable" "$stable212"; do [ -f "$l" ] && srcs+=("$l"); done
for i in $(seq 0 99); do
  src=${srcs[$((i % ${#srcs[@]}))]}
  mkdir -p "$site/pkg$i"
  cp "$src" "$site/pkg$i/_C$i.so"
done
read -r t_wall t_cpu <<<"$(measure "$torchabi" audit -q --torch "$bookworm" "$site")"
ldd_all() {
  for so in "$site"/pkg*/_C*.so; do
    LD_TRACE_LOADED_OBJECTS=1 LD_WARN=yes LD_BIND_NOW=yes LD_LIBRARY_PATH="$bookworm" \
      "$loader" --preload "$bookworm/libtorch_cpu.so" "$so" >/dev/null 2>&1 || true
  done
}
export -f ldd_all
export site bookworm loader
read -r l_wall l_cpu <<<"$(measure bash -c ldd_all)"
printf '100 libraries | torchabi audit --torch: wall %s cpu %s ms | ldd -r each: wall %s cpu %s ms | ratio wall %sx cpu %sx\n' \
  "$t_wall" "$t_cpu" "$l_wall" "$l_cpu" "$(ratio "$l_wall" "$t_wall")" "$(ratio "$l_cpu" "$t_cpu")"
