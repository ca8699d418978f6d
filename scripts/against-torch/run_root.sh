#!/usr/bin/env bash
# `torchabi run --root` against the real sid chroot: an extension compiled
# inside the chroot with sid's own g++ and headers (the fixture good_ops),
# and, when fetched (third_party.sh), Debian's own libtorchaudio.abi3.so,
# which needs sid's libstdc++ (GLIBCXX_3.4.32). On this machine alone such a
# library must be refused for the right reason (runtime-c-runtime-too-old,
# when this machine's libstdc++ is older); with --root it must load and run
# in the reference runtime, with no PyTorch involved, and the fixture must
# pass its own case file as it does when built here. The chroot is never
# modified except for a scratch directory under its /tmp, removed at the end.
#
#   scripts/against-torch/run_root.sh TORCHABI [CHROOT] [THIRD_PARTY_ROOT]
#
# Exit 0 when all holds, 1 on a failure, 3 when the chroot is absent (skipped).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
torchabi=$(realpath "$1")
chroot_dir=${2:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
third=${3:-${TORCHABI_THIRD_PARTY:-$HOME/.cache/torchabi/third-party/root}}
if [ ! -x "$chroot_dir/usr/bin/g++" ] || [ ! -d "$chroot_dir/usr/include/torch" ]; then
  echo "  skipped: no sid chroot with g++ and PyTorch's headers at $chroot_dir"
  exit 3
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
status=0
say() { echo "$1 $2"; [ "$1" = ok ] || [ "$1" = "ok  " ] || status=1; }

scratch_in=/tmp/torchabi-run-root-$$
scratch=$chroot_dir$scratch_in
$sudo mkdir -p "$scratch"
$sudo chown "$(id -u)" "$scratch"
trap '$sudo rm -rf "$scratch"' EXIT
cp "$root"/fixtures/runtime/good_ops.cpp "$root"/fixtures/runtime/*.h "$scratch/"
libdir=$(dirname "$(find "$chroot_dir/usr/lib" -name 'libtorch_cpu.so' -print -quit)")
libdir_in=${libdir#"$chroot_dir"}
# sid's g++, sid's headers and libstdc++: a build of the system inside the root.
$sudo chroot "$chroot_dir" env -i PATH=/usr/bin:/bin HOME=/tmp g++ -std=c++20 -O1 -fPIC -shared \
  -I"$scratch_in" "$scratch_in/good_ops.cpp" -o "$scratch_in/good_ops.so" -L"$libdir_in" -Wl,--no-as-needed \
  -ltorch_cpu -lc10 >"$scratch/build.log" 2>&1 || { echo "FAIL cannot compile good_ops in the chroot:"; head -5 "$scratch/build.log"; exit 1; }
needs=$(readelf -V "$scratch/good_ops.so" 2>/dev/null | grep -o 'GLIBCXX_[0-9.]*' | sort -V | tail -n1)

# 1. The sid-built fixture inside the root passes its case file, as the one built here does.
out=$("$torchabi" run --root "$chroot_dir" "$scratch/good_ops.so" --cases "$root/fixtures/runtime/good_ops.yaml" \
  --format json 2>&1)
verdict=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); s=j["subjects"][0]; f=dict(s["facts"]) if isinstance(s["facts"],dict) else dict(s["facts"]); print(s["verdict"], "|", f.get("calls"))' "$out" 2>/dev/null || echo "no report: $out")
case "$verdict" in
  "PASSED | 10 cases: 10 passed, 0 failed") say "ok  " "run --root: good_ops built by sid's g++ (needs up to ${needs:-no GLIBCXX version}): $verdict" ;;
  *) say FAIL "run --root: good_ops built by sid's g++: $verdict" ;;
esac

# 2. Debian's libtorchaudio.abi3.so: refused here for the C++ runtime (when older), runs in the root.
ta="$third/usr/lib/python3/dist-packages/torchaudio/lib/libtorchaudio.abi3.so"
if [ -f "$ta" ]; then
  here=$("$torchabi" run "$ta" --format json 2>&1)
  python3 - "$here" <<'PY' || status=1
import json, sys
j = json.loads(sys.argv[1])
rules = [f["rule"] for f in j["findings"] if f.get("severity", "error") == "error"]
verdict = j["subjects"][0]["verdict"]
if verdict == "NOT LOADED":
    f = next((f for f in j["findings"] if f["rule"] == "runtime-c-runtime-too-old"), None)
    ok = f is not None and "GLIBCXX_" in f["message"]
    print(("ok   " if ok else "FAIL ") + "run (this machine): libtorchaudio.abi3.so: " + (f["message"] if f else ", ".join(rules)))
    sys.exit(0 if ok else 1)
print(f"ok   run (this machine): libtorchaudio.abi3.so loads here ({verdict}): this machine's libstdc++ is new enough")
PY
  inroot=$("$torchabi" run --root "$chroot_dir" "$ta" --format json 2>&1)
  python3 - "$inroot" <<'PY' || status=1
import json, sys
try:
    j = json.loads(sys.argv[1])
except ValueError:
    print("FAIL run --root: libtorchaudio.abi3.so: " + sys.argv[1][:300]); sys.exit(1)
s = j["subjects"][0]
facts = s["facts"] if isinstance(s["facts"], dict) else dict(s["facts"])
ops = sorted(k[3:] for k in facts if k.startswith("op "))
ok = s["verdict"] != "NOT LOADED" and len(ops) >= 4
print(("ok   " if ok else "FAIL ") + f"run --root: libtorchaudio.abi3.so: {s['verdict']}, {len(ops)} ops ({', '.join(ops)}); {facts.get('calls')}")
sys.exit(0 if ok else 1)
PY
else
  echo "  (Debian's torchaudio not fetched: scripts/against-torch/fetch_third_party.sh; skipped)"
fi

# 3. A root that is missing: one line, exit 2.
"$torchabi" run --root "$scratch/no-such-root" "$scratch/good_ops.so" >/dev/null 2>"$scratch/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$scratch/err")" = 1 ]; then say "ok  " "run --root MISSING: exit 2, $(cat "$scratch/err")"
else say FAIL "run --root MISSING: exit $rc: $(cat "$scratch/err")"; fi
# Nothing left behind in the chroot by torchabi (its scratch view was a private tmpfs).
[ -z "$(find "$chroot_dir" -maxdepth 1 \( -name .torchabi-host -o -name .torchabi-libs \) -print -quit)" ] || say FAIL "torchabi left files in $chroot_dir"
exit $status
