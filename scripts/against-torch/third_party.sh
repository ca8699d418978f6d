#!/usr/bin/env bash
# Extensions nobody in this project built, as ground truth: Debian's own
# python3-torchaudio, -torchcodec, -torchvision and -torch-scatter/-sparse/
# -cluster, compiled by Debian against its libtorch 2.14.1.
#
#   scripts/against-torch/third_party.sh [--reuse] TORCHABI [CHROOT]
#
# 1. fetch_third_party.sh unpacks them, with what the sid chroot lacks, into
#    a cache (private apt configuration; the chroot is not changed).
# 2. In a private mount namespace the packages are laid over the chroot with
#    overlayfs (writes go to a temporary upper directory, dropped at the end).
# 3. Real torch in that root: every op each library registers, called with
#    the smoke inputs `torchabi run` builds (the first dtype real torch
#    accepts), and whether each library loads after `import torch` and each
#    package imports.
# 4. torchabi: `audit --torch` (verdict, floor, measured load) against those
#    loads, and `run --root` (the reference runtime inside the same root, no
#    PyTorch) on every library with real torch's results as expectations
#    (compare.py). Prints the figures: ops run, agreeing, disagreeing, not
#    runnable and why.
#
# Work files stay in $TORCHABI_THIRD_PARTY_CACHE/work (default
# ~/.cache/torchabi/third-party/work); --reuse keeps real torch's results
# from the last run (step 3 takes minutes) and redoes torchabi's side only.
#
# Exit 0 when all agree, 1 on a disagreement, 3 when skipped (no chroot, no
# network for the packages).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
reuse=0
[ "${1:-}" = --reuse ] && { reuse=1; shift; }
torchabi=$(realpath "$1")
chroot_dir=$(realpath -m "${2:-${TORCHABI_TORCH_CHROOT:-$HOME/.cache/torchabi/sid-torch}}")
cache=${TORCHABI_THIRD_PARTY_CACHE:-$HOME/.cache/torchabi/third-party}
[ -d "$chroot_dir/usr/lib/python3/dist-packages/torch" ] ||
  { echo "  skipped: no sid chroot with python3-torch at $chroot_dir"; exit 3; }
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
if [ -z "${TORCHABI_THIRD_PARTY_NS:-}" ]; then
  third=$("$root/scripts/against-torch/fetch_third_party.sh" "$chroot_dir" "$cache") ||
    { echo "  skipped: cannot fetch Debian's extension packages"; exit 3; }
  # Everything else in a private mount namespace: the overlay and /proc vanish with it.
  args=("$@")
  [ $reuse = 1 ] && args=(--reuse "${args[@]}")
  exec $sudo unshare --pid --mount --fork env TORCHABI_THIRD_PARTY_NS="$third" TORCHABI_THIRD_PARTY_CACHE="$cache" \
    "$0" "${args[@]}"
fi
third=$TORCHABI_THIRD_PARTY_NS
mount --make-rprivate /
tmp=$(mktemp -d)
trap 'umount -R "$tmp/merged" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/upper" "$tmp/ovl" "$tmp/merged"
mount -t overlay overlay -o "lowerdir=$third:$chroot_dir,upperdir=$tmp/upper,workdir=$tmp/ovl" "$tmp/merged" ||
  { echo "  skipped: cannot lay the packages over the chroot (overlayfs)"; exit 3; }
merged=$tmp/merged
mount -t proc proc "$merged/proc"
site_in=/usr/lib/python3/dist-packages
work_in=/tmp/torchabi-third-party
work=$merged$work_in
# The work directory lives outside the overlay, so that results outlast it.
mkdir -p "$cache/work" "$work"
mount --bind "$cache/work" "$work"
cp "$root"/scripts/against-torch/{third_party.py,torch_runner.py,opcheck.py,confined_fork.py} "$work/"
rm -rf "$work/cases" && cp -r "$root/scripts/against-torch/third_party_cases" "$work/cases"
in_root() { chroot "$merged" env -i PATH=/usr/bin:/bin HOME=/tmp "$@"; }
pyver=$(in_root python3 -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
# The libraries of the packages this root's Python can import (cpython-314, abi3, untagged).
libs=()
while IFS= read -r so; do
  case "$so" in *.cpython-*) [[ "$so" == *.cpython-$pyver-* ]] || continue ;; esac
  libs+=("${so#"$merged"}")
done < <(find "$merged$site_in"/{torchaudio,torchcodec,torchvision,torch_scatter,torch_sparse,torch_cluster} \
  -name '*.so' 2>/dev/null | sort)
echo "== $(sed -n 's/^Package: \(python3-torch[a-z-]*\) Version: /\1 /p' "$third/.torchabi-fetched" | paste -sd, | sed 's/,/, /g')"
# shellcheck disable=SC2016 # dpkg-query's own ${Version}
echo "   ${#libs[@]} libraries, real torch $(in_root dpkg-query -W -f='${Version}' python3-torch)"

if [ $reuse = 0 ] || [ ! -s "$work/torch_results.json" ] || [ ! -s "$work/real.json" ]; then
  in_root python3 "$work_in/third_party.py" --gen "${libs[@]}" --work "$work_in" --extra-cases "$work_in/cases" 2> >(grep -v 'UCX\|cpuinfo' >&2)
  in_root python3 "$work_in/third_party.py" --audit-real "${libs[@]}" --packages torchaudio torchcodec torchvision \
    torch_scatter torch_sparse torch_cluster --out "$work_in/real.json" 2>/dev/null
fi
host_libs=()
for l in "${libs[@]}"; do host_libs+=("$merged$l"); done
"$torchabi" audit --format json --torch "$merged$site_in/torch" "${host_libs[@]}" >"$work/audit.json" 2>"$work/audit.err"
# The whole installed dist-packages, as a user audits an environment: the
# extensions' findings, PyTorch itself one line and nothing about its libraries.
"$torchabi" audit --format json "$merged$site_in" >"$work/site.json" 2>/dev/null
status=0
python3 - "$work/site.json" <<'PY' || status=1
import json, sys
j = json.load(open(sys.argv[1]))
torch = [s for s in j["subjects"] if s.get("loads_on", "").endswith("itself: not an extension")]
mine = [f for f in j["findings"] if "/dist-packages/torch/" in f["location"]["file"]]
errors = sum(1 for f in j["findings"] if f.get("severity") == "error")
ok = len(torch) == 1 and not mine
print(f"== audit of the whole dist-packages: {len(j['subjects'])} entries, {errors} errors (the extensions'), "
      f"{len(mine)} on PyTorch's own libraries; {torch[0]['path'].split('/')[-1] + ': ' + torch[0]['loads_on'] if torch else 'no torch line'}"
      + ("" if ok else "  FAIL"))
sys.exit(0 if ok else 1)
PY
python3 "$root/scripts/against-torch/third_party.py" --report --torchabi "$torchabi" --root "$merged" --work "$work" \
  --audit "$work/audit.json" --real "$work/real.json" || status=1
exit $status
