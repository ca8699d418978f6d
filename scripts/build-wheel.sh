#!/usr/bin/env bash
# Builds the torchabi wheel: dist/torchabi-<version>-py3-none-manylinux_2_<N>_x86_64.whl
#
#   scripts/build-wheel.sh [--out DIR]          (default: dist/ in the repository)
#
# After the README's first command (./scripts/demo.sh, which builds
# build/torchabi); builds what it needs otherwise (scripts/build.sh --target
# torchabi), and installs the Debian packages it needs when they are missing
# (patchelf, binutils: scripts/deps.txt, [wheel]; scripts/install-deps.sh).
#
# The wheel holds the program and one importable package:
#   torchabi-X.data/scripts/torchabi   the program (rules compiled in), which
#                                pip installs as the `torchabi` command into
#                                the environment's scripts directory (bin/);
#                                it finds the package from its real location
#                                (src/common/install_layout.h)
#   torchabi/ laid out as an install prefix:
#   lib/torchabi-runtime/        the reference runtime `torchabi run` loads
#   lib/libclang-19.so.19 ...    libclang, libzip (both loaded on first use,
#                                found at ../lib first), and the libraries they
#                                need outside the manylinux policy (libLLVM,
#                                libcrypto, ...), each with RUNPATH $ORIGIN;
#                                stand-ins for two libLLVM links but torchabi
#                                never reaches (Z3, libxml2: STUBS below)
#   lib/clang/19/include         clang's own headers (stddef.h, ...), where
#                                libclang looks: next to itself
#   share/torchabi/scan.py       `torchabi scan`'s Dask front end
#   share/torchabi/version      which release this package is (install_layout)
#   __init__.py, __main__.py     `python -m torchabi`: os.execv of the program
# The platform tag names the newest glibc symbol version any of these files
# needs (objdump -T): the oldest manylinux policy the wheel honours.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=$root/dist
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "build-wheel.sh: unknown argument $1 (usage: build-wheel.sh [--out DIR])" >&2; exit 2 ;;
  esac
  shift
done
say() { echo "build-wheel: $*" >&2; }
missing_tools() { local t; for t in patchelf objdump readelf strip python3 cc; do command -v "$t" >/dev/null || echo "$t"; done; }
if [ -n "$(missing_tools)" ]; then
  say "installing what building the wheel needs ($(missing_tools | tr '\n' ' ')missing): scripts/install-deps.sh wheel-only"
  "$root/scripts/install-deps.sh" wheel-only
  [ -z "$(missing_tools)" ] || { say "still missing after install-deps.sh: $(missing_tools | tr '\n' ' ')"; exit 2; }
fi

runtime=$build/lib/torchabi-runtime
if [ ! -x "$build/torchabi" ] || ! ls "$runtime"/libtorchabi-runtime-*.so >/dev/null 2>&1; then
  say "building torchabi (scripts/build.sh --quiet --target torchabi)"
  "$root/scripts/build.sh" --quiet --target torchabi
fi
version=$("$build/torchabi" --version | sed -n 's/^torchabi \([0-9][0-9.]*\)$/\1/p')
[ -n "$version" ] || { say "cannot read the version from $build/torchabi --version"; exit 1; }
# The libclang the build was configured with (what the binary loads outside a wheel).
libclang=$(sed -n 's/^LIBCLANG_LIBRARY:FILEPATH=//p' "$build/CMakeCache.txt")
libclang=$(readlink -f "${libclang:-/usr/lib/llvm-19/lib/libclang.so}")
[ -f "$libclang" ] || { say "libclang not found ($libclang): scripts/install-deps.sh tool"; exit 1; }
clang_major=$(readelf -d "$libclang" | sed -n 's/.*Library soname: \[libclang-\([0-9]*\)\..*/\1/p')
resource=/usr/lib/llvm-${clang_major:-19}/lib/clang/${clang_major:-19}
[ -d "$resource/include" ] || { say "clang's headers are missing ($resource/include): apt-get install libclang-common-${clang_major:-19}-dev"; exit 1; }
libzip=$(readlink -f "$(ldconfig -p | sed -n 's/^\s*libzip\.so\.[0-9]* (libc6,x86-64) => //p' | head -n1)")
[ -f "$libzip" ] || { say "libzip not found (apt-get install libzip4)"; exit 1; }

# manylinux_2_28: the program linked again against an old glibc (Debian
# bullseye's, cached under ~/.cache/torchabi) with libstdc++ inside it
# (cmake/ManylinuxLink.cmake), and the compat library
# (packaging/glibc_compat/compat.c) for the shipped libraries.
sysroot=$("$root/scripts/fetch-glibc-sysroot.sh")
if [ "$(sed -n 's/^TORCHABI_GLIBC_SYSROOT:PATH=//p' "$build/CMakeCache.txt")" != "$sysroot" ]; then
  # -S: without it cmake takes the working directory as the source tree
  # (under ctest, build/tests: CI failed on it).
  cmake -S "$root" -B "$build" -DTORCHABI_GLIBC_SYSROOT="$sysroot" >"$build.configure-manylinux.log" 2>&1 ||
    { cat "$build.configure-manylinux.log" >&2; say "cannot configure the manylinux link"; exit 1; }
