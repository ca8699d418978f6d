# Sourced by the scripts that run things in bare Debian chroots
# (test-wheel.sh): built once with mmdebstrap, cached, entered with their
# own /proc in a private mount namespace. Never touches the machine's apt
# configuration: mmdebstrap writes the chroot's own sources from the mirror
# the machine already uses (the way scripts/lib/private-apt.sh finds it).
#
#   cached_chroot SUITE DIR PACKAGES
#     builds DIR (mmdebstrap --variant=apt: Essential packages and apt, no
#     compiler) with PACKAGES (comma-separated) unless DIR/.torchabi-ready
#     exists and names the same PACKAGES; DIR.log keeps mmdebstrap's output.
#     Returns 3 when it cannot.
#   in_chroot DIR COMMAND...
#     runs COMMAND in DIR as root with a cleared environment (PATH, HOME=/tmp)
#     and /proc mounted in a private mount namespace (nothing stays mounted);
#     DIR is bind-mounted on itself first, so that the chroot's / is a mount
#     point, as a machine's is (torchabi's sandbox remounts it).
#
# Both need root; `sudo` is used when not root (set `chroot_sudo`).
chroot_sudo=""
[ "$(id -u)" = 0 ] || chroot_sudo=sudo

chroot_mirror() {
  local m
  m=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
    grep -oE 'https?://[^ ]+' | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

cached_chroot() {
  local suite=$1 dir=$2 packages=$3
  [ -f "$dir/.torchabi-ready" ] && [ "$(cat "$dir/.torchabi-ready")" = "$packages" ] && return 0
  command -v mmdebstrap >/dev/null || { echo "mmdebstrap is missing (scripts/install-deps.sh: [test])" >&2; return 3; }
  mkdir -p "$(dirname "$dir")"
  $chroot_sudo rm -rf "$dir.partial"
  # Bounded: a stalled mirror must not eat CI's time. The mirror's Release
  # files may be dated (snapshots): validity is not checked.
  if ! $chroot_sudo timeout 1200 mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="$packages" "$suite" "$dir.partial" "$(chroot_mirror)" >"$dir.log" 2>&1; then
    tail -5 "$dir.log" >&2
    echo "cannot build the $suite chroot (see $dir.log)" >&2
    $chroot_sudo rm -rf "$dir.partial"
    return 3
  fi
  echo "$packages" | $chroot_sudo tee "$dir.partial/.torchabi-ready" >/dev/null
  $chroot_sudo rm -rf "$dir"
  $chroot_sudo mv "$dir.partial" "$dir"
}

in_chroot() {
  local dir=$1
  shift
  local q="" a
  for a in "$@"; do q+=" $(printf '%q' "$a")"; done
  $chroot_sudo unshare --mount --propagation private --fork sh -c "mount --bind '$dir' '$dir' &&
    mount -t proc proc '$dir/proc' && mount --rbind /dev '$dir/dev' &&
    exec chroot '$dir' /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 $q"
}
