#!/usr/bin/env bash
# Differential test of `torchabi run` against real PyTorch (the anchor).
#
#   scripts/test-against-torch.sh [--rebuild-chroot] [--chroot-only]
#   (--chroot-only: step 1 alone; CI builds the chroot while the suite runs)
#
# 1. A Debian sid chroot with python3-torch, libtorch-dev and g++ (mmdebstrap,
#    as root; cached in $TORCHABI_TORCH_CHROOT, default ~/.cache/torchabi/sid-torch,
#    about 1.8 GB; built only when missing or with --rebuild-chroot).
# 2. Our stable fixture extensions (fixtures/runtime/*.cpp, bad/*.cpp, and
#    fixtures/real_stable/ when present) are compiled with g++ against the
#    chroot's real headers and linked as real builds link them
#    (-ltorch_cpu -lc10: DT_NEEDED carries the versioned sonames). They are
#    compiled on this machine so that torchabi, outside the chroot, can load
#    them too; sid's newer glibc loads them as well.
# 3. Inside the chroot, real torch loads each one (torch.ops.load_library),
#    and runs every case file (fixtures/runtime/**/*.yaml) plus a generated one
#    that runs every ATen op of rules/runtime/aten_ops.tsv (through
#    fixtures/runtime/aten_probe.cpp) on every dtype, 0-dim, 0-size,
#    broadcast and non-contiguous inputs.
# 4. Outside, `torchabi run` runs the same .so files with real torch's answers
#    as the expectations; loading, registrations (ops, schemas, dispatch keys),
#    outputs (dtype, shape, strides, values within torch.testing's tolerances)
#    and errors must agree. Every disagreement is printed with both sides; the
#    last line is 'N passed, M failed' and the exit status is 1 on any.
#    Also rules/runtime/schema_types.tsv: real torch's reading of every schema
#    type name and its conversions (fixtures/runtime/types_probe.cpp), and
#    torchabi's runtime on the same probe (scripts/against-torch/schema_types.py).
#    And the opcheck-class checks (runtime-undeclared-mutation, -undeclared-alias,
#    -returns-input) against real torch.library.opcheck on every op
#    (scripts/against-torch/opcheck.py).
# 5. `audit --torch` against real loading (scripts/against-torch/loading.py).
# 6. Project mode's setup.py recorder, run in the chroot with real torch's
#    cpp_extension and here with its stand-in, must record the same
#    extensions (scripts/against-torch/setup_run.sh). And `check` on the
#    build.ninja real BuildExtension writes: the same sources, its flags
#    (scripts/against-torch/build_ninja.sh). And the flags real
#    cpp_extension.load()/load_inline() pass against those `check` reads
#    from the calls (scripts/against-torch/jit_load.sh).
# 7. The CUDA `audit --torch` reads from an install against real torch's
#    torch.version.cuda (scripts/against-torch/cuda.py).
# 8. PyTorch's own distribution (Debian's python3-torch, the chroot's
#    dist-packages) is one line in `audit` (scripts/against-torch/torch_itself.sh).
# 9. `run --root` in the chroot (scripts/against-torch/run_root.sh).
# 10. Debian's own extension packages (torchaudio, torchcodec, torchvision,
#    torch-scatter/-sparse/-cluster) as ground truth: audit --torch against
#    real loads, every op in `run --root` against real torch
#    (scripts/against-torch/third_party.sh).
# 11. The facts migrate's steps rely on: legacy and stable registrations of
#     one namespace loaded together (scripts/against-torch/mixed_registrations.sh).
# 12. schema-tensorless-backend-kernel: ops without a Tensor argument, one
#     kernel under each dispatch key, called in real torch (torch.library)
#     against torchabi's lint of the same legacy registrations, and the rule's
#     legacy fixtures compiled and called (scripts/against-torch/tensorless_dispatch.sh).
# 13. `run --torch PYTHON`: real opcheck run by torchabi, sandboxed, in the
#     chroot's python (scripts/against-torch/opcheck_torch.sh; phase 4d).
# 14. `verify-port`: migrate's port of the LLTM fixture built and run next to
#     the original in the chroot's torch, and broken ports it must catch
#     (scripts/against-torch/verify_port.sh).
#
# Needs: root (or sudo) for mmdebstrap/chroot, mmdebstrap (scripts/deps.txt),
# a built torchabi (scripts/build.sh), python3-yaml.
#
# Exit status: 0 all agree; 1 a disagreement; 2 bad usage or torchabi not
# built; 3 this machine cannot run real PyTorch (the chroot cannot be built
# or entered), with the reason on one line: CI reports that as skipped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
chroot_dir=${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}
rebuild=0
chroot_only=0
for a in "$@"; do
  case "$a" in
    --rebuild-chroot) rebuild=1 ;;
    --chroot-only) chroot_only=1 ;;
    -h|--help) sed -n '2,66p' "$0"; exit 0 ;;
    *) echo "test-against-torch.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
