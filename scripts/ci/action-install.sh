#!/usr/bin/env bash
# action.yml's install step: puts torchabi on PATH for the next steps from a
# wheel, without compiling it on every run. The wheel, in this order:
#   TORCHABI_WHEEL   a wheel file or URL (e.g. a release's asset) when set;
#   the one cached in TORCHABI_WHEEL_CACHE (default ~/.cache/torchabi-action;
#                    action.yml restores it with actions/cache, keyed by the
#                    action's commit: built once per release of the action);
#   else one built now from the action's checkout (action-build.sh, then
#                    scripts/build-wheel.sh) into that cache.
# It is installed with pip into a fresh venv in RUNNER_TEMP (the runner's
# Python, 3.9 or newer), whose bin/ is added to GITHUB_PATH.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${TORCHABI_WHEEL_CACHE:-$HOME/.cache/torchabi-action}
venv=${RUNNER_TEMP:-/tmp}/torchabi-venv
wheel=${TORCHABI_WHEEL:-}
if [ -z "$wheel" ]; then
  wheel=$(ls -t "$cache"/torchabi-*.whl 2>/dev/null | head -n1 || true)
  if [ -z "$wheel" ]; then
    echo "torchabi: no cached wheel: building one from $root (once per version of the action)" >&2
    "$root/scripts/ci/action-build.sh"
    "$root/scripts/install-deps.sh" wheel
    wheel=$("$root/scripts/build-wheel.sh" --out "$cache")
  fi
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"
"$venv/bin/torchabi" --version >&2
echo "$venv/bin" >>"${GITHUB_PATH:-/dev/null}"
