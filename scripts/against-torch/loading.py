#!/usr/bin/env python3
"""`torchabi audit --torch` against real loading: does each library load on
each torch, and which symbol or library stops it?

  loading.py --torchabi BIN --chroot DIR --sid-libdir DIR [--bookworm-libdir DIR] LIB...

Real answers: sid's PyTorch inside the chroot, and (when the host's Debian
python3 imports its own torch, bookworm's 1.13) the host's, each loading one
library per process after `import torch` (torch.ops.load_library is a
ctypes.CDLL of it). torchabi's: one `audit --torch SID --torch BOOKWORM`
run. They must agree on loads / does not load, and a real failure's
"undefined symbol: S" or "L: cannot open shared object file" must be among
torchabi's missing symbols or libraries. Prints one line per library and
torch, then 'audit-vs-load: N agree, M disagree'; exit status 1 on any.
"""
import argparse
import json
import os
import re
import subprocess
import sys

PROBE = ("import sys, ctypes, torch\n"
         "try:\n"
         "    ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)\n"
         "    print('LOADED')\n"
         "except OSError as e:\n"
         "    print('FAILED', e)\n")


def real_load(cmd_prefix, lib):
    r = subprocess.run(cmd_prefix + ["python3", "-c", PROBE, lib], capture_output=True, text=True, timeout=300)
    out = r.stdout.strip().splitlines()
    return out[-1] if out else "FAILED " + r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "FAILED no output"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--chroot", required=True)
    ap.add_argument("--sid-libdir", required=True, help="sid's libtorch directory, as seen from outside the chroot")
    ap.add_argument("--bookworm-libdir", default="/usr/lib/x86_64-linux-gnu")
    ap.add_argument("libs", nargs="+", help="libraries under the chroot (absolute host paths)")
    a = ap.parse_args()

    # The chroot with its own /proc (torch reads it), in a private mount namespace.
    in_chroot = ["unshare", "--pid", "--mount", "--fork", "sh", "-c",
                 f"mount -t proc proc '{a.chroot}/proc' && exec chroot '{a.chroot}' env -i PATH=/usr/bin:/bin HOME=/tmp \"$@\"",
                 "sh"]
    torches = {a.sid_libdir: in_chroot}
    host = subprocess.run(["/usr/bin/python3", "-c", "import torch"], capture_output=True)
    if host.returncode == 0:
        torches[a.bookworm_libdir] = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/tmp"]
    else:
        print("  (the host's Debian python3 has no torch: bookworm is not compared)")

    cmd = [a.torchabi, "audit", "--format", "json"]
    for t in torches:
        cmd += ["--torch", t]
    report = json.loads(subprocess.run(cmd + a.libs, capture_output=True, text=True).stdout)
    subjects = {os.path.realpath(s.get("path", s.get("name", ""))): s for s in report["subjects"]}

    agree = disagree = 0
    for lib in a.libs:
        s = subjects.get(os.path.realpath(lib))
        for t, prefix in torches.items():
            sid = prefix is in_chroot
            inside = lib[len(a.chroot.rstrip("/")):] if sid else lib
            real = real_load(prefix, inside)
            mine = (s or {}).get("torch", {}).get(t)
            problems = []
            if mine is None:
                problems.append("torchabi gave no answer")
            else:
                real_loads = real.startswith("LOADED")
                if mine["loads"] != real_loads:
                    problems.append(f"torchabi says loads={mine['loads']}")
                m = re.search(r"undefined symbol: (\S+)", real)
                if m and m.group(1) not in {x["symbol"] for x in mine.get("missing_symbols", [])}:
                    problems.append(f"{m.group(1)} is not among torchabi's missing symbols")
                m = re.search(r"(\S+): cannot open shared object file", real)
                if m and m.group(1) not in {x["needed"] for x in mine.get("missing_libraries", [])}:
                    problems.append(f"{m.group(1)} is not among torchabi's missing libraries")
            name = os.path.basename(lib)
            torch_name = "sid" if sid else "bookworm"
            if problems:
                disagree += 1
                print(f"  DISAGREE {name} on {torch_name}: real: {real[:200]}; " + "; ".join(problems))
            else:
                agree += 1
                print(f"  agree    {name} on {torch_name}: {real[:160]}")
    print(f"audit-vs-load: {agree} agree, {disagree} disagree")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
