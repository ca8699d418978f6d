#!/usr/bin/env bash
# Builds the torchabi wheel: dist/torchabi-<version>-py3-none-manylinux_2_<N>_x86_64.whl
#
#   scripts/build-wheel.sh [--out DIR]          (default: dist/ in the repository)
#
# After the README's first command (./scripts/demo.sh, which builds
# build/torchabi); builds what it needs otherwise (scripts/build.sh --target
# torchabi). Needs Debian's patchelf and binutils (scripts/deps.txt, [wheel]).
#
# The wheel holds one importable package, torchabi/, laid out as an install
# prefix so that the binary finds everything next to itself, as an installed
# torchabi does:
#   bin/torchabi                 the binary (rules compiled in; RUNPATH $ORIGIN/../lib)
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
#   __init__.py, __main__.py     the `torchabi` console script: os.execv of bin/torchabi
# The platform tag names the newest glibc symbol version any of these files
# needs (objdump -T): the oldest manylinux policy the wheel honours.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=$root/dist
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "build-wheel.sh: unknown argument $1 (usage: build-wheel.sh [--out DIR])" >&2; exit 2 ;;
  esac
  shift
done
say() { echo "build-wheel: $*" >&2; }
for tool in patchelf objdump readelf strip python3 cc; do
  command -v "$tool" >/dev/null ||
    { say "$tool is missing: scripts/install-deps.sh wheel (Debian: apt-get install patchelf binutils)"; exit 2; }
done

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

stage=$build/wheel-stage
pkg=$stage/torchabi
rm -rf "$stage"
mkdir -p "$pkg/bin" "$pkg/lib" "$pkg/share/torchabi" "$pkg/lib/clang/${clang_major:-19}"
for f in __init__.py __main__.py; do
  sed "s/@VERSION@/$version/" "$root/packaging/python/torchabi/$f" >"$pkg/$f"
done
cp "$build/torchabi" "$pkg/bin/torchabi"
strip --strip-unneeded "$pkg/bin/torchabi"
patchelf --set-rpath '$ORIGIN/../lib' "$pkg/bin/torchabi"
cp -r "$runtime" "$pkg/lib/torchabi-runtime"
strip --strip-unneeded "$pkg"/lib/torchabi-runtime/*.so
cp "$root/tools/scan/scan.py" "$pkg/share/torchabi/scan.py"
cp -r "$resource/include" "$pkg/lib/clang/${clang_major:-19}/include"
[ -d "$resource/share" ] && cp -r "$resource/share" "$pkg/lib/clang/${clang_major:-19}/share"

# The libraries loaded on first use and everything they need, except what
# every manylinux system has (the policy's list: glibc's libraries,
# libstdc++, libgcc_s). Each copy is named by its soname.
allowed='^(libc|libm|libdl|librt|libpthread|libresolv|libutil|libnsl|libcrypt|libstdc\+\+|libgcc_s|ld-linux-x86-64)\.so'
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

# Every file must find what it needs inside the package or on any manylinux system.
status=0
while IFS= read -r -d '' f; do
  head -c4 "$f" | grep -q $'^\x7fELF' || continue
  while read -r dep path; do
    [[ "$dep" =~ $allowed ]] && continue
    case "$path" in "$pkg"/*) ;; *) say "${f#"$pkg"/} needs $dep from outside the wheel ($path)"; status=1 ;; esac
  done < <(ldd "$f" 2>/dev/null | sed -n 's/^\s*\(\S*\) => \(\S*\) .*/\1 \2/p')
done < <(find "$pkg" -type f -print0)
[ "$status" = 0 ] || exit 1

# The newest glibc (and libstdc++) symbol versions any file needs: the tag.
read -r glibc glibcxx < <(find "$pkg" -type f \( -name '*.so*' -o -path '*/bin/*' \) -print0 |
  xargs -0 objdump -T 2>/dev/null | grep -oE '\bGLIBC(XX)?_[0-9.]+' | sort -u |
  awk -F_ '$1=="GLIBC" { g=$2 } $1=="GLIBCXX" { x=$2 } { if ($1=="GLIBC" && (m=="" || cmp(g,m)>0)) m=g; if ($1=="GLIBCXX" && (n=="" || cmp(x,n)>0)) n=x }
    function cmp(a, b,  i, pa, pb, na, nb) { na=split(a,pa,"."); nb=split(b,pb,"."); for (i=1;i<=(na>nb?na:nb);i++) { if (pa[i]+0!=pb[i]+0) return pa[i]+0-(pb[i]+0) } return 0 }
    END { print m, n }')
glibc_minor=${glibc#2.}
glibc_minor=${glibc_minor%%.*}
[[ "$glibc" == 2.* && "$glibc_minor" =~ ^[0-9]+$ ]] || { say "cannot read the glibc versions the files need"; exit 1; }
# manylinux_2_17 is the oldest policy pip knows by that name.
[ "$glibc_minor" -ge 17 ] || glibc_minor=17
tag=py3-none-manylinux_2_${glibc_minor}_x86_64
say "the files need glibc $glibc and libstdc++ GLIBCXX_$glibcxx: $tag"

wheel=$(python3 "$root/packaging/make_wheel.py" --stage "$stage" --version "$version" --tag "$tag" \
  --readme "$root/README.md" --out "$out")
rm -f "$out"/torchabi-"$version"-*.whl.partial
say "$(du -m "$wheel" | cut -f1) MB ($(du -sm "$pkg" | cut -f1) MB installed): $wheel"
echo "$wheel"
