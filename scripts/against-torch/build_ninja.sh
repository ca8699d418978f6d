#!/usr/bin/env bash
# `torchabi check` on the build.ninja real torch's BuildExtension writes.
#
#   scripts/against-torch/build_ninja.sh TORCHABI [CHROOT]
#   scripts/against-torch/build_ninja.sh TORCHABI --host-python PY   # a torch installed here
#
# fixtures/projects/setuptools_built (without its committed build/) is built
# with real torch's BuildExtension (`python3 setup.py build_ext`,
# SAMPLE_TARGET=0x020a000000000000) in the sid chroot, stopped after
# build.ninja is written: ninja is not run, nothing is compiled. Outside,
# `torchabi check` must read that file (the report's build-commands subject),
# list the same sources as it (and as `ninja -t compdb`, when ninja is
# installed here), and lint them with its flags: TORCH_TARGET_VERSION 2.10,
# which only the build had (setup.py alone says 2.9). The project lives at
# the same absolute path inside and outside; the chroot's /usr is made a
# host path in the -I flags so that its torch headers are the ones parsed.
#
# Exit status: 0 agree; 1 a disagreement (printed); 3 the chroot cannot be
# entered or torch cannot be imported (skipped), with the reason on one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
torchabi=${1:?usage: build_ninja.sh TORCHABI [CHROOT | --host-python PY]}
host_python=""
chroot_dir=${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}
if [ "${2:-}" = --host-python ]; then
  host_python=${3:?--host-python needs an interpreter}
  chroot_dir=""
elif [ -n "${2:-}" ]; then
  chroot_dir=$2
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
work=/tmp/torchabi-build-ninja
if [ -n "$chroot_dir" ]; then
  [ -f "$chroot_dir/.torchabi-ready" ] || { echo "build_ninja.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
else
  "$host_python" -c 'import torch.utils.cpp_extension' 2>/dev/null ||
    { echo "build_ninja.sh: $host_python cannot import torch.utils.cpp_extension" >&2; exit 3; }
fi
inside=$chroot_dir$work
trap '$sudo rm -rf "$inside" "$work"' EXIT
$sudo rm -rf "$inside" "$work"
$sudo mkdir -p "$inside"
$sudo chown "$(id -u)" "$inside"
cp -r "$root/fixtures/projects/setuptools_built" "$inside/proj"
rm -rf "$inside/proj/build"
# BuildExtension as pip runs it, with ninja's run replaced by a stop (and
# ninja taken as present: the chroot has none, and nothing is compiled).
cat > "$inside/write_ninja.py" <<'EOF'
import runpy, sys
import torch.utils.cpp_extension as ce

class Written(Exception):
    pass

def stop(build_directory, *args, **kwargs):
    raise Written(build_directory)

ce.is_ninja_available = lambda: True
ce.verify_ninja_availability = lambda: None
ce._run_ninja_build = stop
sys.argv = ["setup.py", "build_ext"]
try:
    runpy.run_path("setup.py", run_name="__main__")
except Written as e:
    print("build.ninja written in", e.args[0])
else:
    sys.exit("setup.py build_ext ended without writing build.ninja")
EOF
run="cd $work/proj && SAMPLE_TARGET=0x020a000000000000 python3 ../write_ninja.py"
if [ -n "$chroot_dir" ]; then
  $sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
    chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c '$run'" >"$inside/write.log" 2>&1 ||
    { echo "build_ninja.sh: BuildExtension did not write build.ninja in the chroot:" >&2; tail -3 "$inside/write.log" >&2; exit 1; }
  mkdir -p "$work"
  cp -r "$inside/proj" "$work/"
  # The chroot's headers, seen from here.
  sed -i "s# -I/usr/# -I$chroot_dir/usr/#g; s# -isystem /usr/# -isystem $chroot_dir/usr/#g" "$work"/proj/build/temp.*/build.ninja
else
  (cd "$work/proj" && SAMPLE_TARGET=0x020a000000000000 "$host_python" ../write_ninja.py) >"$work/write.log" 2>&1 ||
    { echo "build_ninja.sh: BuildExtension did not write build.ninja:" >&2; tail -3 "$work/write.log" >&2; exit 1; }
fi
ninja_file=$(ls "$work"/proj/build/temp.*/build.ninja)
compdb=""
if command -v ninja >/dev/null; then
  compdb=$work/compdb.json
  ninja -C "$(dirname "$ninja_file")" -t compdb -x >"$compdb"
fi
"$torchabi" check --format json --cache-dir "$work/cache" "$work/proj" >"$work/report.json" 2>"$work/check.err" || true
python3 - "$work/report.json" "$ninja_file" "$compdb" <<'EOF'
import json, os, sys

report_path, ninja_file, compdb = sys.argv[1:4]
failures = []
try:
    report = json.load(open(report_path))
except ValueError:
    sys.exit("build_ninja.sh: torchabi check gave no JSON report")
compiles = [l.split(": ", 1)[1].split()[1] for l in open(ninja_file) if l.startswith("build ") and ": compile " in l]
subjects = [s for s in report["subjects"] if s["kind"] == "build-commands"]
if len(subjects) != 1 or subjects[0]["path"] != ninja_file:
    failures.append(f"the report does not name {ninja_file}: {[s['path'] for s in subjects]}")
elif subjects[0]["facts"].get("compile commands") != str(len(compiles)):
    failures.append(f"{subjects[0]['facts'].get('compile commands')} commands read, build.ninja has {len(compiles)}")
units = {s["path"]: s for s in report["subjects"] if s["kind"] == "translation-unit"}
names = sorted(os.path.basename(p) for p in units)
if names != sorted(os.path.basename(c) for c in compiles):
    failures.append(f"linted {names}, build.ninja compiles {compiles}")
if compdb:
    listed = sorted(os.path.basename(e["file"]) for e in json.load(open(compdb)) if e["command"])
    if listed != names:
        failures.append(f"ninja -t compdb lists {listed}, torchabi linted {names}")
for path, s in units.items():
    target = s["facts"].get("TORCH_TARGET_VERSION", "")
    if "from -DTORCH_TARGET_VERSION=0x020a000000000000" not in target:
        failures.append(f"{path}: not linted with build.ninja's target: {target!r}")
for f in report["findings"]:
    if f["rule"] == "version-api-after-target":
        failures.append(f"{f['location'].get('file')}: {f['message']} (build.ninja targets 2.10)")
for f in failures:
    print("  DISAGREE:", f)
print(f"build.ninja: {len(compiles)} compiles, {len(failures)} disagreements")
sys.exit(1 if failures else 0)
EOF