start=$(date +%s)
phase() { echo "== $* ($(( $(date +%s) - start ))s)"; }

# 1. The chroot. pybind11-dev: what a legacy extension's build includes
# (verify_port.sh builds one); the ready file names the packages, so a
# chroot made with fewer is made again.
packages=python3-torch,g++,libtorch-dev,python3-yaml,pybind11-dev
if [ "$rebuild" = 1 ] || [ "$(cat "$chroot_dir/.torchabi-ready" 2>/dev/null)" != "$packages" ]; then
  command -v mmdebstrap >/dev/null || { echo "test-against-torch.sh: mmdebstrap is missing (scripts/install-deps.sh)" >&2; exit 2; }
  phase "building the sid chroot in $chroot_dir (a few minutes, once)"
  mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
    grep -oE 'https?://[^ ]+' | head -n1 || true)
  $sudo rm -rf "$chroot_dir.partial"
  mkdir -p "$(dirname "$chroot_dir")"
  # Bounded: a stalled mirror must not eat CI's time (exit 3 below: skipped).
  $sudo timeout 1500 mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="$packages" sid "$chroot_dir.partial" ${mirror:+"$mirror"} \
    >"$chroot_dir.log" 2>&1 || { tail -20 "$chroot_dir.log" >&2
    echo "test-against-torch.sh: cannot build the sid chroot (see $chroot_dir.log)" >&2; exit 3; }
  echo "$packages" | $sudo tee "$chroot_dir.partial/.torchabi-ready" >/dev/null
  $sudo rm -rf "$chroot_dir"
  $sudo mv "$chroot_dir.partial" "$chroot_dir"
fi
torch_version=$($sudo chroot "$chroot_dir" dpkg-query -W -f='${Version}' python3-torch) ||
  { echo "test-against-torch.sh: cannot enter the chroot $chroot_dir" >&2; exit 3; }
phase "real PyTorch: python3-torch $torch_version"
[ "$chroot_only" = 1 ] && exit 0

# 2. torchabi and the extensions.
[ -x "$build/torchabi" ] || { echo "test-against-torch.sh: $build/torchabi is not built (scripts/build.sh)" >&2; exit 2; }
work_in=/tmp/torchabi-against-torch
work=$chroot_dir$work_in
$sudo rm -rf "$work"
$sudo mkdir -p "$work/ext"
$sudo chown "$(id -u)" "$work" "$work/ext"
# A snapshot of torchabi and its runtime libraries: a build running meanwhile cannot pull them away.
mkdir -p "$work/bin/lib"
cp "$build/torchabi" "$work/bin/"
cp -r "$build/lib/torchabi-runtime" "$work/bin/lib/"
torchabi=$work/bin/torchabi
libdir=$(dirname "$(find "$chroot_dir/usr/lib" -name 'libtorch_cpu.so' -print -quit)")
# Only PyTorch's headers from the chroot: its libc and libstdc++ headers are sid's.
mkdir -p "$work/include"
for d in torch c10 ATen caffe2; do
  [ -d "$chroot_dir/usr/include/$d" ] && ln -s "$chroot_dir/usr/include/$d" "$work/include/$d"
