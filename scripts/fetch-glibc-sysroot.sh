#!/usr/bin/env bash
# The old glibc the wheel's program is linked against (manylinux_2_28, see
# docs/install.md): Debian bullseye's libc6 and libc6-dev (glibc 2.31; the
# oldest release Debian's mirror still serves), downloaded with a private apt
# configuration (scripts/lib/private-apt.sh: the machine's apt sources are not
# touched) and unpacked into DIR, with the absolute symbolic links of the
# packages made relative so that they point inside DIR.
#
#   scripts/fetch-glibc-sysroot.sh [DIR]   (default ~/.cache/torchabi/glibc-sysroot-bullseye)
#
# Prints DIR. Idempotent: does nothing when DIR/.torchabi-fetched exists.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=bullseye
dest=$(realpath -m "${1:-$HOME/.cache/torchabi/glibc-sysroot-$suite}")
fail() { echo "fetch-glibc-sysroot: $*" >&2; exit 1; }
if [ -f "$dest/.torchabi-fetched" ]; then echo "$dest"; exit 0; fi
# shellcheck source=lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
work=$dest.partial
rm -rf "$work"
mkdir -p "$work/debs" "$work/root"
private_apt "$work/apt" "$suite" || fail "cannot read Debian $suite's package lists (see $work/apt/update.log)"
(cd "$work/debs" && apt-get "${apt_opts[@]}" -qq download libc6 libc6-dev >"$work/apt/download.log" 2>&1) ||
  fail "cannot download libc6 and libc6-dev from Debian $suite (see $work/apt/download.log)"
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/root" || fail "cannot unpack $deb"; done
# /usr/lib/x86_64-linux-gnu/libm.so -> /lib/x86_64-linux-gnu/libm.so.6 and the like.
while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  case "$target" in
    /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$work/root$target")" "$link" ;;
  esac
done < <(find "$work/root" -type l -print0)
for deb in "$work"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done >"$work/root/.torchabi-fetched"
rm -rf "$dest"
mv "$work/root" "$dest"
rm -rf "$work"
echo "$dest"
