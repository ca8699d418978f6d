#!/usr/bin/env bash
# The wheel installed with pip into fresh venvs of bare Debian chroots
# (scripts/test-wheel.sh: builds the wheel from BUILD_DIR, reads its files'
# glibc needs, then about 20 s per release). The chroots (bookworm, trixie,
# bullseye) and the old glibc the wheel's program is linked against are built
# when missing, as the suite builds its sid chroot, and cached under
# ~/.cache/torchabi ($TORCHABI_WHEEL_CHROOTS): a few minutes the first time,
# with Debian's mirror. Skipped (77) only where they cannot be made at all
# (no root, no mmdebstrap, no mirror), saying why.
#   wheel_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
if ! reason=$("$src/scripts/fetch-glibc-sysroot.sh" 2>&1 >/dev/null); then
  echo "skipped: the old glibc the wheel is linked against cannot be fetched here: ${reason:-no reason given}"
  exit 77
fi
rc=0
BUILD_DIR=$build "$src/scripts/test-wheel.sh" --suites "${TORCHABI_WHEEL_SUITES:-bookworm trixie bullseye}" || rc=$?
[ "$rc" = 3 ] && { echo "skipped: the chroots cannot be built or entered here (reason above)"; exit 77; }
exit "$rc"
