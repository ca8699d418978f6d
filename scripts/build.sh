#!/usr/bin/env bash
# Configures and builds torchabi into build/ (or $BUILD_DIR).
#   build.sh [--quiet] [--target T]... [CMAKE_ARGS...]
# --quiet: the compiler's output goes to build.log next to the build tree and
# is shown only if the build fails; a progress line shows where it is.
# --target: build only T (repeatable); default: everything.
# BUILD_TYPE=RelWithDebInfo for debug information (default Release: -O2, none).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}
quiet=0
targets=()
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quiet) quiet=1 ;;
    --target)
      [ $# -ge 2 ] || { echo "build.sh: --target needs a target name" >&2; exit 2; }
      targets+=(--target "$2"); shift ;;
    *) cmake_args+=("$1") ;;
  esac
  shift
done
mkdir -p "$(dirname "$build")"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "${cmake_args[@]}" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
if [ "$quiet" = 0 ]; then
  exec cmake --build "$build" -j "$jobs" "${targets[@]}"
fi
log="$build.log"
started=$(date +%s)
# Make's "[ 42%]" lines drive one status line on a terminal; nothing else is shown.
set +e
cmake --build "$build" -j "$jobs" "${targets[@]}" 2>&1 | tee "$log" | {
  if [ -t 2 ]; then
    while IFS= read -r line; do
      [[ "$line" =~ ^\[\ *([0-9]+)%\] ]] &&
        printf '\r\033[Ktorchabi: building (%s%%, %ss)' "${BASH_REMATCH[1]}" "$(($(date +%s) - started))" >&2
    done
    printf '\r\033[K' >&2
  else
    cat >/dev/null
  fi
}
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ]; then
  grep -E -B2 -A8 'error|Error' "$log" | tail -60 >&2
  echo "torchabi: build failed (full log: $log)" >&2
  exit "$rc"
fi
echo "torchabi: built in $(($(date +%s) - started))s (log: $log)" >&2
