#!/usr/bin/env bash
# How long installing the Debian packages of a scripts/deps.txt group takes on
# a bare bookworm: mmdebstrap builds a minimal system (--variant=apt) twice,
# without and with the group, each downloading everything afresh; the
# difference is what a new user waits for. Needs root and network.
#
#   bench/build/packages.sh [tool|all] [-PACKAGE...]   (-PACKAGE: leave it out, to see what it costs)
# `tool` installs [tool-files] too (as `install-deps.sh tool` does without
# --unpack-to); the README's first command unpacks those instead (fresh.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
group=${1:-tool}
shift || true
drop=()
for a in "$@"; do drop+=("${a#-}"); done
mapfile -t pkgs < <("$root/scripts/install-deps.sh" --list "$group")
keep=()
for p in "${pkgs[@]}"; do
  skip=0
  for d in "${drop[@]}"; do [ "$p" = "$d" ] && skip=1; done
  [ $skip = 0 ] && keep+=("$p")
done
mirror=${MIRROR:-http://deb.debian.org/debian}
dir=$(mktemp -d /tmp/torchabi-packages-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
run() {  # $1: label, $2: --include value ("" for none)
  local start end
  start=$(date +%s.%N)
  mmdebstrap --quiet --variant=apt ${2:+--include="$2"} bookworm "$dir/$1.tar" "$mirror" >"$dir/$1.log" 2>&1 ||
    { tail -20 "$dir/$1.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", e - s }'
}
base=$(run base "")
with=$(run group "$(IFS=,; echo "${keep[*]}")")
size=$(du -m "$dir/group.tar" | cut -f1)
printf 'packages of [%s]%s: %d s on top of a bare bookworm (%d s), %d MB installed system\n' \
  "$group" "${drop:+ without ${drop[*]}}" "$((with - base))" "$base" "$size"