done
phase "compiling the fixture extensions against $chroot_dir/usr/include/{torch,c10,ATen}"
flags=(-std=c++20 -O1 -fPIC -I"$work/include" -I"$root/fixtures/runtime")
link=(-L"$libdir" -Wl,--no-as-needed -ltorch_cpu -lc10 -Wl,--allow-shlib-undefined -Wl,-rpath-link,"$libdir")
throttle() { [ "$(jobs -r | wc -l)" -lt "${JOBS:-2}" ] || wait -n; }
compile() {  # NAME SOURCE: one extension from one file
  g++ "${flags[@]}" -shared "$2" -o "$work/ext/$1.so" "${link[@]}" 2>"$work/ext/$1.log" ||
    { echo "  cannot compile $1:"; grep -m3 error "$work/ext/$1.log"; }
}
for src in "$root"/fixtures/runtime/*.cpp "$root"/fixtures/runtime/bad/*.cpp; do
  name=$(basename "$src" .cpp)
  case "$src" in */bad/*) name=bad_$name ;; esac
  throttle
  compile "$name" "$src" &
done
# fixtures/real_stable: each file at its lowest target and at the headers'
# release, as its CMakeLists.txt builds it (markers in the files), one .so each.
rs=$root/fixtures/real_stable
if [ -d "$rs/csrc" ]; then
  ver=$work/include/torch/headeronly/version.h
  hex() { printf '0x%02x%02x000000000000' "${1%%.*}" "${1#*.}"; }
  release=$(sed -n 's/^#define TORCH_VERSION_MAJOR //p' "$ver").$(sed -n 's/^#define TORCH_VERSION_MINOR //p' "$ver")
  mkdir -p "$work/obj"
  for src in "$rs"/csrc/*.cpp; do
    grep -q 'torchabi-fixture: needs cuda' "$src" && continue
    extra=$(sed -n 's/.*torchabi-fixture: flags //p' "$src" | head -n1)
    lowest=$(sed -n 's/.*torchabi-fixture: lowest-target \([0-9.]*\).*/\1/p' "$src" | head -n1)
    for variant in lowest release; do
      def=()
      if [ $variant = release ]; then def=(-DTORCH_TARGET_VERSION="$(hex "$release")")
      elif ! grep -q 'lowest-target [0-9.]* in-source' "$src"; then def=(-DTORCH_TARGET_VERSION="$(hex "${lowest:-$release}")"); fi
      obj=$work/obj/$variant-$(basename "$src" .cpp).o
      throttle
      # shellcheck disable=SC2086 # $extra holds several flags
      (g++ "${flags[@]}" -I"$rs/include" "${def[@]}" $extra -c "$src" -o "$obj" 2>"$obj.log" ||
        { echo "  cannot compile real_stable ($variant) $(basename "$src"):"; grep -m3 error "$obj.log"; rm -f "$obj"; }) &
    done
  done
  wait
  for variant in lowest release; do
    objs=("$work"/obj/$variant-*.o)
    [ -e "${objs[0]}" ] && g++ -shared "${objs[@]}" -o "$work/ext/real_stable_$variant.so" "${link[@]}"
  done
fi
wait

