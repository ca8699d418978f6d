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
set -u
here=$(cd "$(dirname "$0")" && pwd)
torchabi=${1:-$here/../../../build/torchabi}
mirrors=${TORCHABI_REAL_REPOS_MIRRORS:-/work/.mirror}
python=${TORCHABI_BENCH_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
while IFS=$'\t' read -r name repo commit tree subdir; do
  case $name in ''|'#'*|name) continue ;; esac
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
  timeout 1800 "$torchabi" check "$work/$name/$subdir" --python "$python" --format json -o "$work/$name.json" >/dev/null 2>&1
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
sys.exit(1 if wrong or missed else 0)
PY
done < "$here/repos.tsv"
exit $status
