#!/usr/bin/env bash
# Fetches Debian's real PyTorch extension packages (torchaudio, torchcodec,
# torchvision, torch-scatter/-sparse/-cluster) of SUITE and every package
# they need that the sid chroot CHROOT lacks, and unpacks them under DEST/root,
# without touching the machine's apt configuration or the chroot: a private
# sources list, lists and cache, the chroot's dpkg status as the "installed"
# set (so only what it lacks is fetched), and `dpkg-deb -x`. DEST/root is then
# laid over the chroot with overlayfs by third_party.sh; nothing is installed.
#
#   scripts/against-torch/fetch_third_party.sh CHROOT DEST [--suite SUITE]
#
# Prints DEST/root. Re-running with the packages unpacked does nothing. On
# failure: one line saying why, exit 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { sed -n '2,14p' "$0"; exit 2; }
chroot_dir=$1
dest=$(realpath -m "$2")
suite=sid
[ "${3:-}" = --suite ] && suite=${4:?--suite needs a suite name}
packages=(python3-torchaudio python3-torchcodec python3-torchvision python3-torch-scatter python3-torch-sparse
  python3-torch-cluster)
stamp="$dest/root/.torchabi-fetched"
if [ -f "$stamp" ]; then echo "$dest/root"; exit 0; fi
fail() { echo "$*" >&2; exit 1; }
[ -f "$chroot_dir/var/lib/dpkg/status" ] || fail "fetch_third_party.sh: $chroot_dir is not a Debian root (no var/lib/dpkg/status)"
# shellcheck source=../lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
private_apt "$dest/apt" "$suite" || fail "fetch_third_party.sh: cannot read Debian $suite's package lists (see $dest/apt/update.log)"
# What the chroot has installed: apt then downloads only what it lacks.
cp "$chroot_dir/var/lib/dpkg/status" "$dest/apt/status"
available=()
for p in "${packages[@]}"; do
  # shellcheck disable=SC2154 # apt_opts is set by private_apt (scripts/lib/private-apt.sh)
  if apt-cache "${apt_opts[@]}" show "$p" >/dev/null 2>&1; then available+=("$p"); else echo "  $p: not in Debian $suite" >&2; fi
done
[ ${#available[@]} -gt 0 ] || fail "fetch_third_party.sh: none of ${packages[*]} is in Debian $suite"
rm -f "$dest"/apt/cache/archives/*.deb
apt-get "${apt_opts[@]}" -qq -y --download-only --no-install-recommends install "${available[@]}" \
  >"$dest/apt/download.log" 2>&1 || fail "fetch_third_party.sh: cannot download ${available[*]} (see $dest/apt/download.log)"
rm -rf "$dest/root.partial"
mkdir -p "$dest/root.partial"
for deb in "$dest"/apt/cache/archives/*.deb; do
  dpkg-deb -x "$deb" "$dest/root.partial" || fail "fetch_third_party.sh: cannot unpack $deb"
done
for deb in "$dest"/apt/cache/archives/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done \
  >"$dest/root.partial/.torchabi-fetched"
rm -rf "$dest/root"
mv "$dest/root.partial" "$dest/root"
rm -f "$dest"/apt/cache/archives/*.deb
echo "$dest/root"
