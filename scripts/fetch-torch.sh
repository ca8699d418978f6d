#!/usr/bin/env bash
# Fetches Debian's newest PyTorch packages (headers, libraries, python3-torch)
# and unpacks them under DEST, without touching the machine's apt
# configuration and without installing anything: a private sources list,
# private lists and cache directories, and `dpkg-deb -x`.
#
#   scripts/fetch-torch.sh [--suite SUITE] [DEST]
#
# DEST defaults to $TORCHABI_TORCH_CACHE or build/torch-<suite>. On success it
# prints DEST/root, which holds usr/include/torch/..., usr/lib/<triplet>/libtorch*.so*
# and usr/lib/python3/dist-packages/torch{,gen}. DEST/root/.torchabi-fetched names
# the package versions. Re-running with the packages already unpacked does
# nothing. On failure it prints one line saying why and exits 1; tests that need
# real PyTorch then skip with that reason (DEST/fetch-error).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=sid
dest=""
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) dest=$1; shift ;;
  esac
done
dest=${dest:-${TORCHABI_TORCH_CACHE:-${BUILD_DIR:-$root/build}/torch-$suite}}
# apt reads relative Dir:: paths against /etc/apt: make DEST absolute.
dest=$(realpath -m "$dest")
stamp="$dest/root/.torchabi-fetched"
if [ -f "$stamp" ]; then echo "$dest/root"; exit 0; fi

fail() { mkdir -p "$dest"; echo "$*" | tee "$dest/fetch-error" >&2; exit 1; }
mkdir -p "$dest/debs"
rm -f "$dest/fetch-error"
# shellcheck source=lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
private_apt "$dest/apt" "$suite" ||
  fail "torchabi: cannot read Debian $suite's package lists from $apt_mirror (see $dest/apt/update.log)"
# The runtime library package carries the soname's version (libtorch2.14):
# take its name from libtorch-dev's dependencies rather than writing it here.
dev_depends=$(apt-cache "${apt_opts[@]}" show libtorch-dev 2>/dev/null | sed -n 's/^Depends: //p' | head -n1)
[ -n "$dev_depends" ] || fail "torchabi: Debian $suite has no libtorch-dev package"
libpkg=$(tr ',' '\n' <<<"$dev_depends" | grep -oE '^ *libtorch[0-9][0-9.]*' | tr -d ' ' | head -n1)
[ -n "$libpkg" ] || fail "torchabi: cannot tell the libtorch runtime package from libtorch-dev's Depends: $dev_depends"
(cd "$dest/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" -qq download libtorch-dev "$libpkg" python3-torch \
  >"$dest/apt/download.log" 2>&1) ||
  fail "torchabi: cannot download libtorch-dev, $libpkg and python3-torch from Debian $suite (see $dest/apt/download.log)"
rm -rf "$dest/root.partial"
mkdir -p "$dest/root.partial"
for deb in "$dest"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dest/root.partial" || fail "torchabi: cannot unpack $deb"
done
# One line per package, "Package: libtorch2.14 Version: 2.14.1+dfsg-1": tests and
# scripts/build-runtime-aten-ops.py read the versions from it.
for deb in "$dest"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done >"$dest/root.partial/.torchabi-fetched"
rm -rf "$dest/root"
mv "$dest/root.partial" "$dest/root"
rm -f "$dest"/debs/*.deb
echo "$dest/root"