fi
say "linking the program and the runtime for glibc 2.28 (cmake/ManylinuxLink.cmake)"
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target torchabi-manylinux --target torchabi_glibc_compat_shared \
  --target torchabi_runtime_manylinux \
  >"$build.manylinux.log" 2>&1 || { tail -40 "$build.manylinux.log" >&2; say "cannot link torchabi-manylinux"; exit 1; }
program=$build/manylinux/torchabi
compat=$build/manylinux/libtorchabi-glibc-compat.so
floor=(python3 "$root/packaging/glibc_floor.py" --max 2.28 --reference "$sysroot/lib/x86_64-linux-gnu")

stage=$build/wheel-stage
pkg=$stage/torchabi
rm -rf "$stage"
scripts=$stage/torchabi-$version.data/scripts
mkdir -p "$scripts" "$pkg/lib" "$pkg/share/torchabi" "$pkg/lib/clang/${clang_major:-19}"
for f in __init__.py __main__.py; do
  sed "s/@VERSION@/$version/" "$root/packaging/python/torchabi/$f" >"$pkg/$f"
done
echo "$version" >"$pkg/share/torchabi/version"
cp "$program" "$scripts/torchabi"
strip --strip-unneeded "$scripts/torchabi"
# It links nothing of the package (libclang and libzip are loaded by path).
patchelf --remove-rpath "$scripts/torchabi"
# The runtime's libraries as linked for glibc 2.28 (cmake/ManylinuxLink.cmake),
# and the rest of the directory (the stand-in template) as built.
cp -r "$runtime" "$pkg/lib/torchabi-runtime"
cp "$build"/manylinux/torchabi-runtime/*.so "$pkg/lib/torchabi-runtime/"
strip --strip-unneeded "$pkg"/lib/torchabi-runtime/*.so
cp "$root/tools/scan/scan.py" "$pkg/share/torchabi/scan.py"
cp -r "$resource/include" "$pkg/lib/clang/${clang_major:-19}/include"
[ -d "$resource/share" ] && cp -r "$resource/share" "$pkg/lib/clang/${clang_major:-19}/share"

# The libraries loaded on first use and everything they need, except what
# every manylinux system has (the policy's list: glibc's libraries,
# libgcc_s; libstdc++ is shipped: libLLVM needs GCC 12's, GLIBCXX_3.4.30,
# and manylinux_2_28's systems have GCC 8's). Each copy is named by its soname.
allowed='^(libc|libm|libdl|librt|libpthread|libresolv|libutil|libnsl|libcrypt|libgcc_s|ld-linux-x86-64|libtorchabi-glibc-compat)\.so'
# Linked by libLLVM, never reached by libclang's parsing (Z3: the static
# analyzer's optional solver; libxml2, with ICU behind it: Windows manifests
# for lld and llvm-mt): stand-ins with the same soname, versions and symbols,
# which say so and abort if ever called (packaging/stub_library.py). 23 MB of
# the download. STUBS= (empty) ships the real ones.
stubs=${STUBS-libz3 libxml2}
declare -A stubbed=()
is_stubbed() {  # SONAME
  local s
  for s in $stubs; do [[ "$1" == "$s".so* ]] && return 0; done
  return 1
}
vendor() {  # FILE: copies it as its soname, then what it needs
  local file=$1 soname dep path
  soname=$(readelf -d "$file" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  soname=${soname:-$(basename "$file")}
  [ -e "$pkg/lib/$soname" ] && return 0
  cp -L "$file" "$pkg/lib/$soname"
  chmod 0755 "$pkg/lib/$soname"
  patchelf --set-rpath '$ORIGIN' "$pkg/lib/$soname"
  # Its own DT_NEEDED (not ldd's whole closure: what a stand-in replaces
  # brings nothing), found where the dynamic loader finds them.
  local -A where=()
  while read -r dep path; do where[$dep]=$path; done < <(ldd "$file" | sed -n 's/^\s*\(\S*\) => \(\/\S*\) .*/\1 \2/p')
  while read -r dep; do
    [[ "$dep" =~ $allowed ]] && continue
    path=${where[$dep]:-}
    [ -f "$path" ] || { say "$soname needs $dep, which is not installed"; exit 1; }
    if is_stubbed "$dep"; then stubbed[$dep]=$path; continue; fi
    vendor "$path"
  done < <(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
}
vendor "$libclang"
vendor "$libzip"
for dep in "${!stubbed[@]}"; do
  mapfile -t importers < <(for f in "$pkg"/lib/*.so*; do readelf -d "$f" | grep -q "NEEDED.*\[$dep\]" && echo "$f"; done)
  python3 "$root/packaging/stub_library.py" --real "${stubbed[$dep]}" --out "$pkg/lib" "${importers[@]}" >/dev/null
  say "$dep: a stand-in (${#importers[@]} importer(s); not used by torchabi)"
done

# glibc 2.28: every reference of a shipped file to a newer glibc re-pointed
# to what glibc 2.28 has, or to the compat library (packaging/glibc_floor.py;
# its log: build/wheel-floor.log).
cp "$compat" "$pkg/lib/libtorchabi-glibc-compat.so"
chmod 0755 "$pkg/lib/libtorchabi-glibc-compat.so"
elves=()
while IFS= read -r -d '' f; do
  head -c4 "$f" | grep -q $'^\x7fELF' && elves+=("$f")
done < <(find "$stage" -type f -print0 | sort -z)
"${floor[@]}" --compat "$pkg/lib/libtorchabi-glibc-compat.so" "${elves[@]}" >"$build/wheel-floor.log" ||
  { cat "$build/wheel-floor.log" >&2; say "cannot bring the files down to glibc 2.28"; exit 1; }
# The program links the compat code statically: it cannot reach the package's lib/.
if readelf -d "$scripts/torchabi" | grep -q 'NEEDED.*libtorchabi-glibc-compat'; then
  say "the program needs $(grep "^$scripts/torchabi:" "$build/wheel-floor.log") from the compat library: define it in packaging/glibc_compat/compat.c"
  exit 1
fi
# The reference runtime finds the compat library in lib/, where it is.
for f in "$pkg"/lib/torchabi-runtime/*.so; do
  readelf -d "$f" | grep -q 'NEEDED.*libtorchabi-glibc-compat' && patchelf --set-rpath '$ORIGIN/..' "$f"
done
"${floor[@]}" --check "${elves[@]}" >&2 ||
  { say "the files above need more than manylinux_2_28's systems have"; exit 1; }

# Every file must find what it needs inside the package or on any manylinux
# system. The reference runtime uses the system's libstdc++ (it shares its
# process with the extension it runs; its needs are GCC 8's: --check below).
status=0
while IFS= read -r -d '' f; do
  head -c4 "$f" | grep -q $'^\x7fELF' || continue
  while read -r dep path; do
    [[ "$dep" =~ $allowed ]] && continue
    [[ "$f" == "$pkg"/lib/torchabi-runtime/* && "$dep" == libstdc++.so.6 ]] && continue
    case "$path" in "$pkg"/*) ;; *) say "${f#"$stage"/} needs $dep from outside the wheel ($path)"; status=1 ;; esac
  done < <(ldd "$f" 2>/dev/null | sed -n 's/^\s*\(\S*\) => \(\S*\) .*/\1 \2/p')
done < <(find "$stage" -type f -print0)
[ "$status" = 0 ] || exit 1

# The newest glibc (and libstdc++) symbol versions any file needs: the tag.
read -r glibc glibcxx < <(find "$stage" -type f \( -name '*.so*' -o -path '*/scripts/*' \) -print0 |
  xargs -0 objdump -T 2>/dev/null | grep -oE '\bGLIBC(XX)?_[0-9.]+' | sort -u |
  awk -F_ '$1=="GLIBC" { g=$2 } $1=="GLIBCXX" { x=$2 } { if ($1=="GLIBC" && (m=="" || cmp(g,m)>0)) m=g; if ($1=="GLIBCXX" && (n=="" || cmp(x,n)>0)) n=x }
    function cmp(a, b,  i, pa, pb, na, nb) { na=split(a,pa,"."); nb=split(b,pb,"."); for (i=1;i<=(na>nb?na:nb);i++) { if (pa[i]+0!=pb[i]+0) return pa[i]+0-(pb[i]+0) } return 0 }
    END { print m, n }')
glibc_minor=${glibc#2.}
glibc_minor=${glibc_minor%%.*}
[[ "$glibc" == 2.* && "$glibc_minor" =~ ^[0-9]+$ ]] || { say "cannot read the glibc versions the files need"; exit 1; }
# The libstdc++/libgcc_s needs were checked against manylinux_2_28's systems
# (glibc_floor.py --check): no older policy is claimed.
[ "$glibc_minor" -ge 28 ] || glibc_minor=28
tag=py3-none-manylinux_2_${glibc_minor}_x86_64
say "the files need glibc $glibc and libstdc++ GLIBCXX_$glibcxx: $tag"

wheel=$(python3 "$root/packaging/make_wheel.py" --stage "$stage" --version "$version" --tag "$tag" \
  --readme "$root/README.md" --out "$out")
rm -f "$out"/torchabi-"$version"-*.whl.partial
say "$(du -m "$wheel" | cut -f1) MB ($(du -sm "$stage" | cut -f1) MB installed): $wheel"
echo "$wheel"
