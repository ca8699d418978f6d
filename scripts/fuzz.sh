#!/usr/bin/env bash
# Builds every libFuzzer target of tests/fuzz/ with clang-19 (ASan + UBSan)
# into its own build directory, then runs each for a bounded time.
#   scripts/fuzz.sh                 # every target, FUZZ_SECONDS (60) each
#   scripts/fuzz.sh schema_parser   # only targets whose name contains this
# Seeds come from tests/fuzz/corpus/<target>/ (and the files tests/fuzz/<target>.seeds
# names) and tokens from
# tests/fuzz/<target>.dict when present. New corpus entries and crash inputs
# stay in the build directory. Exit status 1 when any target found a crash.
# Fixtures are not built: no fuzzer needs them, and sanitizers would slow them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-60}
filter=${1:-}
jobs=${JOBS:-2}

sanitize="-fsanitize=address,undefined -fsanitize=fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$build" -G "Unix Makefiles" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DTORCHABI_BUILD_TESTS=ON -DTORCHABI_BUILD_FIXTURES=OFF >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 2; }
cmake --build "$build" -j "$jobs" --target fuzzers

status=0
for bin in "$build"/tests/fuzz/*_fuzzer; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  [[ -z "$filter" || "$name" == *"$filter"* ]] || continue
  corpus="$build/fuzz-corpus/$name"
  artifacts="$build/fuzz-artifacts/$name"
  mkdir -p "$corpus" "$artifacts"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "$root/tests/fuzz/$name.dict" ] && args+=(-dict="$root/tests/fuzz/$name.dict")
  seeds=()
  [ -d "$root/tests/fuzz/corpus/$name" ] && seeds+=("$root/tests/fuzz/corpus/$name")
  # tests/fuzz/<target>.seeds: files of the repository (fixtures) that seed it too.
  if [ -f "$root/tests/fuzz/$name.seeds" ]; then
    # (build outputs, such as the cross-built fixtures, are used when they exist)
    while IFS= read -r f; do
      if [ -n "$f" ] && [ -f "$root/$f" ]; then cp "$root/$f" "$corpus/seed-$(basename "$f")"; fi
    done <"$root/tests/fuzz/$name.seeds"
  fi
  echo "== $name for ${seconds}s"
  if ! "$bin" "${args[@]}" "$corpus" "${seeds[@]}" 2>"$build/$name.log"; then
    status=1
    echo "!! $name failed; see $build/$name.log and $artifacts/" >&2
    tail -30 "$build/$name.log" >&2
  else
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$build/$name.log" || true
  fi
done
exit $status
