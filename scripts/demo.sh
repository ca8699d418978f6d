#!/usr/bin/env bash
# First command of the README: install what the tool needs (not the test
# suite's packages), build only torchabi and two sample extensions, and tour
# its main jobs on them: check (lint + audit, and a repository's build
# configurations), run, migrate.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
started=$(date +%s)
# LLVM's and libclang's headers and static libraries are unpacked into the
# build tree instead of installing llvm-19-dev and libclang-19-dev (340 MB of
# the 850 MB they would install; scripts/deps.txt, [tool-files]).
"$root/scripts/install-deps.sh" tool --unpack-to "$build/llvm-dev"
# Tests stay off (they are the second command's); an existing build tree
# keeps its own setting.
tests=OFF
[ -f "$build/CMakeCache.txt" ] && grep -q '^TORCHABI_BUILD_TESTS:BOOL=ON' "$build/CMakeCache.txt" && tests=ON
# The legacy sample's at::/c10:: headers, for migrate: Debian's libtorch-dev
# when it is installed (the test command installs it), else only its .deb
# (2 MB), downloaded with the machine's own package lists and unpacked into
# the build tree: installing it would also install python3-dev, protobuf, BLAS
# and libtorch itself (about 100 s), none of which reading headers needs.
# Fetched while the build runs: it waits on the network, the build on the CPU.
fetch_legacy_headers() {
  [ -f /usr/include/ATen/ATen.h ] && return 0
  headers=$build/legacy-torch-headers
  if [ ! -f "$headers/usr/include/ATen/ATen.h" ]; then
    rm -rf "$headers.partial" && mkdir -p "$headers.partial"
    if (cd "$headers.partial" && apt-get -qq -o APT::Sandbox::User="$(id -un)" download libtorch-dev >/dev/null 2>&1 &&
        dpkg-deb -x libtorch-dev_*.deb . && rm -f libtorch-dev_*.deb); then
      rm -rf "$headers" && mv "$headers.partial" "$headers"
    else
      echo "torchabi: could not download Debian's libtorch-dev headers; migrate reads the legacy sample without them" >&2
    fi
  fi
}
mkdir -p "$build"
fetch_legacy_headers &
legacy_fetch=$!
# A newer CMake than bookworm's 3.25 for repositories that ask for one
# (check configures them with it; scripts/fetch-cmake.sh), also while building.
"$root/scripts/fetch-cmake.sh" >/dev/null 2>&1 &
cmake_fetch=$!
migrate_out=""
# A failed build stops the fetch too; the tour's migrate output is a temporary file.
cleanup() {
  [ -z "$legacy_fetch" ] || kill "$legacy_fetch" 2>/dev/null || true
  [ -z "$migrate_out" ] || rm -f "$migrate_out"
}
trap cleanup EXIT
# Only what the tour runs: the tool, its reference runtime, and the two builds
# of the stable sample (migrate reads the legacy sample's source, unbuilt).
"$root/scripts/build.sh" --quiet -DTORCHABI_BUILD_TESTS=$tests \
  --target torchabi --target fixture_stable_ext --target fixture_stable_ext_2_12
wait "$legacy_fetch" || true
legacy_fetch=""
wait "$cmake_fetch" || true
cd "$root"
legacy_flags=""
headers=$build/legacy-torch-headers
[ ! -f /usr/include/ATen/ATen.h ] && [ -f "$headers/usr/include/ATen/ATen.h" ] &&
  legacy_flags=" -isystem ${headers#"$root"/}/usr/include"
torchabi() { "$build/torchabi" "$@"; }
rel=${build#"$root"/}
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$2"; }
set +e
# migrate parses the legacy sample's ATen headers for about 10 s: it starts
# now, on the second core, and its output waits in a file for its turn.
migrate_out=$(mktemp "${TMPDIR:-/tmp}/torchabi-tour.XXXXXX")
# shellcheck disable=SC2086 # the flags are words
torchabi migrate fixtures/legacy_ext/legacy_ext.cpp -- -std=c++17 $legacy_flags >"$migrate_out" 2>&1 &
migrate_pid=$!
step "check: lint a stable extension's source and audit its library, for PyTorch 2.10 and later" \
  "torchabi check -q --target-version 2.10 fixtures/stable_ext/stable_ext.cpp $rel/fixtures/stable_ext/libstable_ext_2_12.so"
torchabi check -q --target-version 2.10 fixtures/stable_ext/stable_ext.cpp "$rel/fixtures/stable_ext/libstable_ext_2_12.so"
echo "(exit $?: the library calls a function PyTorch 2.10 and 2.11 do not have, so it would not load there)"
first_report=$(($(date +%s) - started))

step "check a repository: run its setup.py with setup() recorded, lint every configuration it ships, compare them" \
  "torchabi check -q --torch-include fixtures/lint/include fixtures/projects/configs/nvcc_without_target"
torchabi check -q --torch-include fixtures/lint/include fixtures/projects/configs/nvcc_without_target
echo "(exit $?: setup.py gives g++ the target but not nvcc, so the CUDA objects call the newest shims of the build's torch)"

step "run: load the extension into torchabi's reference runtime (no PyTorch needed) and call its ops" \
  "torchabi run $rel/fixtures/stable_ext/libstable_ext.so"
torchabi run "$rel/fixtures/stable_ext/libstable_ext.so"

step "migrate: plan the port of a classic at::/c10:: extension to the stable ABI (first lines)" \
  "torchabi migrate fixtures/legacy_ext/legacy_ext.cpp -- -std=c++17$legacy_flags | head -30"
wait "$migrate_pid"
head -30 "$migrate_out"
set -e
echo
echo "torchabi: tour done in $(($(date +%s) - started))s (the first report after ${first_report}s). More: torchabi --help, torchabi explain RULE, docs/."
