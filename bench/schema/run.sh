#!/usr/bin/env bash
# Benchmark: checking every schema of PyTorch's native_functions.yaml with
# `torchabi schema --file` against what users run today to validate schemas:
# PyTorch's own parser from Python, torch._C.parse_schema (Debian's
# python3-torch), and torchgen's FunctionSchema.parse (what codegen uses).
#
#   bench/schema/run.sh                 # REPS=10 runs per measurement
#   BUILD_DIR=build-x REPS=20 bench/schema/run.sh
#
# Prints the median wall time of each (whole process, as a user or CI job
# runs it) and the ratio other / torchabi (> 1: torchabi is faster).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
reps=${REPS:-10}
yaml=${NATIVE_FUNCTIONS:-$root/../shared/data/pytorch/native_functions-1.13.1.yaml}
python=${PYTHON:-/usr/bin/python3}

[ -x "$torchabi" ] || { echo "bench: $torchabi not found (build torchabi first: scripts/build.sh)" >&2; exit 2; }
[ -f "$yaml" ] || { echo "bench: $yaml not found" >&2; exit 2; }

median_ms() {
  local cmd=$1 times=()
  bash -c "$cmd" >/dev/null 2>&1 || true
  for ((i = 0; i < reps; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    bash -c "$cmd" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f", m / 1000}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

load='import yaml,sys; fs=[e["func"] for e in yaml.safe_load(open(sys.argv[1])) if "func" in e]'
t_abi=$(median_ms "'$torchabi' schema --file '$yaml' -q")
printf '%-40s %8s ms\n' "torchabi schema --file" "$t_abi"
if "$python" -c 'import torch' 2>/dev/null; then
  t_torch=$(median_ms "'$python' -c '$load; import torch; [torch._C.parse_schema(f) for f in fs]' '$yaml'")
  printf '%-40s %8s ms   ratio %6sx\n' "torch._C.parse_schema (python3-torch)" "$t_torch" "$(ratio "$t_torch" "$t_abi")"
fi
if "$python" -c 'import torchgen.model' 2>/dev/null; then
  t_gen=$(median_ms "'$python' -c '$load; from torchgen.model import FunctionSchema as F; [F.parse(f) for f in fs]' '$yaml'")
  printf '%-40s %8s ms   ratio %6sx\n' "torchgen FunctionSchema.parse" "$t_gen" "$(ratio "$t_gen" "$t_abi")"
fi
