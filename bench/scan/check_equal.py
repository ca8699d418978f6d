#!/usr/bin/env python3
"""Checks a scan's merged report against `torchabi audit` run on each artifact.

  check_equal.py TORCHABI OUTDIR [AUDIT_ARGS...]

Every artifact of OUTDIR/report.json must be audited, and its stored audit
must equal what `torchabi audit --format json AUDIT_ARGS ARTIFACT` prints now
(same exit code). Prints "N passed, N failed".
"""
import json
import subprocess
import sys


def main(torchabi, outdir, audit_args):
    with open(f"{outdir}/report.json", encoding="utf-8") as f:
        report = json.load(f)
    passed = failed = 0
    for a in report["artifacts"]:
        if a["status"] != "audited":
            print(f"not audited: {a['path']}: {a.get('error')}", file=sys.stderr)
            failed += 1
            continue
        p = subprocess.run([torchabi, "audit", "--format", "json", *audit_args, a["path"]], stdout=subprocess.PIPE)
        if p.returncode == a["exit_code"] and json.loads(p.stdout) == a["audit"]:
            passed += 1
        else:
            print(f"differs: {a['path']}", file=sys.stderr)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
