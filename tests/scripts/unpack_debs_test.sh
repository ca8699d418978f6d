#!/usr/bin/env bash
# scripts/unpack-debs.sh and the configure that uses its files, as the README's
# first command meets them on a machine without llvm-19-dev and libclang-19-dev:
# the .debs' headers and static libraries unpacked into a build tree, CMake
# choosing them, the libclang forwarders generated and compiled from them, a
# second run downloading nothing, a new version replacing the old one whole, one package installed and the other unpacked,
# and the error when neither place has them.
# The packages are installed here, so UNPACK_INSTALLED=1 unpacks them anyway,
# and TORCHABI_LLVM_ROOT points where they are not.
#   unpack_debs_test.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchabi-unpack-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Without package lists (apt-get update never ran here) there is nothing to
# download: skipped, with the reason (ctest's SKIP_RETURN_CODE).
for p in llvm-19-dev libclang-19-dev; do
  candidate=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')
  if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
    echo "SKIP: $p has no candidate version in this machine's package lists (run apt-get update)"
    exit 77
  fi
done

UNPACK_INSTALLED=1 "$src/scripts/unpack-debs.sh" "$tmp/build/llvm-dev"
dev=$tmp/build/llvm-dev/usr/lib/llvm-19
for f in include/clang-c/Index.h include/llvm/Object/ObjectFile.h include/llvm/Demangle/Demangle.h \
         lib/libLLVMObject.a lib/libLLVMSupport.a lib/libLLVMDemangle.a; do
  [ -f "$dev/$f" ] || fail "unpacked tree lacks $f"
done
for p in llvm-19-dev libclang-19-dev; do
  want="$p $(apt-cache policy "$p" | awk '/Candidate:/ { print $2 }')"
  grep -qxF "$want" "$tmp/build/llvm-dev/.versions" || fail ".versions does not say '$want'"
done
[ -z "$(find "$tmp/build" -maxdepth 1 -name '.unpack.*')" ] || fail "a work directory was left next to DIR"

# Nothing to do the second time: no file is replaced.
before=$(stat -c %i "$dev/lib/libLLVMObject.a")
UNPACK_INSTALLED=1 "$src/scripts/unpack-debs.sh" "$tmp/build/llvm-dev"
[ "$(stat -c %i "$dev/lib/libLLVMObject.a")" = "$before" ] || fail "the second run unpacked again"

# A new candidate version unpacks DIR again as a whole: nothing of the old one stays.
sed -i 's/^llvm-19-dev .*/llvm-19-dev 0.older/' "$tmp/build/llvm-dev/.versions"
touch "$tmp/build/llvm-dev/usr/left-by-the-old-version"
UNPACK_INSTALLED=1 "$src/scripts/unpack-debs.sh" "$tmp/build/llvm-dev"
[ ! -e "$tmp/build/llvm-dev/usr/left-by-the-old-version" ] || fail "a file of the old version was left"
grep -q '^llvm-19-dev 0.older' "$tmp/build/llvm-dev/.versions" && fail ".versions still names the old version"
[ -f "$dev/lib/libLLVMObject.a" ] || fail "unpacking again lost libLLVMObject.a"
[ -z "$(find "$tmp/build" -maxdepth 1 -name '.unpack.*')" ] || fail "unpacking again left a work directory"

libclang=$(ls /usr/lib/llvm-19/lib/libclang-19.so.1)
cmake -S "$src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DTORCHABI_BUILD_TESTS=OFF -DTORCHABI_BUILD_FIXTURES=OFF \
  -DTORCHABI_LLVM_ROOT="$tmp/no-llvm" -DLIBCLANG_LIBRARY="$libclang" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log" >&2; fail "configure against the unpacked files failed"; }
grep -qF -- "-- LLVM headers and static libraries: $dev; libclang headers: $dev/include" "$tmp/configure.log" ||
  fail "configure did not choose the unpacked files: $(grep 'LLVM headers' "$tmp/configure.log")"
grep -q "^LLVM_.*_LIBRARY:" "$tmp/build/CMakeCache.txt" && fail "LLVM's libraries were cached (they must follow the choice)"
cmake --build "$tmp/build" --target torchabi_libclang_loader -j2 >"$tmp/build.log" 2>&1 ||
  { tail -30 "$tmp/build.log" >&2; fail "the libclang loader did not build from the unpacked headers"; }
grep -q "clang_createIndex" "$tmp/build/src/analyzers/source/libclang_loader/libclang_forwarders.cpp" ||
  fail "no forwarders were generated"

# One package installed, the other unpacked: each one's files are found on their own.
mkdir -p "$tmp/half/include"
ln -s "$dev/include/clang-c" "$tmp/half/include/clang-c"
cmake -S "$src" -B "$tmp/build" -DTORCHABI_LLVM_ROOT="$tmp/half" >"$tmp/half.log" 2>&1 ||
  { cat "$tmp/half.log" >&2; fail "configure with libclang-19-dev alone installed failed"; }
grep -qF -- "-- LLVM headers and static libraries: $dev; libclang headers: $tmp/half/include" "$tmp/half.log" ||
  fail "configure did not take each package's files where they are: $(grep 'LLVM headers' "$tmp/half.log")"

# Neither installed nor unpacked: one error that says both ways out.
rm -rf "$tmp/empty" && mkdir -p "$tmp/empty"
if cmake -S "$src" -B "$tmp/empty" -DTORCHABI_BUILD_TESTS=OFF -DTORCHABI_BUILD_FIXTURES=OFF \
     -DTORCHABI_LLVM_ROOT="$tmp/no-llvm" -DLIBCLANG_LIBRARY="$libclang" >"$tmp/empty.log" 2>&1; then
  fail "configure succeeded without LLVM's headers"
fi
# CMake wraps the message: compare it as one line.
said=$(tr -s ' \n' '  ' <"$tmp/empty.log")
[[ "$said" == *"install llvm-19-dev and libclang-19-dev"* && "$said" == *"scripts/unpack-debs.sh $tmp/empty/llvm-dev"* ]] ||
  { cat "$tmp/empty.log" >&2; fail "the error does not name both ways out"; }
echo "unpack-debs: unpacked, chosen by configure, built from, idempotent, and missing reported"
