#!/usr/bin/env bash
# What real PyTorch allows while an extension is half migrated: the facts
# `torchabi migrate`'s steps rely on (docs/migrate.md, "Steps").
#
#   scripts/against-torch/mixed_registrations.sh [CHROOT]
#
# fixtures/migrate/mixed_registrations/ is compiled with g++ inside the sid
# chroot (real torch) and loaded in fresh interpreters (probe.py):
#  - a STABLE_TORCH_LIBRARY_IMPL registers kernels for ops a legacy
#    TORCH_LIBRARY block defines, in another library (loaded after or before
#    it) or in the same one: a library's defs can stay legacy while its impls
#    move;
#  - a second def block for the namespace (a STABLE_TORCH_LIBRARY next to the
#    legacy TORCH_LIBRARY) kills the interpreter at load time, in either
#    order: the defs move all at once; a STABLE_TORCH_LIBRARY_FRAGMENT adds
#    ops next to the legacy defs;
#  - a legacy and a stable kernel for the same op and dispatch key: the later
#    registration overrides the earlier one with a warning, so a kernel moves
#    out of its legacy block in the same step that adds it to a stable one;
#  - a legacy header under TORCH_TARGET_VERSION does not compile: the flag
#    goes on the migrated sources only.
#
# Last line 'N passed, M failed'; exit 0 all as expected, 1 otherwise, 3 when
# the chroot cannot be entered (skipped), with the reason on one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
chroot_dir=${1:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
[ -f "$chroot_dir/.torchabi-ready" ] || { echo "mixed_registrations.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
work_in=/tmp/torchabi-mixed-registrations
inside=$chroot_dir$work_in
trap '$sudo rm -rf "$inside"' EXIT
$sudo rm -rf "$inside"
$sudo mkdir -p "$inside"
$sudo chown "$(id -u)" "$inside"
cp "$root"/fixtures/migrate/mixed_registrations/* "$inside/"

# Inside the chroot: its g++, its headers, its libtorch.
in_chroot() {
  $sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
    chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c 'cd $work_in && $1'"
}
cxx="g++ -std=c++20 -O1 -fPIC -I/usr/include/torch/csrc/api/include"
link="-ltorch -ltorch_cpu -lc10"
stable="-DTORCH_TARGET_VERSION=0x020a000000000000"
in_chroot "$cxx -c legacy_defs.cpp -o legacy_defs.o && $cxx -c legacy_scale.cpp -o legacy_scale.o &&
  $cxx $stable -c stable_impl.cpp -o stable_impl.o && $cxx $stable -c stable_defs.cpp -o stable_defs.o &&
  $cxx $stable -c stable_fragment.cpp -o stable_fragment.o &&
  for o in legacy_defs legacy_scale stable_impl stable_defs stable_fragment; do g++ -shared \$o.o -o \$o.so $link || exit 1; done &&
  g++ -shared legacy_defs.o stable_impl.o -o one_module.so $link" >"$inside/build.log" 2>&1 ||
  { tail -20 "$inside/build.log" >&2; echo "mixed_registrations.sh: the fixtures did not compile in the chroot" >&2; exit 1; }

passed=0 failed=0
check() {  # NAME WANT_EXIT PYTHON-EXPRESSION-ON-r(json)-and-err(stderr) LIBS...
  local name=$1 expr=$2; shift 2
  local libs=""
  for l in "$@"; do libs="$libs $work_in/$l"; done
  in_chroot "python3 probe.py $libs >probe.out 2>probe.err" || true
  if python3 - "$inside/probe.out" "$inside/probe.err" "$expr" <<'PY'
import json, sys
err = open(sys.argv[2]).read()
try:
    r = json.load(open(sys.argv[1]))
except ValueError:  # the interpreter died while loading (an exception out of a static initializer)
    r = {"loaded": [], "load_error": None, "calls": {}, "warnings": [], "died": True}
ok = eval(sys.argv[3])
said = [l for l in err.splitlines() if "TORCH_LIBRARY" in l or "Warning" in l][:1] or err.strip().splitlines()[:1]
print(("ok   " if ok else "FAIL ") + json.dumps(r) + ((" stderr: " + said[0]) if said else ""))
sys.exit(0 if ok else 1)
PY
  then passed=$((passed + 1)); echo "  ^ $name"
  else failed=$((failed + 1)); echo "  ^ $name (unexpected)"; fi
}
check "stable impl for a legacy def, loaded after it" \
  'r["load_error"] is None and r["calls"]["scale"] == [3.0, 6.0] and r["calls"]["shift"] == [2.0, 3.0]' \
  legacy_defs.so stable_impl.so
check "stable impl for a legacy def, loaded before it" \
  'r["load_error"] is None and r["calls"]["scale"] == [3.0, 6.0] and r["calls"]["shift"] == [2.0, 3.0]' \
  stable_impl.so legacy_defs.so
check "legacy and stable translation units in one library" \
  'r["load_error"] is None and r["calls"]["scale"] == [3.0, 6.0] and r["calls"]["shift"] == [2.0, 3.0]' \
  one_module.so
# torch 2.14.1: the interpreter dies in both orders (a segfault when the
# stable block comes second, c10::Error out of a static initializer when the
# legacy one does).
check "a stable def block next to a loaded legacy one does not load" \
  'r.get("died") or r["load_error"] is not None' \
  legacy_defs.so stable_defs.so
check "a legacy def block next to a loaded stable one does not load" \
  '"Only a single TORCH_LIBRARY" in (r["load_error"] or "") + err' \
  stable_defs.so legacy_defs.so
check "a stable fragment adds ops to a legacy namespace" \
  'r["load_error"] is None and r["calls"]["pass_through"] == [1.0, 2.0]' \
  legacy_defs.so stable_fragment.so
check "legacy and stable kernels for one op and key: the later one wins, with a warning" \
  'r["load_error"] is None and r["calls"]["scale"] == [3.0, 6.0] and "verrid" in err' \
  legacy_defs.so legacy_scale.so stable_impl.so

# A legacy header under TORCH_TARGET_VERSION.
if in_chroot "$cxx $stable -fsyntax-only aten_under_target.cpp" >"$inside/target.log" 2>&1; then
  failed=$((failed + 1)); echo "FAIL a legacy header compiled under TORCH_TARGET_VERSION"
elif grep -q "#error" "$inside/target.log"; then
  passed=$((passed + 1)); echo "ok   a legacy header under TORCH_TARGET_VERSION: $(grep -m1 '#error' "$inside/target.log" | sed 's/.*#error //')"
else
  failed=$((failed + 1)); echo "FAIL a legacy header under TORCH_TARGET_VERSION failed for another reason:"; head -5 "$inside/target.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