# The manifest: every extension built, with its case file (same stem) if any.
phase "writing the manifest and the ATen op cases"
cp "$root/rules/runtime/aten_ops.tsv" "$work/aten_ops.tsv"
python3 "$root/scripts/against-torch/gen_aten_cases.py" "$work/aten_ops.tsv" "$work/aten_probe.yaml"
python3 - "$root" "$work" <<'EOF'
import json, os, sys, glob
root, work = sys.argv[1], sys.argv[2]
exts = []
for so in sorted(glob.glob(os.path.join(work, "ext", "*.so"))):
    name = os.path.basename(so)[:-3]
    ext = {"so": os.path.relpath(so, work)}
    cands = [os.path.join(root, "fixtures/runtime", name + ".yaml"),
             os.path.join(root, "fixtures/runtime/bad", name.removeprefix("bad_") + ".yaml"),
             ]
    if name.startswith("real_stable_"):
        cands = [os.path.join(root, "fixtures/real_stable", "cases.yaml")]
    if name == "aten_probe":
        ext["cases"] = "aten_probe.yaml"
        ext["env"] = {"TORCHABI_ATEN_PROBE_OPS": "aten_ops.tsv"}
        ext["isolate"] = False  # real ATen raises, it does not crash
    else:
        for c in cands:
            if os.path.exists(c):
                dst = os.path.join(work, name + ".cases.yaml")
                with open(c) as f, open(dst, "w") as g:
                    g.write(f.read())
                ext["cases"] = os.path.relpath(dst, work)
                break
    if ext.get("cases"):
        import yaml
        with open(os.path.join(work, ext["cases"])) as f:
            ext["case_count"] = len((yaml.safe_load(f) or {}).get("cases") or [])
    exts.append(ext)
with open(os.path.join(work, "manifest.json"), "w") as f:
    json.dump({"timeout": 10, "extensions": exts}, f, indent=1)
print(f"  {len(exts)} extensions")
EOF
cp "$root"/scripts/against-torch/{torch_runner.py,confined_fork.py} "$work/"

# 3. Real torch, inside the chroot (its own /proc, in a private mount namespace).
phase "running them in real PyTorch"
$sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
  chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp python3 $work_in/torch_runner.py \
    --manifest $work_in/manifest.json --out $work_in/torch_results.json" 2> >(grep -v 'UCX\|cpuinfo' >&2) ||
  [ -s "$work/torch_results.json" ] ||
  { echo "test-against-torch.sh: real PyTorch did not run in the chroot (no private mount namespace or /proc here?)" >&2; exit 3; }

# 4. torchabi, outside, with real torch's answers as expectations.
phase "running them in torchabi and comparing"
status=0
python3 "$root/scripts/against-torch/compare.py" --torchabi "$torchabi" --manifest "$work/manifest.json" \
  --torch-results "$work/torch_results.json" --work "$work" || status=$?
# 4b. rules/runtime/schema_types.tsv: how real torch parses each schema type
# name and which ones libtorch converts (the probe extension, in the chroot),
# then torchabi's runtime on the same probe must convert exactly those.
phase "schema types: the table and the runtime against real torch"
cp "$root/rules/runtime/schema_types.tsv" "$root/scripts/against-torch/schema_types.py" "$work/"
$sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
  chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp python3 $work_in/schema_types.py \
    --tsv $work_in/schema_types.tsv --probe $work_in/ext/types_probe.so --work $work_in --out $work_in/schema_types.json" \
  2> >(grep -v 'UCX\|cpuinfo' >&2) || status=1
if [ -s "$work/schema_types.json" ]; then
  python3 "$root/scripts/against-torch/schema_types.py" --observed "$work/schema_types.json" \
    --probe "$work/ext/types_probe.so" --torchabi "$torchabi" --work "$work" || status=1
