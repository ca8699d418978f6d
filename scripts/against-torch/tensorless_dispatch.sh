#!/usr/bin/env bash
# schema-tensorless-backend-kernel against real PyTorch's dispatcher.
#
#   scripts/against-torch/tensorless_dispatch.sh TORCHABI [CHROOT]
#   scripts/against-torch/tensorless_dispatch.sh TORCHABI --here   # this machine's /usr/bin/python3 torch
#
# 1. Real torch (in the sid chroot, or this machine's python3-torch with
#    --here) registers ops without and with Tensor arguments, each with one
#    kernel under one dispatch key (CPU, CUDA, Meta, Autograd, composite keys,
#    BackendSelect, the catch-all), through torch.library with Python kernels
#    (no compiler), and calls each one (tensorless_dispatch.py torch).
# 2. torchabi lints the same registrations written as legacy C++ extensions
#    (TORCH_LIBRARY + TORCH_LIBRARY_IMPL) against that torch's headers, as one
#    project (a compile database): the rule fires exactly on the ops real torch
#    refuses with "There were no tensor arguments to this function".
# 3. The rule's legacy fixtures (fixtures/schema/schema-tensorless-backend-kernel/
#    legacy/{fires,clean}) are compiled with g++ in the chroot, loaded and every
#    op called: an op of fires/ fails that way and one of clean/ dispatches.
#    (Skipped with --here, or when g++ or the headers are missing.)
#
# Last line 'N passed, M failed'; exit 0 all agree, 1 a disagreement, 3 when
# real torch cannot run here (skipped), with the reason on one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
torchabi=${1:?usage: tensorless_dispatch.sh TORCHABI [CHROOT|--here]}
target=${2:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
probe=$root/scripts/against-torch/tensorless_dispatch.py
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
status=0

if [ "$target" = --here ]; then
  /usr/bin/python3 -c 'import torch' 2>/dev/null || { echo "tensorless_dispatch.sh: /usr/bin/python3 has no torch" >&2; exit 3; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  /usr/bin/python3 "$probe" torch --out "$work/torch.json"
  includes=(/usr/include /usr/include/torch/csrc/api/include)
  chroot_dir=""
else
  chroot_dir=$target
  [ -f "$chroot_dir/.torchabi-ready" ] || { echo "tensorless_dispatch.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
  work_in=/tmp/torchabi-tensorless-dispatch
  work=$chroot_dir$work_in
  trap '$sudo rm -rf "$work"' EXIT
  $sudo rm -rf "$work"
  $sudo mkdir -p "$work"
  $sudo chown "$(id -u)" "$work"
  cp "$probe" "$work/"
  in_chroot() {
    $sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
      chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c 'cd $work_in && $1'"
  }
  in_chroot "python3 tensorless_dispatch.py torch --out torch.json" 2> >(grep -v 'UCX\|cpuinfo' >&2) ||
    { echo "tensorless_dispatch.sh: real torch did not run in the chroot" >&2; exit 3; }
  includes=("$chroot_dir/usr/include" "$chroot_dir/usr/include/torch/csrc/api/include")
fi

# 1-2. The table: real torch's calls against torchabi's lint of the same registrations.
python3 "$probe" sources --dir "$work/src" --include "${includes[@]}"
"$torchabi" lint -p "$work/src" --project-root "$work/src" --format json >"$work/lint.json" 2>"$work/lint.err" ||
  { rc=$?; [ "$rc" = 2 ] && { cat "$work/lint.err" >&2; echo "tensorless_dispatch.sh: torchabi lint failed" >&2; exit 1; }; }
python3 "$probe" compare --torch "$work/torch.json" --lint "$work/lint.json" | tee "$work/compare.txt" || status=1
passed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$work/compare.txt")
failed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$work/compare.txt")

# 3. The rule's legacy fixtures, compiled and called in real torch (C++20:
# the headers of 2.10 and later need it).
fixture=$root/fixtures/schema/schema-tensorless-backend-kernel/legacy
if [ -n "$chroot_dir" ] && $sudo chroot "$chroot_dir" sh -c 'command -v g++' >/dev/null 2>&1; then
  for side in fires clean; do
    cp "$fixture/$side/ops.cpp" "$work/$side.cpp"
  done
  if in_chroot "for s in fires clean; do g++ -std=c++20 -O0 -fPIC -shared -I/usr/include/torch/csrc/api/include \$s.cpp \
      -o \$s.so -ltorch -ltorch_cpu -lc10 || exit 1; done" >"$work/build.log" 2>&1; then
    cat >"$work/call.py" <<'PY'
import json, sys, torch
torch.ops.load_library(sys.argv[1])
out = {}
for name in ("make_buffer", "version", "draw_seed", "api_level"):
    if not hasattr(torch.ops.legacy_tl, name):
        continue
    op = getattr(torch.ops.legacy_tl, name).default
    args = {"int": 3, "Device": torch.device("cpu"), "Optional[Generator]": None, "Generator?": None}
    try:
        op(*[args[str(a.type)] for a in op._schema.arguments])
        out[name] = "dispatched"
    except Exception as e:
        out[name] = "no tensor arguments" if "There were no tensor arguments" in str(e) else "other: " + str(e).splitlines()[0]
print(json.dumps(out))
PY
    for side in fires clean; do
      got=$(in_chroot "python3 call.py $work_in/$side.so" 2>/dev/null | tail -n1)
      want=$([ $side = fires ] && echo "no tensor arguments" || echo "dispatched")
      if python3 -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if r and all(v == sys.argv[2] for v in r.values()) else 1)' \
          "$got" "$want"; then
        passed=$((passed + 1)); echo "  ok   legacy fixture $side: $got"
      else
        failed=$((failed + 1)); status=1; echo "  FAIL legacy fixture $side (every op should be '$want'): $got"
      fi
    done
  else
    echo "  skipped: the legacy fixtures did not compile in the chroot ($(grep -m1 error "$work/build.log" || true))"
  fi
else
  echo "  skipped: compiling the legacy fixtures needs the chroot's g++"
fi
echo "$passed passed, $failed failed"
exit $status
