#!/usr/bin/env bash
# Benchmark: `torchabi audit` on a large Mach-O and a large PE library against
# what a macOS or Windows developer runs today, here with LLVM's tools:
#   Mach-O: llvm-nm-19 -u X | llvm-cxxfilt-19   (the imports, demangled)
#   PE:     llvm-objdump-19 -p X                (the import table, per DLL)
# The libraries are generated (gen_big.py: N exported functions, each calling
# its own at:: function, every tenth a stable shim) and cross-built with
# clang-19 and lld-19 against stand-in torch libraries, as fixtures/foreign_ext
# does; an ELF twin is measured too, against `nm -D --undefined-only | c++filt`.
#
#   bench/audit_foreign/run.sh                 # N=40000 REPS=10
#   N=100000 REPS=20 BUILD_DIR=build-x bench/audit_foreign/run.sh
#
# Median wall and CPU (user+sys of every process of a pipeline) over REPS runs,
# warm page cache, output discarded; ratio = pipeline / torchabi (> 1: torchabi
# is faster).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
llvm=${LLVM_BIN:-/usr/lib/llvm-19/bin}
n=${N:-40000}
reps=${REPS:-10}
for tool in "$torchabi" "$llvm/clang++" "$llvm/ld64.lld" "$llvm/lld-link" "$llvm/ld.lld" "$llvm/llvm-nm" \
  "$llvm/llvm-cxxfilt" "$llvm/llvm-objdump" "$llvm/llvm-dlltool" python3; do
  [ -x "$tool" ] || command -v "$tool" >/dev/null || { echo "bench: $tool not found" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 "$here/gen_big.py" "$n" big.cpp
cxx=("$llvm/clang++" -std=c++17 -ffreestanding -fno-exceptions -O0 -c big.cpp)
stub_dylib() {  # stub_dylib OBJ ARCH -> libtorch_cpu.dylib exporting every undefined name of OBJ
  # C can't spell C++ names: define them through asm labels (nm's names, leading '_' and all).
  "$llvm/llvm-nm" -u --format=just-symbols "$1" | grep -v '^_*dyld_stub_binder$' |
    awk '{ printf "void f%d(void) __asm__(\"%s\"); void f%d(void) {}\n", NR, $1, NR }' >stub.c
  "$llvm/clang" --target="$2-apple-macos11" -c stub.c -o stub.o
  "$llvm/ld64.lld" -arch "$2" -platform_version macos 11.0 11.0 -dylib -install_name @rpath/libtorch_cpu.dylib \
    stub.o -o libtorch_cpu.dylib
}
echo "generating and cross-building N=$n functions (Mach-O arm64, PE x86-64, ELF x86-64)..." >&2
"${cxx[@]}" --target=arm64-apple-macos11 -o big.macho.o
stub_dylib big.macho.o arm64
"$llvm/ld64.lld" -arch arm64 -platform_version macos 11.0 11.0 -dylib -U dyld_stub_binder \
  -install_name @rpath/libbig.dylib big.macho.o libtorch_cpu.dylib -o libbig.dylib
"${cxx[@]}" --target=x86_64-pc-windows-msvc -o big.obj
{ echo "LIBRARY torch_cpu.dll"; echo "EXPORTS"; "$llvm/llvm-nm" -u --format=just-symbols big.obj | sed 's/^/  /'; } >torch_cpu.def
"$llvm/llvm-dlltool" -m i386:x86-64 -d torch_cpu.def -l torch_cpu.lib
"$llvm/lld-link" /dll /noentry /nodefaultlib /noimplib /out:big.dll big.obj torch_cpu.lib >/dev/null
"${cxx[@]}" --target=x86_64-linux-gnu -fPIC -o big.elf.o
"$llvm/ld.lld" -shared -z undefs big.elf.o -o libbig.so

measure() { python3 "$root/bench/audit/measure.py" "$reps" -- "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
compare() {  # compare LABEL FILE PIPELINE...
  local label=$1 file=$2
  shift 2
  read -r abi_wall abi_cpu <<<"$(measure "$torchabi" audit "$file")"
  read -r ref_wall ref_cpu <<<"$(measure "$@")"
  printf '%-8s %10s B | wall %7s vs %7s ms %6sx | cpu %7s vs %7s ms %6sx | %s\n' "$label" "$(stat -c %s "$file")" \
    "$abi_wall" "$ref_wall" "$(ratio "$ref_wall" "$abi_wall")" "$abi_cpu" "$ref_cpu" "$(ratio "$ref_cpu" "$abi_cpu")" "$*"
}
echo "torchabi: $("$torchabi" --version | head -n1); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median of $reps runs; torchabi audit vs the pipeline; ratio = pipeline / torchabi"
# torchabi must have read every import: the count it reports is the check
# (exit 1: the libraries are unstable, as intended).
{ "$torchabi" audit --format json libbig.dylib big.dll libbig.so || [ $? -eq 1 ]; } | python3 -c '
import json, sys
for s in json.load(sys.stdin)["subjects"]:
    print("  %-12s %s: %s" % (s["facts"].get("format", "ELF"), s["verdict"], s["facts"]["imports"]))'
compare Mach-O libbig.dylib "$llvm/llvm-nm" -u libbig.dylib '|' "$llvm/llvm-cxxfilt"
compare PE big.dll "$llvm/llvm-objdump" -p big.dll
compare PE+filt big.dll "$llvm/llvm-objdump" -p big.dll '|' "$llvm/llvm-cxxfilt"
compare ELF libbig.so "$llvm/llvm-nm" -D -u libbig.so '|' "$llvm/llvm-cxxfilt"
