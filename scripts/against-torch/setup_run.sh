#!/usr/bin/env bash
# project mode's setup.py recorder (src/inputs/project/record_setup.py) with
# real torch against its stand-in cpp_extension.
#
#   scripts/against-torch/setup_run.sh [CHROOT]
#
# Fixture projects (fixtures/projects/setup_run_{sources,platform}) are run by
# the recorder inside the sid chroot (python3-torch, its real
# torch.utils.cpp_extension) and outside with the stand-in (--no-torch), as
# linux and as win32. The extensions recorded must agree: names, kinds,
# sources, macros, flags, lines; the real run's include directories are the
# stand-in's plus torch's own (and the stand-in CUDA toolkit's).
#
# Exit status: 0 agree; 1 a disagreement (printed); 3 the chroot cannot be
# entered (skipped), with the reason on one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
chroot_dir=${1:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
[ -f "$chroot_dir/.torchabi-ready" ] || { echo "setup_run.sh: no torch chroot at $chroot_dir" >&2; exit 3; }
python3 -c 'import setuptools' 2>/dev/null || { echo "setup_run.sh: python3 here cannot import setuptools" >&2; exit 3; }
fixtures=(setup_run_sources setup_run_platform)
platforms=(linux win32)
work_in=/tmp/torchabi-setup-run
inside=$chroot_dir$work_in
outside=$(mktemp -d)
trap '$sudo rm -rf "$inside" "$outside"' EXIT
$sudo rm -rf "$inside"
$sudo mkdir -p "$inside"
$sudo chown "$(id -u)" "$inside"
for d in "$inside" "$outside"; do
  cp "$root/src/inputs/project/record_setup.py" "$root/src/inputs/project/record_cmake_drive.py" "$d/"
  for f in "${fixtures[@]}"; do
    for p in "${platforms[@]}"; do
      mkdir -p "$d/$p" && cp -r "$root/fixtures/projects/$f" "$d/$p/"
    done
  done
done
runs=""
for f in "${fixtures[@]}"; do
  for p in "${platforms[@]}"; do
    runs+="python3 record_setup.py --platform $p --out $f-$p.json --cuda-home cuda-$p-$f $p/$f/setup.py 2>$f-$p.err || { echo \"recorder failed on $f ($p):\"; tail -1 $f-$p.err; }; "
  done
done
(cd "$outside" && sh -c "${runs//python3 record_setup.py/python3 record_setup.py --no-torch}")
$sudo unshare --pid --mount --fork sh -c "mount -t proc proc '$chroot_dir/proc' &&
  chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c 'cd $work_in && $runs'" ||
  [ -s "$inside/${fixtures[0]}-linux.json" ] ||
  { echo "setup_run.sh: cannot run python3 in the chroot $chroot_dir" >&2; exit 3; }
python3 "$root/scripts/against-torch/setup_run_compare.py" --real "$inside" --standin "$outside" \
  --fixtures "${fixtures[@]}" --platforms "${platforms[@]}"
