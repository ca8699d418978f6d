#!/usr/bin/env bash
# Installs the Debian packages of scripts/deps.txt that are not installed yet:
# `tool` (building torchabi and the sample tour), `wheel` (tool and building
# the wheel), `wheel-only` (building the wheel once the tool is built, what
# scripts/build-wheel.sh installs itself) or `all` (default: tests and the
# wheel too).
# Idempotent and quiet when there is nothing to do.
#
#   install-deps.sh [--list] [tool|wheel|wheel-only|all] [--unpack-to DIR]
# --list: print the group's packages, one per line, and install nothing.
# --unpack-to DIR (with tool): the [tool-files] packages that are not installed
#   are not installed either: only the files the build needs are unpacked from
#   their .debs into DIR (scripts/unpack-debs.sh), while apt installs the rest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
group=${1:-all}
[ $# -gt 0 ] && shift
unpack_to=""
if [ "${1:-}" = --unpack-to ]; then
  [ $# -ge 2 ] || { echo "install-deps.sh: --unpack-to needs a directory" >&2; exit 2; }
  unpack_to=$2
  shift 2
fi
[ $# = 0 ] || { echo "install-deps.sh: unexpected argument '$1' (usage: install-deps.sh [--list] [tool|wheel|wheel-only|all] [--unpack-to DIR])" >&2; exit 2; }
case "$group" in
  tool) groups='tool|tool-files' ;;
  wheel) groups='tool|tool-files|wheel' ;;
  wheel-only) groups='wheel' ;;
  all) groups='tool|tool-files|test|wheel' ;;
  *) echo "install-deps.sh: unknown group '$group' (tool, wheel, wheel-only or all)" >&2; exit 2 ;;
esac
[ -n "$unpack_to" ] && [ "$group" != tool ] && { echo "install-deps.sh: --unpack-to is for the tool group" >&2; exit 2; }
packages_of() {  # $1: a regular expression of group names
  awk -v want="^($1)\$" '
    /^[[:space:]]*(#|$)/ { next }
    /^\[.*\]$/ { g = substr($0, 2, length($0) - 2); next }
    g ~ want { print $1 }' "$here/deps.txt"
}
mapfile -t wanted < <(packages_of "$groups")
if [ "$list" = 1 ]; then printf '%s\n' "${wanted[@]}"; exit 0; fi
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
unpack=()
if [ -n "$unpack_to" ]; then
  mapfile -t files < <(packages_of 'tool-files')
  for p in "${files[@]}"; do
    installed "$p" || grep -q "^$p " "$unpack_to/.versions" 2>/dev/null || unpack+=("$p")
  done
  mapfile -t wanted < <(packages_of 'tool')
fi
missing=()
for p in "${wanted[@]}"; do
  installed "$p" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ ${#unpack[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
$sudo apt-get update -qq
# Unpacking is xz decompression on one core; apt's installing runs dpkg on the other.
unpack_pid=""
if [ ${#unpack[@]} -gt 0 ]; then
  echo "torchabi: unpacking the headers and static libraries of ${unpack[*]} into $unpack_to" >&2
  "$here/unpack-debs.sh" "$unpack_to" &
  unpack_pid=$!
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "torchabi: installing ${#missing[@]} missing Debian packages: ${missing[*]}" >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -z "$unpack_pid" ] || wait "$unpack_pid"
echo "torchabi: installed in $(($(date +%s) - started))s" >&2
