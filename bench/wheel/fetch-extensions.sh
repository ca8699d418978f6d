#!/usr/bin/env bash
# The real PyTorch extensions bench/wheel/run.sh audits: Debian sid's
# python3-torchaudio, -torchvision, -torchcodec, -torch-scatter, -torch-sparse
# and -torch-cluster, downloaded with a private apt configuration
# (scripts/lib/private-apt.sh, as scripts/fetch-torch.sh does: the machine's
# apt sources are not touched) and unpacked into DIR/root.
#
#   bench/wheel/fetch-extensions.sh [DIR]   (default ~/.cache/torchabi/bench-extensions-sid)
#
# Prints DIR/root. Idempotent: nothing to do when DIR/root/.torchabi-fetched exists.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(realpath -m "${1:-$HOME/.cache/torchabi/bench-extensions-sid}")
packages=(python3-torchaudio python3-torchvision python3-torchcodec python3-torch-scatter python3-torch-sparse
  python3-torch-cluster)
if [ -f "$dest/root/.torchabi-fetched" ]; then echo "$dest/root"; exit 0; fi
# shellcheck source=../../scripts/lib/private-apt.sh
. "$root/scripts/lib/private-apt.sh"
private_apt "$dest/apt" sid || { echo "fetch-extensions: cannot read sid's package lists ($dest/apt/update.log)" >&2; exit 1; }
mkdir -p "$dest/debs"
(cd "$dest/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" -qq download "${packages[@]}" >"$dest/apt/download.log" 2>&1) ||
  { echo "fetch-extensions: cannot download ${packages[*]} ($dest/apt/download.log)" >&2; exit 1; }
rm -rf "$dest/root.partial"
mkdir -p "$dest/root.partial"
for deb in "$dest"/debs/*.deb; do dpkg-deb -x "$deb" "$dest/root.partial"; done
for deb in "$dest"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done >"$dest/root.partial/.torchabi-fetched"
rm -rf "$dest/root"
mv "$dest/root.partial" "$dest/root"
echo "$dest/root"
