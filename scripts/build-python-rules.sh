#!/usr/bin/env bash
# Regenerates rules/python/ from Debian's own CPython and auditwheel packages
# (downloaded, never installed; the machine's apt configuration is untouched):
#
#   scripts/build-python-rules.sh [OUT_DIR]     (default: rules/python)
#
# stable_abi.tsv      every symbol of CPython's stable ABI and the release it
#                     joined, from test_stable_abi_ctypes.py
#                     (libpython3.X-testsuite) in bookworm, trixie and sid and
#                     the "Part of the Stable ABI since" notes of sid's
#                     python3.X-doc
# platform_policies.tsv
#                     the highest GLIBC/GLIBCXX/CXXABI/GCC symbol versions each
#                     manylinux/musllinux policy allows, from python3-auditwheel
#
# A test (python_rules_regeneration) runs this and fails when a committed entry
# disagrees with the packages; a newer upload may only add entries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/rules/python}")
# shellcheck source=lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# extract DEB GLOB...: unpacks the members matching GLOB under $tmp/files.
extract() {
  local deb=$1
  shift
  mkdir -p "$tmp/files"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/files" --wildcards "$@"
}

testsuites=()
for suite in bookworm trixie sid; do
  private_apt "$tmp/apt-$suite" "$suite" || {
    echo "torchabi: cannot read Debian $suite's package lists (see $tmp/apt-$suite/update.log)" >&2
    exit 1
  }
  # Every CPython the suite has (sid often carries two or three): each
  # release's list bounds when a symbol joined.
  pkgs=$(apt-cache "${apt_opts[@]}" pkgnames libpython3. | grep -E '^libpython3\.[0-9]+-testsuite$' | sort -V)
  [ -n "$pkgs" ] || { echo "torchabi: Debian $suite has no libpython3.N-testsuite package" >&2; exit 1; }
  wanted=()
  for pkg in $pkgs; do
    v=${pkg#libpython}
    v=${v%-testsuite}
    grep -qx "$v" "$tmp/seen" 2>/dev/null || { wanted+=("$pkg"); echo "$v" >>"$tmp/seen"; }
    pyver=$v  # the newest, for the documentation
  done
  [ "$suite" = sid ] && wanted+=("python$pyver-doc" python3-auditwheel)
  [ ${#wanted[@]} -gt 0 ] || continue
  mkdir -p "$tmp/debs-$suite"
  (cd "$tmp/debs-$suite" && apt-get "${apt_opts[@]}" -qq download "${wanted[@]}" >"$tmp/download.log" 2>&1) || {
    echo "torchabi: cannot download ${wanted[*]} from Debian $suite: $(tail -n1 "$tmp/download.log")" >&2
    exit 1
  }
  for deb in "$tmp/debs-$suite"/*.deb; do
    echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$tmp/packages"
  done
  for deb in "$tmp/debs-$suite"/libpython3.*-testsuite_*.deb; do
    v=$(dpkg-deb -f "$deb" Package)
    v=${v#libpython}
    v=${v%-testsuite}
    extract "$deb" "./usr/lib/python$v/test/test_stable_abi_ctypes.py"
    testsuites+=("$v=$tmp/files/usr/lib/python$v/test/test_stable_abi_ctypes.py")
  done
  if [ "$suite" = sid ]; then
    extract "$tmp/debs-$suite/python$pyver-doc"_*.deb "./usr/share/doc/python$pyver/html/c-api/*.html"
    docs=$tmp/files/usr/share/doc/python$pyver/html/c-api
    extract "$tmp/debs-$suite"/python3-auditwheel_*.deb "*/auditwheel/policy/*linux-policy.json"
    policies=$(dirname "$(find "$tmp/files" -name manylinux-policy.json | head -n1)")
  fi
done

mkdir -p "$out"
python3 "$root/scripts/python-rules.py" --packages "$tmp/packages" --docs "$docs" --policies "$policies" \
  --out "$out" "${testsuites[@]}"
