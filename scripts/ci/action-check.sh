#!/usr/bin/env bash
# action.yml's check step. Inputs (environment): TORCHABI_ARGS (arguments of
# `torchabi check`, split as a shell would, without expansion), TORCHABI_SARIF
# (file for the SARIF report; empty: none), GITHUB_STEP_SUMMARY and
# GITHUB_OUTPUT (set by GitHub; optional here). Exits with torchabi's code.
set -uo pipefail
torchabi=${TORCHABI:-torchabi}
# Word splitting with quotes honoured and nothing expanded or executed.
split=$(python3 -c '
import shlex, sys
try:
    words = shlex.split(sys.argv[1])
except ValueError as e:
    sys.exit(f"torchabi: error: TORCHABI_ARGS: {e} in {sys.argv[1]!r}")
sys.stdout.write("".join(w + "\0" for w in words) or ".\0")' "${TORCHABI_ARGS:-.}" | base64 -w0) || exit 2
mapfile -d '' -t args < <(printf '%s' "$split" | base64 -d)
rc=0
if [ -n "${TORCHABI_SARIF:-}" ]; then
  "$torchabi" check "${args[@]}" --format sarif -o "$TORCHABI_SARIF" || rc=$?
fi
# The summary run reuses the first one's lint cache; its exit code is the
# step's when there was no SARIF run.
summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}
md_rc=0
"$torchabi" check "${args[@]}" --format md >>"$summary" || md_rc=$?
[ -n "${TORCHABI_SARIF:-}" ] || rc=$md_rc
echo "exit-code=$rc" >>"${GITHUB_OUTPUT:-/dev/null}"
exit "$rc"
