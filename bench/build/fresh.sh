#!/usr/bin/env bash
# The README's first command on a fresh machine: a bare Debian bookworm
# (mmdebstrap --variant=apt: apt and nothing else, no compiler), a fresh clone
# of this repository's HEAD in it, and `./scripts/demo.sh` run there as a new
# user would, packages, build and tour included, with an empty result cache.
# Prints the time from the clone to the end of the tour. Needs root, network
# and mmdebstrap; takes the machine's two cores for a few minutes.
#
#   bench/build/fresh.sh            (KEEP=1 keeps the chroot and prints where)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "fresh.sh: needs root (mmdebstrap, chroot)" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { echo "fresh.sh: mmdebstrap is missing (scripts/deps.txt [test])" >&2; exit 2; }
mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
  grep -oE 'https?://[^ ]+' | head -n1 || true)
dir=$(mktemp -d /tmp/torchabi-fresh.XXXXXX)
cleanup() {
  for m in proc dev; do umount "$dir/$m" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "fresh.sh: kept $dir" >&2; else rm -rf "$dir"; fi
}
trap cleanup EXIT
mmdebstrap --quiet --variant=apt bookworm "$dir" ${mirror:+"$mirror"} >"$dir.log" 2>&1 ||
  { tail -20 "$dir.log" >&2; exit 1; }
rm -f "$dir.log"
cp /etc/resolv.conf "$dir/etc/resolv.conf"
mount -t proc proc "$dir/proc"
mount --bind /dev "$dir/dev"
git clone --quiet "$root" "$dir/root/torchabi"
start=$(date +%s)
set +e
chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
  bash -c 'cd /root/torchabi && ./scripts/demo.sh' >"$dir/root/demo.log" 2>&1
rc=$?
set -e
end=$(date +%s)
[ "$rc" = 0 ] || { tail -30 "$dir/root/demo.log" >&2; echo "fresh.sh: demo.sh failed (exit $rc)" >&2; exit 1; }
grep -E '^torchabi: (unpacking|installing|installed in|built in|tour done)' "$dir/root/demo.log" | sed 's/^/  /'
printf 'fresh bookworm (%s cores), clone to the end of the tour: %d min %02d s (commit %s, %s)\n' \
  "$(nproc)" $(((end - start) / 60)) $(((end - start) % 60)) "$(git -C "$root" rev-parse --short HEAD)" "$(date -u +%F)"
