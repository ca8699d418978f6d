#!/usr/bin/env bash
# action.yml's build step: install what the tool needs and build only the
# torchabi binary (and the reference runtime it loads), then put it on PATH
# for the next steps.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/install-deps.sh" tool
build=${BUILD_DIR:-$root/build}
"$root/scripts/build.sh" --quiet --target torchabi
echo "$build" >>"${GITHUB_PATH:-/dev/null}"
