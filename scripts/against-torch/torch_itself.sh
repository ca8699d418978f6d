#!/usr/bin/env bash
# PyTorch's own distribution against a real one: Debian's python3-torch
# dist-packages tree (scripts/fetch-torch.sh) audited as a directory must say
# "PyTorch X itself: not an extension" once and report nothing about torch's
# own libraries (libtorch_python.so alone earned 4984 errors before); named
# explicitly, libtorch_cpu.so is audited and carries binary-torch-itself.
# With the sid chroot, the same on its whole installed dist-packages.
#
#   scripts/against-torch/torch_itself.sh TORCHABI [CHROOT]
#
# Exit 0 when every check holds, 1 on a disagreement, 3 when real PyTorch
# cannot be fetched (skipped).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
torchabi=$1
chroot_dir=${2:-}
torch_root=$("$root/scripts/fetch-torch.sh" 2>/dev/null) || { echo "  skipped: cannot fetch Debian's PyTorch"; exit 3; }
status=0
check() {  # LABEL DIR: audit DIR as a directory; torch is one line, nothing about its libraries
  python3 - "$torchabi" "$1" "$2" <<'PY' || status=1
import json, subprocess, sys
torchabi, label, site = sys.argv[1:]
p = subprocess.run([torchabi, "audit", "--format", "json", site], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
if p.returncode not in (0, 1):
    print(f"FAIL {label}: exit {p.returncode}: {p.stderr.strip()}"); sys.exit(1)
j = json.loads(p.stdout)
mine = [f for f in j["findings"] if "/torch/" in f["location"]["file"] or "/functorch/" in f["location"]["file"]]
lines = [s for s in j["subjects"] if s.get("loads_on", "").endswith("itself: not an extension")]
errors = sum(1 for f in j["findings"] if f.get("severity") == "error")
ok = not mine and len(lines) == 1
print(f"{'ok  ' if ok else 'FAIL'} {label}: {len(j['subjects'])} entries, {errors} errors, "
      f"{len(mine)} findings on torch's own libraries; {lines[0]['path'] + ': ' + lines[0]['loads_on'] if lines else 'no torch line'}"
      + (f" ({lines[0]['facts'].get('not audited')})" if lines else ""))
for f in mine[:5]:
    print(f"    {f['location']['file']}: {f['message']}")
sys.exit(0 if ok else 1)
PY
}
site="$torch_root/usr/lib/python3/dist-packages"
check "fetched python3-torch dist-packages" "$site"
check "fetched torch/lib" "$site/torch/lib"
# Named explicitly: audited, with the note.
named=$("$torchabi" audit --format json "$site/torch/lib/libtorch_cpu.so" 2>/dev/null)
python3 -c '
import json, sys
j = json.load(sys.stdin)
n = [f for f in j["findings"] if f["rule"] == "binary-torch-itself"]
errors = sum(1 for f in j["findings"] if f.get("severity") == "error")
ok = len(n) == 1 and errors > 0
print(("ok  " if ok else "FAIL") + f" libtorch_cpu.so named explicitly: audited ({errors} errors) and noted: " + (n[0]["message"] if n else "no note"))
sys.exit(0 if ok else 1)' <<<"$named" || status=1
if [ -n "$chroot_dir" ] && [ -d "$chroot_dir/usr/lib/python3/dist-packages" ]; then
  check "the sid chroot's dist-packages" "$chroot_dir/usr/lib/python3/dist-packages"
fi
exit $status
