#!/usr/bin/env bash
# Installs the Debian packages of scripts/deps.txt that are not installed yet:
# `tool` (building torchabi and the sample tour) or `all` (default: tests too).
# Idempotent and quiet when there is nothing to do.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# --list: print the group's packages, one per line, and install nothing.
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
group=${1:-all}
case "$group" in
  tool) groups='tool' ;;
  all) groups='tool|test' ;;
  *) echo "install-deps.sh: unknown group '$group' (tool or all)" >&2; exit 2 ;;
esac
mapfile -t wanted < <(awk -v want="^($groups)\$" '
  /^[[:space:]]*(#|$)/ { next }
  /^\[.*\]$/ { g = substr($0, 2, length($0) - 2); next }
  g ~ want { print $1 }' "$here/deps.txt")
if [ "$list" = 1 ]; then printf '%s\n' "${wanted[@]}"; exit 0; fi
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "torchabi: installing ${#missing[@]} missing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "torchabi: installed in $(($(date +%s) - started))s" >&2
