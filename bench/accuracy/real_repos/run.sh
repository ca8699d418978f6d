#!/usr/bin/env bash
# bench/accuracy/real_repos: `torchabi check` on public stable-ABI repositories
# (repos.tsv, not committed: materialised from git mirrors) against facts checked
# by hand (expected.json), with and without a torch in the interpreter.
#   bench/accuracy/real_repos/run.sh [BUILD_DIR] [--only NAME,...] [--timeout S] [--no-run-build] [--with-torch-only]
# Env: TORCHABI_REAL_REPOS_MIRRORS (default /work/.mirror: <owner>+<name>/repo git dirs),
#      TORCHABI_REAL_REPOS (extraction cache, default ~/.cache/torchabi/real-repos),
#      TORCHABI_REAL_REPOS_TIMEOUT (seconds per check, default 600),
#      TORCHABI_REAL_REPOS_JSON (also write per-run results there).
# Exit 77 when a mirror is absent (what to fetch is printed), 2 without a build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then build=$1; shift; fi
[ -x "$build/torchabi" ] || { echo "bench: $build/torchabi not built (scripts/build.sh)" >&2; exit 2; }
[ -x /usr/bin/python3 ] || { echo "bench: /usr/bin/python3 is needed (the 'with torch' interpreter)" >&2; exit 2; }
exec python3 "$here/bench.py" "$build/torchabi" "$@"
