#!/usr/bin/env python3
"""`torchabi audit --torch`'s CUDA of an install against real PyTorch's own
answer, torch.version.cuda, for sid's PyTorch in the chroot.

  cuda.py --torchabi BIN --chroot DIR --cuda-lib LIB

LIB needs CUDA 12 (fixtures/cuda_ext/libcuda_ext12.so). torchabi reads the
install's CUDA from its files (torch/version.py); real torch says
torch.version.cuda (None for a CPU build). They must agree: None and
"CPU-only build", or the same CUDA version, and then binary-cuda-mismatch
must fire exactly when the major is not 12. Prints 'cuda: N agree, M
disagree'; exit status 1 on a disagreement.
"""
import argparse
import ast
import json
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchabi", required=True)
    ap.add_argument("--chroot", required=True)
    ap.add_argument("--cuda-lib", required=True)
    a = ap.parse_args()
    in_chroot = ["unshare", "--pid", "--mount", "--fork", "sh", "-c",
                 f"mount -t proc proc '{a.chroot}/proc' && exec chroot '{a.chroot}' env -i PATH=/usr/bin:/bin HOME=/tmp \"$@\"",
                 "sh"]
    probe = "import torch, os; print(repr(torch.version.cuda)); print(os.path.dirname(torch.__file__))"
    r = subprocess.run(in_chroot + ["python3", "-c", probe], capture_output=True, text=True, timeout=300)
    lines = r.stdout.strip().splitlines()
    if len(lines) < 2:
        print(f"  cannot ask real torch: {r.stderr.strip().splitlines()[-1:]}")
        return 1
    real = ast.literal_eval(lines[-2])  # repr of None or a str, printed by torch itself
    install = a.chroot + lines[-1]
    out = subprocess.run([a.torchabi, "audit", "--format", "json", "--torch", install, a.cuda_lib],
                         capture_output=True, text=True)
    report = json.loads(out.stdout)
    fact = report["subjects"][0]["facts"].get("cuda on " + install, "")
    fired = any(f["rule"] == "binary-cuda-mismatch" for f in report["findings"])
    if real is None:
        ok = fact.startswith("mismatch: CPU-only build") and fired
    else:
        major = int(real.split(".")[0])
        ok = f"CUDA {real} " in fact + " " and fired == (major != 12)
    print(f"  real torch.version.cuda = {real!r}; torchabi: {fact or '(no statement)'}; "
          f"binary-cuda-mismatch {'fired' if fired else 'did not fire'}: {'agree' if ok else 'DISAGREE'}")
    print(f"cuda: {int(ok)} agree, {int(not ok)} disagree")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
