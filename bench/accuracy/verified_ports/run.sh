#!/usr/bin/env bash
# Ports of public legacy extensions, made by `migrate --fix --unsafe-fixes`
# and checked by `verify-port` in real torch 2.14.1: code nobody in this
# project wrote (cases.tsv: repository, commit, paths, sha256 of each file;
# the files are read from git snapshots, never committed). Per case:
#   uses       the plan's non-stable uses before the fix, and left after it
#   whole      nothing left: the file is ported completely
#   stable     the port compiles with the stable headers alone at the target
#   ops        the port's ops that give the original's outputs on the same
#              inputs (the case's inputs file, else generated ones), of all
#              the port registers
# migrate runs here with Debian sid's real 2.14.1 headers (BUILD_DIR/torch-sid,
# scripts/fetch-torch.sh); verify-port runs in the sid chroot of
# scripts/test-against-torch.sh (python3-torch 2.14.1, g++, pybind11-dev).
#
#   bench/accuracy/verified_ports/run.sh MIRROR_DIR [BUILD_DIR]
# MIRROR_DIR holds <owner>+<name>/repo, git snapshots (the `fetch` tool's
# layout). Exit 77 when a snapshot, the headers or the chroot is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mirror=${1:?usage: run.sh MIRROR_DIR [BUILD_DIR]}
build=$(realpath "${2:-$root/build}")
real=$build/torch-sid/root/usr/include
chroot_dir=${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
[ -f "$real/torch/csrc/stable/library.h" ] || { echo "run.sh: no real 2.14 headers at $real (scripts/fetch-torch.sh)"; exit 77; }
[ -f "$chroot_dir/.torchabi-ready" ] || { echo "run.sh: no torch chroot at $chroot_dir (scripts/test-against-torch.sh --chroot-only)"; exit 77; }
py_include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
flags=(-- -std=c++20 "-isystem$real" "-isystem$real/torch/csrc/api/include" "-I$py_include")
work_in=/tmp/torchabi-bench-verified-ports
work=$chroot_dir$work_in
$sudo rm -rf "$work"
$sudo mkdir -p "$work/bin/lib"
$sudo cp "$build/torchabi" "$work/bin/"
$sudo cp -r "$build/lib/torchabi-runtime" "$work/bin/lib/"
in_chroot() {
  $sudo unshare --pid --mount --fork sh -c "mount --make-rprivate / && mount --rbind '$chroot_dir' '$chroot_dir' &&
    mount -t proc proc '$chroot_dir/proc' && chroot '$chroot_dir' env -i PATH=/usr/bin:/bin HOME=/tmp sh -c '$1'"
}
uses() {  # DIR PATHS...: the plan's uses (JSON summary total)
  local dir=$1; shift
  (cd "$dir" && "$build/torchabi" migrate --format json --no-cache "$@" "${flags[@]}" 2>/dev/null) |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["total"])' 2>/dev/null || echo "?"
}
start=$(date +%s)
results=()
while IFS=$'\t' read -r name repo commit paths digests inputs; do
  [ "$name" = case ] && continue
  git_dir=$mirror/${repo/\//+}/repo
  [ -d "$git_dir" ] || { echo "run.sh: no snapshot of $repo in $mirror (fetch github:$repo)"; exit 77; }
  case_dir=$work/$name
  $sudo mkdir -p "$case_dir/original"
  IFS=, read -ra files <<<"$paths"
  IFS=, read -ra sums <<<"$digests"
  for i in "${!files[@]}"; do
    f=${files[$i]}
    $sudo mkdir -p "$case_dir/original/$(dirname "$f")"
    git --git-dir="$git_dir" show "$commit:$f" | $sudo tee "$case_dir/original/$f" >/dev/null
    echo "${sums[$i]}  $case_dir/original/$f" | sha256sum -c --quiet || { echo "run.sh: $repo $f differs from its digest"; exit 1; }
  done
  $sudo cp -r "$case_dir/original" "$case_dir/port"
  before=$(uses "$case_dir/port" "${files[@]}")
  (cd "$case_dir/port" && "$build/torchabi" migrate --fix --unsafe-fixes --no-cache "${files[@]}" "${flags[@]}") \
    >"$case_dir/fix.log" 2>&1
  after=$(uses "$case_dir/port" "${files[@]}")
  target=$( (cd "$case_dir/original" && "$build/torchabi" migrate --format json --no-cache "${files[@]}" "${flags[@]}" 2>/dev/null) |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_version"]["release"])' 2>/dev/null || echo 2.10)
  opts="--target-version $target --format json -o $work_in/$name/verify.json --torch /usr/bin/python3"
  if [ "$inputs" != - ]; then $sudo cp "$root/$inputs" "$case_dir/inputs.py"; opts="$opts --inputs $work_in/$name/inputs.py"; fi
  in_chroot "$work_in/bin/torchabi verify-port $work_in/$name/original $work_in/$name/port $opts" >/dev/null 2>&1
  results+=("$name	$before	$after	$target	$case_dir/verify.json")
  echo "$name: planned, fixed and verified ($(( $(date +%s) - start )) s)" >&2
done <"$here/cases.tsv"
printf '%s\n' "${results[@]}" | python3 "$here/score.py"
