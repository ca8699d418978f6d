#!/usr/bin/env bash
# Benchmark: reading a compile database at scale (issue 38: 10^5 entries for
# one file took over 120 s). `torchabi lint -p DIR a.cpp` against what a user
# would run over the same compile_commands.json instead:
#   - python3's json.load of the file (parsing alone, no compile commands made);
#   - clang-check -p DIR a.cpp (LLVM's own JSONCompilationDatabase, then one
#     -fsyntax-only parse of a.cpp), when clang-check is installed.
# Two databases of N entries (default 10^5): every entry compiling a.cpp (the
# duplicate case; torchabi lints the one distinct command once, clang-check
# runs every entry of a.cpp, so it is timed only with N_SAME_CLANG entries),
# and N distinct files of which only a.cpp is asked for. A one-entry database
# gives the cost of the parse itself.
#
#   bench/compile_db/run.sh                   # N=100000 REPS=3
#   BUILD_DIR=build-x N=100000 REPS=5 bench/compile_db/run.sh
#
# Prints median wall and CPU (user+sys of the process and its children) and
# the ratio other / torchabi (> 1: torchabi is faster).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
torchabi=${TORCHABI:-$build/torchabi}
n=${N:-100000}
n_same_clang=${N_SAME_CLANG:-100}
reps=${REPS:-3}
python=${PYTHON:-python3}
clang_check=${CLANG_CHECK:-$(command -v clang-check-19 || command -v clang-check || true)}

[ -x "$torchabi" ] || { echo "bench: $torchabi not found (build torchabi first: scripts/build.sh)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/torchabi-bench-cdb-XXXXXX")
trap 'rm -rf "$work"' EXIT

# DIR N KIND: compile_commands.json of N entries; KIND same|many.
make_db() {
  mkdir -p "$1"
  printf 'int f(int x) { return x + 1; }\n' > "$1/a.cpp"
  "$python" - "$1" "$2" "$3" <<'PY'
import json, sys
d, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def entry(name):
    return {"directory": d, "command": "c++ -std=c++17 -O2 -c %s -o %s.o" % (name, name), "file": name}
entries = [entry("a.cpp")] + [entry("a.cpp" if kind == "same" else "f%d.cpp" % i) for i in range(n - 1)]
with open(d + "/compile_commands.json", "w") as f:
    json.dump(entries, f, indent=1)
PY
}

# Median wall and CPU seconds of a command line: "wall cpu".
measure() {
  local cmd=$1 walls=() cpus=()
  for ((i = 0; i < reps; i++)); do
    local line
    /usr/bin/time -o "$work/time" -f '%e %U %S' bash -c "$cmd" >/dev/null 2>&1 || true
    line=$(tail -1 "$work/time")
    read -r w u s <<< "$line"
    walls+=("$w")
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
  done
  local mw mc
  mw=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  mc=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$mw $mc"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
row() {  # LABEL "wall cpu" [BASE "wall cpu"]
  read -r w c <<< "$2"
  if [ $# -ge 3 ]; then
    read -r bw bc <<< "$3"
    printf '%-58s %8s s %8s s   ratio %6sx (cpu %sx)\n' "$1" "$w" "$c" "$(ratio "$w" "$bw")" "$(ratio "$c" "$bc")"
  else
    printf '%-58s %8s s %8s s\n' "$1" "$w" "$c"
  fi
}

make_db "$work/one" 1 same
make_db "$work/same" "$n" same
make_db "$work/many" "$n" many
make_db "$work/same_small" "$n_same_clang" same
lint() { echo "'$torchabi' lint --no-cache -q -p '$1' '$1/a.cpp'"; }
printf 'N=%s entries, %s runs each (median); load average %s\n' "$n" "$reps" "$(cut -d' ' -f1 /proc/loadavg)"
printf '%-58s %10s %10s\n' "" "wall" "cpu"
one=$(measure "$(lint "$work/one")"); row "torchabi lint, 1-entry database (the parse alone)" "$one"
same=$(measure "$(lint "$work/same")"); row "torchabi lint, $n entries of a.cpp" "$same"
many=$(measure "$(lint "$work/many")"); row "torchabi lint, $n files, a.cpp asked for" "$many"
for kind in same many; do
  base=$([ $kind = same ] && echo "$same" || echo "$many")
  py=$(measure "'$python' -c 'import json, sys; json.load(open(sys.argv[1]))' '$work/$kind/compile_commands.json'")
  row "python3 json.load, $kind ($n entries)" "$py" "$base"
done
if [ -n "$clang_check" ]; then
  cc=$(measure "'$clang_check' -p '$work/many' '$work/many/a.cpp'")
  row "$(basename "$clang_check") -p, $n files, a.cpp asked for" "$cc" "$many"
  small_t=$(measure "$(lint "$work/same_small")")
  cs=$(measure "'$clang_check' -p '$work/same_small' '$work/same_small/a.cpp'")
  row "torchabi lint, $n_same_clang entries of a.cpp" "$small_t"
  row "$(basename "$clang_check") -p, $n_same_clang entries of a.cpp (runs each)" "$cs" "$small_t"
fi
