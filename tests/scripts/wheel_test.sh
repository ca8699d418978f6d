#!/usr/bin/env bash
# The wheel installed with pip into fresh venvs of bare Debian chroots
# (scripts/test-wheel.sh: builds the wheel from BUILD_DIR, then about 10 s per
# release). Runs only where the chroots are cached already (~/.cache/torchabi/
# wheel-<suite>, or $TORCHABI_WHEEL_CHROOTS) or when TORCHABI_TEST_WHEEL=1 asks
# for them to be built (minutes, with the network): otherwise skipped (77), so
# that CI's time does not grow.
#   wheel_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
cache=${TORCHABI_WHEEL_CHROOTS:-$HOME/.cache/torchabi}
suites=""
for s in bookworm trixie bullseye; do
  if [ "${TORCHABI_TEST_WHEEL:-0}" = 1 ] || [ -f "$cache/wheel-$s/.torchabi-ready" ]; then
    # bullseye (too old a glibc) only when cached: it checks that pip refuses the wheel there.
    [ "$s" = bullseye ] && [ ! -f "$cache/wheel-$s/.torchabi-ready" ] && continue
    suites="$suites $s"
  fi
done
[ -n "$suites" ] || { echo "skipped: no cached wheel chroots in $cache (TORCHABI_TEST_WHEEL=1 builds them)"; exit 77; }
rc=0
BUILD_DIR=$build "$src/scripts/test-wheel.sh" --suites "${suites# }" || rc=$?
[ "$rc" = 3 ] && { echo "skipped: the chroots cannot be built or entered here (reason above)"; exit 77; }
exit "$rc"
