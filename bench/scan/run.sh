#!/usr/bin/env bash
# Benchmark: `torchabi scan` of N generated artifacts (default 1,000: tiny
# stable, stable-2.12, legacy and CUDA 11/12 libraries in wheels, .conda and
# .tar.bz2 packages) on a local Dask cluster with 1, 2 and 4 worker
# processes: wall time of the whole command (cluster start, hashing, the
# audits, storing each result, the merged reports), artifacts per second, the
# scaling against 1 worker, and the merged report checked equal to `torchabi
# audit` on each artifact. First, the rate of one worker's audits alone.
#
#   bench/scan/run.sh                       # N=1000, WORKERS="1 2 4"
#   N=200 WORKERS="1 2" bench/scan/run.sh
#
# Each run starts from an empty output directory (nothing reused); a last
# run repeats the widest one into its full output directory to time a
# re-run that only merges. Against the v1 stand-in torch (a --torch
# install) and the rules for releases 2.10 and 2.12.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
n=${N:-1000}
workers=${WORKERS:-1 2 4}
torch=$build/fixtures/torch_standins/v1/torch
[ -x "$torchabi" ] || { echo "bench: $torchabi not built (scripts/build.sh)" >&2; exit 2; }
/usr/bin/python3 -c 'import distributed' 2>/dev/null ||
  { echo "bench: /usr/bin/python3 has no Dask: apt-get install python3-distributed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$here/gen_artifacts.py" "$build" "$work/artifacts" "$n"
echo "artifacts: $(ls "$work/artifacts" | wc -l) ($(du -sh "$work/artifacts" | cut -f1)); cores: $(nproc)"
# What one worker process does with its share: every artifact audited in one
# `torchabi __audit-batch` (the rules and the --torch install read once), as
# scan's batches are, without Dask, the client or the report.
start=$(date +%s.%N)
find "$work/artifacts" -type f -print0 |
  "$torchabi" __audit-batch --format json --torch "$torch" >/dev/null
end=$(date +%s.%N)
echo "one worker process, all $n in one batch: $(awk -v a="$start" -v b="$end" -v n="$n" \
  'BEGIN { printf "%.2f s, %.0f artifacts/s", b - a, n / (b - a) }')"
printf '%-8s %10s %14s %8s\n' workers seconds artifacts/s scaling
base=""
last=""
for w in $workers; do
  out=$work/out-$w
  start=$(date +%s.%N)
  "$torchabi" scan -o "$out" --workers "$w" --torch "$torch" --release 2.10 --release 2.12 "$work/artifacts" 2>/dev/null
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  rate=$(awk -v s="$secs" -v n="$n" 'BEGIN { printf "%.1f", n / s }')
  [ -n "$base" ] || base=$secs
  printf '%-8s %10s %14s %8s\n' "$w" "$secs" "$rate" "$(awk -v a="$base" -v b="$secs" 'BEGIN { printf "%.2fx", a / b }')"
  last=$out
done
start=$(date +%s.%N)
"$torchabi" scan -o "$last" --torch "$torch" --release 2.10 --release 2.12 "$work/artifacts" 2>/dev/null
end=$(date +%s.%N)
echo "re-run (all $n results reused, merge only): $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']; print('report:', s)" "$last/report.json"
echo "merged report against torchabi audit on each artifact:"
python3 "$here/check_equal.py" "$torchabi" "$last" --torch "$torch"
