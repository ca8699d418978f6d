#!/usr/bin/env bash
# `migrate --fix --unsafe-fixes` then `verify-port` against real torch: the
# LLTM fixture (fixtures/migrate/lltm) is ported here with the real 2.14.1
# headers (libclang is not in the chroot), then verify-port runs inside the
# sid chroot with its python3: both trees built with g++ against python3-torch,
# the port also with the stable headers alone, every op called on the same
# inputs (fixtures/verify_port/lltm_inputs.py) in both. Expected:
#   lltm        compiles stable-only; forward and backward verified
#   lltm_cuda   the port does not load: its kernels' launch functions are
#               defined in CUDA sources the fixture does not have
# And broken ports, so that every verdict is seen failing: sigmoid turned
# into tanh in forward (differs), backward on generated inputs (not
# verified), a function only the original has (not ported); and a c10 header
# included (not stable-only: the real headers refuse it under
# TORCH_TARGET_VERSION, so that port does not build at all).
#
#   verify_port.sh CHROOT_DIR TORCHABI_BUILD_DIR REAL_TORCH_INCLUDE
# Exit status: 0 as expected; 1 a difference (printed); 3 the chroot cannot be used.
set -u
chroot_dir=${1:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
build=${2:-build}
real=${3:-$build/torch-sid/root/usr/include}
root=$(cd "$(dirname "$0")/../.." && pwd)
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
[ -f "$chroot_dir/.torchabi-ready" ] || { echo "verify_port.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
[ -f "$real/torch/csrc/stable/library.h" ] || { echo "verify_port.sh: no real stable headers at $real" >&2; exit 3; }
here=$(mktemp -d)
trap 'rm -rf "$here"' EXIT
mkdir -p "$here/original" "$here/port"
cp -r "$root/fixtures/migrate/lltm" "$here/original/"
cp -r "$root/fixtures/migrate/lltm" "$here/port/"
py_include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
(cd "$here/port" && "$build/torchabi" migrate --fix --unsafe-fixes --no-cache lltm/lltm.cpp lltm/lltm_cuda.cpp -- \
  -std=c++20 "-isystem$real" "-isystem$real/torch/csrc/api/include" "-I$py_include" >"$here/fix.log" 2>&1) ||
  { cat "$here/fix.log"; echo "verify_port.sh: migrate --fix failed"; exit 1; }
# The broken twin: only lltm.cpp, with three faults of a port and one function the port lost.
mkdir -p "$here/bad_original/lltm" "$here/bad_port/lltm" "$here/header_port/lltm"
cp "$here/original/lltm/lltm.cpp" "$here/bad_original/lltm/"
cp "$here/port/lltm/lltm.cpp" "$here/port/lltm/stable_ops.h" "$here/bad_port/lltm/"
cp "$here/port/lltm/lltm.cpp" "$here/port/lltm/stable_ops.h" "$here/header_port/lltm/"
sed -i 's/stable_ops::sigmoid(gates\[0\])/stable_ops::tanh(gates[0])/' "$here/bad_port/lltm/lltm.cpp"
sed -i '0,/#include/s//#include <c10\/macros\/Macros.h>\n#include/' "$here/header_port/lltm/lltm.cpp"
sed -i 's/  m.def("backward", &lltm_backward, "LLTM backward");/&\n  m.def("extra", \&lltm_backward, "only in the original");/' "$here/bad_original/lltm/lltm.cpp"
grep -q 'stable_ops::tanh(gates\[0\])' "$here/bad_port/lltm/lltm.cpp" && grep -q '"extra"' "$here/bad_original/lltm/lltm.cpp" ||
  { echo "verify_port.sh: the broken twin was not made (the port's spelling changed?)"; exit 1; }

work_in=/tmp/torchabi-verify-port
work=$chroot_dir$work_in
$sudo rm -rf "$work"
$sudo mkdir -p "$work/bin/lib"
$sudo cp "$build/torchabi" "$work/bin/"
$sudo cp -r "$build/lib/torchabi-runtime" "$work/bin/lib/"
$sudo cp -r "$here/original" "$here/port" "$here/bad_original" "$here/bad_port" "$here/header_port" "$work/"
$sudo cp "$root"/fixtures/verify_port/*.py "$work/"
in_chroot() {  # COMMAND: in the chroot, with its own /proc, its root a mount point (the sandbox needs one)
  $sudo unshare --pid --mount --fork sh -c "mount --make-rprivate / && mount --rbind '$chroot_dir' '$chroot_dir' &&
    mount -t proc proc '$chroot_dir/proc' && chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c '$1'"
}
in_chroot "$work_in/bin/torchabi verify-port $work_in/original $work_in/port --torch /usr/bin/python3 \
  --inputs $work_in/lltm_inputs.py --target-version 2.10 --format json -o $work_in/good.json" >/dev/null 2>&1
good_rc=$?
in_chroot "$work_in/bin/torchabi verify-port $work_in/bad_original $work_in/bad_port --torch /usr/bin/python3 \
  --inputs $work_in/lltm_forward_inputs.py --target-version 2.10 --format json -o $work_in/bad.json" >/dev/null 2>&1
bad_rc=$?
in_chroot "$work_in/bin/torchabi verify-port $work_in/bad_original $work_in/header_port --torch /usr/bin/python3 \
  --target-version 2.10 --format json -o $work_in/header.json" >/dev/null 2>&1
python3 - "$work" "$good_rc" "$bad_rc" <<'PY'
import json, sys
work, good_rc, bad_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = []
def expect(cond, what):
    print(("  agree: " if cond else "  DISAGREE: ") + what)
    if not cond:
        bad.append(what)
def load(name):
    try:
        return json.load(open(f"{work}/{name}.json"))
    except (OSError, ValueError) as e:
        return {"extensions": [], "why_not": str(e)}
def ext(report, name):
    return next((e for e in report["extensions"] if e["name"] == name), {"ops": [], "not_ported": []})
def op(e, name):
    return next((o for o in e["ops"] if o["op"] == name), {"status": "absent", "why": ""})
good = load("good")
expect(good.get("torch", "").startswith("2."), "verify-port ran on real torch " + good.get("torch", "?") + " " + good.get("why_not", ""))
lltm = ext(good, "lltm")
expect(lltm.get("stable_only") is True, "lltm's port compiles with the stable headers alone: %s" % lltm.get("stable_only"))
for name in ("lltm::forward", "lltm::backward"):
    o = op(lltm, name)
    expect(o["status"] == "verified", "%s verified against the original: %s %s" % (name, o["status"], o["why"]))
cuda = ext(good, "lltm_cuda")
expect("undefined symbol" in str(cuda.get("port_build")), "lltm_cuda: the port does not load without its kernels: %s" % cuda.get("port_build"))
expect(good_rc == 1 and good.get("verified") is False, "exit 1 while lltm_cuda is unverified (%d)" % good_rc)
header = ext(load("header"), "lltm")
expect("c10/macros/Macros.h" in str(header.get("stable_only")), "a c10 include is not stable-only: %s" % header.get("stable_only"))
expect(header.get("port_build") is not True and not header["ops"], "that port does not build: %s" % header.get("port_build"))
broken = ext(load("bad"), "lltm")
expect(broken.get("stable_only") is True, "the faulty port is stable-only: %s" % broken.get("stable_only"))
o = op(broken, "lltm::forward")
expect(o["status"] == "differs" and "output" in o["why"], "sigmoid turned tanh differs: %s %s" % (o["status"], o["why"]))
o = op(broken, "lltm::backward")
expect(o["status"] == "not_verified" and "generated inputs" in o["why"], "backward on generated inputs: not verified: %s" % o["why"])
expect(broken.get("not_ported") == ["extra"], "the original's extra function is not ported: %s" % broken.get("not_ported"))
expect(bad_rc == 1, "exit 1 on the broken port (%d)" % bad_rc)
print(f"verify-port: {12 - len(bad)} agree, {len(bad)} disagree")
sys.exit(1 if bad else 0)
PY
status=$?
$sudo rm -rf "$work"
exit $status
