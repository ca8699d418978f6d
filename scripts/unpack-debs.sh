#!/usr/bin/env bash
# Unpacks the files the build needs from the packages of scripts/deps.txt's
# [tool-files] group that are not installed: each .deb is downloaded with the
# machine's own package lists (apt-get download: apt's signed indexes, no
# change to the system) and only its listed members are extracted into DIR,
# so DIR/usr/lib/llvm-19 holds LLVM's and libclang's headers and static
# libraries. CMake uses DIR when the packages are not installed (CMakeLists.txt).
# Idempotent: DIR/.versions names what is there, and nothing is downloaded
# while apt's candidate versions are those; a new one unpacks DIR again.
#
#   unpack-debs.sh DIR      (UNPACK_INSTALLED=1: installed packages too, for tests)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# = 1 ] || { echo "unpack-debs.sh: usage: unpack-debs.sh DIR" >&2; exit 2; }
dest=$1
mapfile -t lines < <(awk '
  /^[[:space:]]*(#|$)/ { next }
  /^\[.*\]$/ { g = substr($0, 2, length($0) - 2); next }
  g == "tool-files" { print }' "$here/deps.txt")
user=$(id -un)
wanted=()
for line in "${lines[@]}"; do
  read -r pkg _ <<<"$line"
  if [ "${UNPACK_INSTALLED:-0}" != 1 ]; then
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' && continue
  fi
  version=$(apt-cache policy "$pkg" | awk '/Candidate:/ { print $2 }')
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    echo "unpack-debs.sh: $pkg: no candidate version in this machine's package lists (apt-get update?)" >&2
    exit 2
  fi
  wanted+=("$pkg $version")
done
[ ${#wanted[@]} = 0 ] && exit 0
# DIR is all or nothing: already what is wanted, or unpacked again as a whole,
# so that a new version leaves no file of the old one behind.
[ "$(cat "$dest/.versions" 2>/dev/null)" = "$(printf '%s\n' "${wanted[@]}")" ] && exit 0
# Next to DIR, so that putting the files in place is a rename, not a copy of 340 MB.
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.unpack.XXXXXX")
trap 'rm -rf "$work"' EXIT
pids=()
for entry in "${wanted[@]}"; do
  pkg=${entry%% *}
  version=${entry#* }
  members=$(printf '%s\n' "${lines[@]}" | awk -v p="$pkg" '$1 == p { $1 = ""; print }')
  # One child per package: xz decompression is the cost, and it is single-threaded.
  (
    mkdir -p "$work/$pkg/root"
    cd "$work/$pkg"
    apt-get -qq -o APT::Sandbox::User="$user" download "$pkg=$version" >/dev/null 2>&1 ||
      { echo "unpack-debs.sh: could not download $pkg $version" >&2; exit 1; }
    # shellcheck disable=SC2086 # the members are tar wildcards, one word each
    dpkg-deb --fsys-tarfile ./*.deb | tar -x -C root --wildcards $members ||
      { echo "unpack-debs.sh: could not unpack $pkg $version" >&2; exit 1; }
  ) &
  pids+=($!)
done
# One package failing stops the others before the work directory is removed.
for pid in "${pids[@]}"; do
  wait "$pid" || { kill "${pids[@]}" 2>/dev/null || true; wait; exit 1; }
done
# Into place only when every package unpacked: a failed run leaves DIR as it was.
mkdir -p "$work/all"
for entry in "${wanted[@]}"; do
  cp -al "$work/${entry%% *}/root/." "$work/all/"
done
printf '%s\n' "${wanted[@]}" >"$work/all/.versions"
[ ! -e "$dest" ] || mv "$dest" "$work/old"
mv "$work/all" "$dest"
