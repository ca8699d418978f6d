#!/usr/bin/env bash
# Fetches a newer CMake than the machine's from Debian (bookworm-backports by
# default) and unpacks it under DEST, without touching the machine's apt
# configuration and without installing anything (a private sources list and
# `dpkg-deb -x`, as scripts/fetch-torch.sh does). `torchabi check` configures
# a project that asks for a newer CMake than `cmake` on PATH with it
# (docs/project-mode.md), instead of lowering the project's floor.
#
#   scripts/fetch-cmake.sh [--suite SUITE] [DEST]
#
# DEST defaults to ${XDG_CACHE_HOME:-~/.cache}/torchabi/tools/cmake, where
# torchabi looks for it. On success it prints DEST/usr/bin/cmake; re-running
# with it unpacked does nothing. On failure it prints one line saying why and
# exits 1 (torchabi then lowers floors as before).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=bookworm-backports
dest=""
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) dest=$1; shift ;;
  esac
done
dest=$(realpath -m "${dest:-${XDG_CACHE_HOME:-$HOME/.cache}/torchabi/tools/cmake}")
stamp="$dest/.torchabi-fetched"
if [ -f "$stamp" ] && [ -x "$dest/usr/bin/cmake" ]; then echo "$dest/usr/bin/cmake"; exit 0; fi

work="$dest.partial"
fail() { echo "$*" >&2; rm -rf "$work"; exit 1; }
rm -rf "$work"
mkdir -p "$work/debs"
# shellcheck source=lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
private_apt "$work/apt" "$suite" ||
  fail "torchabi: cannot read Debian $suite's package lists from $apt_mirror (see $work/apt/update.log)"
(cd "$work/debs" && apt-get "${apt_opts[@]}" -qq download cmake cmake-data >"$work/apt/download.log" 2>&1) ||
  fail "torchabi: cannot download cmake and cmake-data from Debian $suite"
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$work/root" || fail "torchabi: cannot unpack $deb"
done
"$work/root/usr/bin/cmake" --version >/dev/null 2>&1 ||
  fail "torchabi: the cmake of Debian $suite does not run on this machine"
for deb in "$work"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done >"$work/root/.torchabi-fetched"
rm -rf "$dest"
mv "$work/root" "$dest"
rm -rf "$work"
echo "$dest/usr/bin/cmake"
