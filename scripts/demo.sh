#!/usr/bin/env bash
# First command of the README: install what is missing, build, and audit the
# sample extensions shipped in fixtures/ (one stable, one legacy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" >/dev/null
build=${BUILD_DIR:-$root/build}
echo "\$ torchabi audit fixtures/stable_ext fixtures/legacy_ext"
set +e
"$build/torchabi" audit "$build/fixtures/stable_ext/libstable_ext.so" "$build/fixtures/legacy_ext/liblegacy_ext.so"
rc=$?
set -e
echo "(exit code $rc: 1 means findings at error level — the legacy extension is not stable-ABI clean)"