fi
# 4c. The opcheck-class checks against real torch.library.opcheck: every op
# of every extension, with the inputs of a smoke call, in both (each
# extension in its own process: some hang or crash on purpose).
phase "opcheck: runtime-undeclared-mutation/-alias/-returns-input against real torch.library.opcheck"
mkdir -p "$work/opcheck"
cp "$root"/scripts/against-torch/{opcheck.py,confined_fork.py} "$work/"
opcheck_one() {  # NAME [VAR=VALUE]: one extension in its own process; failures show in the comparison
  $sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
    chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp $2 timeout 300 python3 $work_in/opcheck.py \
      --run $work_in/ext/$1.so --out $work_in/opcheck/$1.json --cases-dir $work_in/opcheck" >/dev/null 2>&1 || true
}
for so in "$work"/ext/*.so; do
  name=$(basename "$so" .so)
  probe_env=""
  case $name in
    types_probe) continue ;;
    aten_probe) probe_env="TORCHABI_ATEN_PROBE_OPS=$work_in/aten_ops.tsv" ;;  # its ops come from the list
  esac
  throttle
  opcheck_one "$name" "$probe_env" &
done
wait
python3 "$root/scripts/against-torch/opcheck.py" --compare "$work"/opcheck/*.json --torchabi "$torchabi" \
  --work "$work" --chroot-work "$work_in" || status=1
# The phases below (each its own script, with its own checks and summary;
# exit 3: it could not run here, "skipped" with why, not a failure; libtorch's
# UCX/cpuinfo chatter dropped) are independent of each other (own scratch directories,
# own private mounts): they run JOBS at once, which takes minutes off CI's
# time; each one's output is kept and printed whole, in this order, at the end.
#   later_phase TITLE WHY COMMAND...   (exit 3 from COMMAND: skipped with WHY)
phases=$work/phases
# Stopped (CI's timeout, ^C): the phases running in the background go with it.
stop_phases() { pkill -TERM -P $$ 2>/dev/null || true; }
trap 'stop_phases; exit 143' TERM INT
mkdir -p "$phases"
phase_count=0
later_phase() {
  local title=$1 why=$2 log
  shift 2
  phase_count=$((phase_count + 1))
  log=$phases/$(printf %02d "$phase_count")
  printf '%s\n%s\n' "$title" "$why" >"$log.title"
  throttle
  ( t0=$(date +%s); rc=0; "$@" >"$log.out" 2>&1 || rc=$?; echo "$rc $(( $(date +%s) - t0 ))" >"$log.rc" ) &
}
print_later_phases() {
  wait
  local t rc secs
  for t in "$phases"/*.title; do
    rc=1 secs=?
    read -r rc secs <"${t%.title}.rc" || true
    echo "== $(sed -n 1p "$t") (${secs}s, beside the others)"
    grep -v 'UCX\|cpuinfo' "${t%.title}.out" || true
    case $rc in
      0) ;;
      3) echo "  skipped: $(sed -n 2p "$t")" ;;
      *) status=1 ;;
    esac
  done
}
# 5. `audit --torch` against real loading: legacy extensions built against
# bookworm's 1.13 (versioned and unversioned DT_NEEDED) and against sid's
# headers, and stable ones, each loaded by real torch (sid in the chroot,
# bookworm's on this machine) and audited against both installs.
audit_loading() {
  mkdir -p "$work/loading"
  for f in "$build"/fixtures/legacy_ext/liblegacy_ext.so "$build"/fixtures/legacy_ext/liblegacy_ext_pip.so \
    "$work"/ext/good_ops.so "$work"/ext/real_stable_lowest.so; do
    [ -f "$f" ] && cp "$f" "$work/loading/"
  done
  g++ -std=c++20 -O0 -fPIC -shared -I"$work/include" -I"$work/include/torch/csrc/api/include" \
    "$root/fixtures/legacy_ext/legacy_ext.cpp" -o "$work/loading/liblegacy_ext_sid.so" "${link[@]}" \
    2>"$work/loading/legacy_sid.log" || { echo "  cannot compile the legacy extension against sid's headers:"; grep -m3 error "$work/loading/legacy_sid.log"; }
  python3 "$root/scripts/against-torch/loading.py" --torchabi "$torchabi" --chroot "$chroot_dir" --sid-libdir "$libdir" \
    "$work"/loading/*.so
}
# 7. The install's CUDA as torchabi reads it against torch.version.cuda.
audit_cuda() {
  [ -f "$build/fixtures/cuda_ext/libcuda_ext12.so" ] || return 3
  python3 "$root/scripts/against-torch/cuda.py" --torchabi "$torchabi" --chroot "$chroot_dir" \
    --cuda-lib "$build/fixtures/cuda_ext/libcuda_ext12.so"
}
phase "the phases below, ${JOBS:-2} at a time (each one's output follows, in order, when all are done)"
# 14 first, the longest: ports that behave like their originals: migrate
# --fix on the LLTM fixture, then verify-port in the chroot (both built
# against real torch, outputs compared), and broken ports it must catch.
later_phase "verify-port: the LLTM's port against its original in real torch" \
  "the chroot or the real headers could not be used" "$root/scripts/against-torch/verify_port.sh" "$chroot_dir" "$build"
# 4d. `torchabi run --torch PYTHON` itself: real opcheck in the chroot's python
# through torchabi's sandbox, on fixtures that fail test_schema and
# test_faketensor, one whose inputs only its own check messages reveal, and
# one that passes every utility (scripts/against-torch/opcheck_torch.sh).
later_phase "run --torch: torch.library.opcheck run by torchabi in the chroot's python" \
  "the chroot could not be used" "$root/scripts/against-torch/opcheck_torch.sh" "$chroot_dir" "$build"
later_phase "audit --torch against real loading" "the chroot could not be used" audit_loading
# 6. Project mode's setup.py recorder with real torch's cpp_extension against its stand-in.
later_phase "setup.py recorder: real cpp_extension against the stand-in" \
  "the recorder could not run in the chroot" "$root/scripts/against-torch/setup_run.sh" "$chroot_dir"
# 6b. The build.ninja real BuildExtension writes (setup.py build_ext, stopped
# before ninja runs) is what `check` lints, with its flags.
later_phase "check on the build.ninja real BuildExtension writes" \
  "the chroot could not be entered" "$root/scripts/against-torch/build_ninja.sh" "$torchabi" "$chroot_dir"
# 6c. torch.utils.cpp_extension.load()/load_inline(): the flags the real JIT
# build passes per compiler against those `check` reads from the calls.
later_phase "check on cpp_extension.load() calls against the real JIT build's flags" \
  "torch's load() could not run here" "$root/scripts/against-torch/jit_load.sh" "$torchabi" \
  "$chroot_dir/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py"
later_phase "audit --torch's CUDA against torch.version.cuda" "fixtures/cuda_ext is not built" audit_cuda
# 8. PyTorch's own distribution (Debian's python3-torch, the chroot's
# dist-packages) is one line in `audit`, never audited as extensions.
later_phase "audit: PyTorch itself is not an extension" \
  "the chroot could not be entered" "$root/scripts/against-torch/torch_itself.sh" "$torchabi" "$chroot_dir"
# 9. `run --root`: the reference runtime inside the chroot, on an extension
# built there with sid's g++ and on Debian's own libtorchaudio.
later_phase "run --root in the sid chroot" \
  "the chroot could not be entered" "$root/scripts/against-torch/run_root.sh" "$torchabi" "$chroot_dir"
# 10. Third-party builds as ground truth: Debian's torchaudio, torchcodec,
# torchvision, torch-scatter/-sparse/-cluster — audit --torch against real
# loads, every op in the reference runtime (run --root) against real torch.
later_phase "third-party builds: Debian's extension packages against real torch" \
  "the chroot could not be entered" "$root/scripts/against-torch/third_party.sh" "$torchabi" "$chroot_dir"
# 11. What migrate's steps rely on: legacy and stable registrations side by side.
later_phase "migrate steps: legacy and stable registrations side by side" \
  "the chroot could not be entered" "$root/scripts/against-torch/mixed_registrations.sh" "$chroot_dir"
# 12. Ops without a Tensor argument: which kernels real torch's dispatcher reaches.
later_phase "schema-tensorless-backend-kernel against real dispatch" \
  "the chroot could not be entered" "$root/scripts/against-torch/tensorless_dispatch.sh" "$torchabi" "$chroot_dir"
print_later_phases
phase "done (work files in $work)"
exit $status
