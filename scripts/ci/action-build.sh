#!/usr/bin/env bash
# action.yml's build step: install what the tool needs and build only the
# torchabi binary (and the reference runtime it loads), then put it on PATH
# for the next steps.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
# LLVM's and libclang's headers and static libraries unpacked into the build
# tree rather than installed (scripts/deps.txt, [tool-files]).
"$root/scripts/install-deps.sh" tool --unpack-to "$build/llvm-dev"
"$root/scripts/build.sh" --quiet --target torchabi
echo "$build" >>"${GITHUB_PATH:-/dev/null}"
