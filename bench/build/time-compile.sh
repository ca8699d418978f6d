#!/usr/bin/env bash
# Compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that appends
# "<seconds> <object> <start> <end>" for every compile to $TORCHABI_COMPILE_TIMES.
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
out=""
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
awk -v s="$start" -v e="$end" -v o="$out" 'BEGIN { printf "%.3f %s %s %s\n", e - s, o, s, e }'  >>"${TORCHABI_COMPILE_TIMES:-/dev/null}"
exit $rc
