#!/usr/bin/env bash
# `torchabi run EXT.so --torch PYTHON` against real torch.library.opcheck, in
# the sid chroot (python3-torch 2.14): the extensions of
# fixtures/runtime/opcheck/ are compiled there with g++, then torchabi runs
# inside the chroot with --torch /usr/bin/python3 (its sandbox needs the
# chroot's root to be a mount point: it is bind-mounted onto itself). Each
# fixture's expected outcome is checked from the JSON report:
#   aliasing_view  test_schema fails ("alias"), test_faketensor fails (no fake)
#   picky_dtype    the inputs follow the kernel's own checks (int32, 3-D);
#                  test_schema passes, test_faketensor fails
#   all_pass       every utility passes (a Meta kernel in C++), no opcheck finding
#
#   opcheck_torch.sh CHROOT_DIR TORCHABI_BUILD_DIR
# Exit status: 0 as expected; 1 a difference (printed); 3 the chroot cannot be used.
set -u
chroot_dir=${1:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
build=${2:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
[ -f "$chroot_dir/.torchabi-ready" ] || { echo "opcheck_torch.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
work_in=/tmp/torchabi-opcheck-torch
work=$chroot_dir$work_in
$sudo rm -rf "$work"
$sudo mkdir -p "$work/bin/lib"
$sudo cp "$build/torchabi" "$work/bin/"
$sudo cp -r "$build/lib/torchabi-runtime" "$work/bin/lib/"
$sudo cp "$root"/fixtures/runtime/opcheck/*.cpp "$work/"
in_chroot() {  # COMMAND: in the chroot, with its own /proc, its root a mount point
  $sudo unshare --pid --mount --fork sh -c "mount --make-rprivate / && mount --rbind '$chroot_dir' '$chroot_dir' &&
    mount -t proc proc '$chroot_dir/proc' && chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c '$1'"
}
status=0
for f in aliasing_view picky_dtype all_pass; do
  in_chroot "g++ -std=c++20 -O1 -fPIC -shared $work_in/$f.cpp -o $work_in/$f.so \
    -L/usr/lib/python3/dist-packages/torch/lib -ltorch_cpu -lc10" || { echo "  cannot compile $f" >&2; exit 3; }
  in_chroot "$work_in/bin/torchabi run $work_in/$f.so --torch /usr/bin/python3 --format json -o $work_in/$f.json" \
    >/dev/null 2>&1
done
python3 - "$work" <<'PY' || status=1
import json, sys
work = sys.argv[1]
def load(name):
    report = json.load(open(f"{work}/{name}.json"))
    rules = {}
    for f in report["findings"]:
        if f["rule"].startswith("opcheck-"):
            rules.setdefault(f["rule"], []).append(f["message"])
    facts = {}
    for s in report.get("subjects", []):
        for k, v in (s.get("facts") or {}).items() if isinstance(s.get("facts"), dict) else s.get("facts") or []:
            facts[k] = v
    return rules, facts
bad = []
def expect(cond, what):
    print(("  agree: " if cond else "  DISAGREE: ") + what)
    if not cond:
        bad.append(what)
r, facts = load("aliasing_view")
expect(any("alias" in m for m in r.get("opcheck-test-schema", [])), "aliasing_view: test_schema fails on the aliasing output")
expect("opcheck-test-faketensor" in r, "aliasing_view: test_faketensor fails (no fake)")
r, facts = load("picky_dtype")
expect(facts.get("opcheck opcheck_picky::twice") == "inputs (int32[2, 3, 4])",
       "picky_dtype: inputs from the kernel's messages: " + str(facts.get("opcheck opcheck_picky::twice")))
expect("opcheck-test-schema" not in r, "picky_dtype: test_schema passes")
expect("opcheck-test-faketensor" in r, "picky_dtype: test_faketensor fails (no fake)")
r, facts = load("all_pass")
expect(not r, "all_pass: no opcheck finding: " + json.dumps(r))
expect(facts.get("opcheck torch", "").startswith("2."), "all_pass: opcheck ran on torch " + facts.get("opcheck torch", "?"))
print(f"opcheck --torch: {7 - len(bad)} agree, {len(bad)} disagree")
sys.exit(1 if bad else 0)
PY
exit $status
