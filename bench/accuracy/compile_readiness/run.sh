#!/usr/bin/env bash
# Compile readiness on real repositories: `torchabi check` of each one in
# repos.tsv (materialised from its mirror at the pinned commit, tree digest
# checked), its compile-* findings against the hand classification of
# expected.tsv. A compile-* warning or error the classification does not
# expect is a wrong warning (the goal is 0); an expected one not reported is
# a miss. Prints one line per repository and the totals.
#   run.sh [TORCHABI]     (default: build/torchabi)
# TORCHABI_BENCH_PYTHON: the --python of each check (default /usr/bin/python3,
# Debian's python3-torch, whose torch gives the headers).
# TORCHABI_BENCH_TORCH_INCLUDE: a torch include directory given to every check as
# --torch-include (unset by default: the headers of TORCHABI_BENCH_PYTHON's torch). Stable-ABI
# repositories need PyTorch 2.10+ headers, which Debian's torch does not have, e.g.
#   TORCHABI_BENCH_TORCH_INCLUDE=build/torch-sid/root/usr/include (scripts/fetch-torch.sh)
# TORCHABI_BENCH_TIMEOUT: seconds one check may take (default 1800).
# TORCHABI_BENCH_ONLY: a comma-separated list of names of repos.tsv to run (default: all).
# TORCHABI_BENCH_REPORTS: a directory to keep each check's JSON report in (<name>.json).
set -u
here=$(cd "$(dirname "$0")" && pwd)
torchabi=${1:-$here/../../../build/torchabi}
mirrors=${TORCHABI_REAL_REPOS_MIRRORS:-/work/.mirror}
python=${TORCHABI_BENCH_PYTHON:-/usr/bin/python3}
include_args=()
[ -n "${TORCHABI_BENCH_TORCH_INCLUDE:-}" ] && include_args=(--torch-include "$TORCHABI_BENCH_TORCH_INCLUDE")
check_timeout=${TORCHABI_BENCH_TIMEOUT:-1800}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
while IFS=$'\t' read -r name repo commit tree subdir; do
  case $name in ''|'#'*|name) continue ;; esac
  [ -z "${TORCHABI_BENCH_ONLY:-}" ] || case ",$TORCHABI_BENCH_ONLY," in *",$name,"*) ;; *) continue ;; esac
  git_dir=$mirrors/${repo/\//+}/repo
  [ -d "$git_dir" ] || { echo "$name: no mirror at $git_dir (fetch $repo)"; continue; }
  [ "$(git --git-dir="$git_dir" rev-parse "$commit^{tree}" 2>/dev/null)" = "$tree" ] ||
    { echo "$name: tree of $commit is not $tree"; status=1; continue; }
  mkdir -p "$work/$name"
  # File by file: a snapshot may lack its largest blobs (images), which git archive refuses.
  git --git-dir="$git_dir" ls-tree -r "$commit" | while read -r _mode type blob path; do
    [ "$type" = blob ] || continue
    mkdir -p "$work/$name/$(dirname "$path")"
    git --git-dir="$git_dir" cat-file blob "$blob" >"$work/$name/$path" 2>/dev/null || rm -f "$work/$name/$path"
  done
  # A python whose torch gives the headers (Debian's python3-torch): without them no
  # registration is parsed and nothing could be concluded, right or wrong.
  start=$SECONDS
  timeout "$check_timeout" "$torchabi" check "$work/$name/$subdir" --python "$python" "${include_args[@]}" \
    --format json -o "$work/$name.json" </dev/null >/dev/null 2>&1
  rc=$?
  echo "$name: check exit $rc, $((SECONDS - start)) s"
  [ -s "$work/$name.json" ] || { echo "$name: no report (timeout or crash)"; status=1; continue; }
  [ -z "${TORCHABI_BENCH_REPORTS:-}" ] || { mkdir -p "$TORCHABI_BENCH_REPORTS" && cp "$work/$name.json" "$TORCHABI_BENCH_REPORTS/"; }
  python3 - "$name" "$work/$name.json" "$here/expected.tsv" <<'PY' || status=1
import json, sys
name, report, expected_path = sys.argv[1:]
expected = {}
for line in open(expected_path):
    if line.startswith("#") or line.startswith("name\t") or not line.strip():
        continue
    repo, op, _fake, _autograd, _mutation, expect = line.rstrip("\n").split("\t")
    if repo == name:
        expected[op] = set() if expect in ("-", "not-linted") else set(expect.split(","))
found = {}
for f in json.load(open(report)).get("findings", []):
    if f["rule"].startswith("compile-") and f.get("severity") in ("error", "warning"):
        op = next((o for o in expected if "'" + o + "'" in f["message"]), f["message"][:80])
        found.setdefault(op, set()).add(f["rule"])
wrong = sum(len(rules - expected.get(op, set())) for op, rules in found.items())
missed = sum(len(rules - found.get(op, set())) for op, rules in expected.items())
print(f"{name}: {len(expected)} ops classified, {wrong} wrong warnings, {missed} missed")
for op, rules in found.items():
    for r in sorted(rules - expected.get(op, set())):
        print(f"  wrong: {r} on {op}")
for op, rules in expected.items():
    for r in sorted(rules - found.get(op, set())):
        print(f"  missed: {r} on {op}")
sys.exit(1 if wrong or missed else 0)
PY
done < "$here/repos.tsv"
exit $status
