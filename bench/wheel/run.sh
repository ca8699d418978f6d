#!/usr/bin/env bash
# Benchmark: torchabi as wheel users run it, the `torchabi` command of a venv
# the wheel was pip-installed into (the program itself, no interpreter first),
# paired with the alternatives in one run (bench/wheel/paired.py alternates
# the two commands, so both see the same load):
#   - `torchabi --version` vs `python -m torchabi --version` (what the
#     console-script entry point cost before: an interpreter, then execv);
#   - `torchabi audit X` vs `nm -D --undefined-only X | c++filt` for every
#     real extension library of Debian sid's python3-torchaudio,
#     -torchvision, -torchcodec, -torch-scatter, -torch-sparse and
#     -torch-cluster (bench/wheel/fetch-extensions.sh downloads them).
#
#   bench/wheel/run.sh [WHEEL]          (default: built now, scripts/build-wheel.sh)
#   REPS=30 bench/wheel/run.sh
#
# Prints a Markdown table: medians of wall and CPU (user+sys of every process)
# time, and the ratios alternative / torchabi (> 1: torchabi is faster).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
reps=${REPS:-20}
for tool in nm c++filt python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool not found (binutils, python3)" >&2; exit 2; }
done
wheel=${1:-}
if [ -z "$wheel" ]; then
  wheel=$("$root/scripts/build-wheel.sh" --out "$build/bench-wheel")
fi
extensions=$("$here/fetch-extensions.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$wheel"
torchabi=$work/venv/bin/torchabi
head -c4 "$torchabi" | grep -q ELF || { echo "bench: $torchabi is not the program (an older wheel?)" >&2; exit 2; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
paired() { python3 "$here/paired.py" "$reps" "$@"; }
echo "wheel: $(basename "$wheel"); $("$torchabi" --version | head -n1); load average: $(cut -d' ' -f1-3 /proc/loadavg);" \
  "medians of $reps paired runs"
echo
read -r aw ac bw bc <<<"$(paired -- "$torchabi" --version -- "$work/venv/bin/python" -m torchabi --version)"
echo "| command | torchabi wall | torchabi CPU | alternative | its wall | its CPU | ratio (CPU) | ratio (wall) |"
echo "|---|---:|---:|---|---:|---:|---:|---:|"
echo "| \`torchabi --version\` | $aw ms | $ac ms | \`python -m torchabi --version\` | $bw ms | $bc ms | $(ratio "$bc" "$ac")x | $(ratio "$bw" "$aw")x |"
echo
echo "| extension library (Debian sid) | size | torchabi audit wall | CPU | nm -D \\| c++filt wall | CPU | ratio (CPU) | ratio (wall) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
worst=""
while IFS= read -r -d '' so; do
  head -c4 "$so" | grep -q ELF || continue
  rc=0
  "$torchabi" audit "$so" >"$work/out.txt" 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then echo "bench: torchabi audit $so failed (exit $rc): $(head -n1 "$work/out.txt")" >&2; exit 1; fi
  [ -n "$(nm -D --undefined-only "$so" | c++filt | head -n1)" ] || { echo "bench: nm reads nothing from $so" >&2; exit 1; }
  read -r aw ac bw bc <<<"$(paired -- "$torchabi" audit "$so" -- nm -D --undefined-only "$so" '|' c++filt)"
  r=$(ratio "$bc" "$ac")
  echo "| ${so#"$extensions"/usr/lib/python3/dist-packages/} | $(($(stat -L -c %s "$so") / 1024)) kB | $aw ms | $ac ms | $bw ms | $bc ms | ${r}x | $(ratio "$bw" "$aw")x |"
  worst=$(printf '%s\n%s\n' "$worst" "$r" | sed '/^$/d' | sort -g | head -n1)
done < <(find "$extensions/usr/lib" -name '*.so*' -type f -print0 | sort -z)
echo
echo "smallest CPU ratio: ${worst}x"
