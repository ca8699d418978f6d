#!/usr/bin/env bash
# project mode's reading of torch.utils.cpp_extension.load()/load_inline()
# (src/inputs/project/jit_load.cpp) against torch's own JIT build.
#
#   scripts/against-torch/jit_load.sh TORCHABI [CPP_EXTENSION_PY]
#
# CPP_EXTENSION_PY (default: the cpp_extension.py of the PyTorch unpacked by
# scripts/fetch-torch.sh, build/torch-sid/root) runs under minimal stand-in
# `torch` modules (jit_load_capture.py): the modules of fixtures/projects/jit_load
# and of a scratch project with the other shapes (load_inline with functions,
# is_standalone, with_cuda=False, a relative include path, an nvcc -std, flags
# with spaces around them) call the real load()/load_inline(), whose
# _write_ninja_file is captured instead of building. `torchabi check -v` reads
# the same files without running them; the flags of each extension and
# compiler must be the same, except those torchabi leaves out on purpose
# (COMMON_NVCC_FLAGS, docs/project-mode.md; CUDA_HOME/include for .cu files,
# which the CUDA parse takes from the installation), and torch's shell
# quoting of '-fPIC'. torch's CUDA_HOME is found as a CUDA build of torch
# finds it on this machine (none: no CUDA include on either side).
#
# Exit status: 0 agree; 1 a disagreement (printed); 3 skipped (no torch's
# cpp_extension.py, or python3 cannot run it), with the reason on one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
torchabi=$(realpath "$1")
cpp_ext=${2:-${TORCHABI_REAL_TORCH_ROOT:-$root/build/torch-sid/root}/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py}
[ -f "$cpp_ext" ] || { echo "jit_load.sh: no cpp_extension.py at $cpp_ext (run scripts/fetch-torch.sh)" >&2; exit 3; }
python3 -c 'import setuptools, typing_extensions' 2>/dev/null ||
  { echo "jit_load.sh: python3 here cannot import setuptools and typing_extensions" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The headers next to that cpp_extension.py (Debian's /usr/include, or pip's
# torch/include), so that torchabi reads the same defaults (-std) from it.
include=$(realpath -m "$(dirname "$cpp_ext")/../include")
[ -d "$include" ] || include=$(realpath -m "${cpp_ext%/lib/python3/dist-packages/torch/utils/cpp_extension.py}/include")
[ -d "$include/torch" ] || { echo "jit_load.sh: no torch headers next to $cpp_ext" >&2; exit 3; }
includes=(--torch-include "$include")
[ -d "$include/torch/csrc/api/include" ] && includes+=(--torch-include "$include/torch/csrc/api/include")

# The scratch project: every shape the fixture does not have.
mkdir -p "$work/proj/csrc" "$work/proj/inc"
printf 'int a() { return 1; }\n' >"$work/proj/csrc/a.cpp"
printf '__global__ void k() {}\n' >"$work/proj/csrc/k.cu"
cat >"$work/proj/shapes.py" <<'EOF'
import os
import torch.utils.cpp_extension as ce
from torch.utils.cpp_extension import load_inline as inline

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = [os.path.join(HERE, "csrc", "a.cpp"), os.path.join(HERE, "csrc", "k.cu")]

ce.load("standalone_tool", SRC, extra_cflags=["  -DTOOL  "], is_standalone=True, is_python_module=False)
ce.load("no_cuda", SRC, ["-DA"], ["-DB"], with_cuda=False, extra_include_paths=["inc"])
ce.load("nvcc_std", SRC, extra_cuda_cflags=["-std=c++17", "-DX=1"], extra_cflags=["-std=c++17"])
inline(name="inline_ext", cpp_sources=["int twice(int x) { return 2 * x; }"],
       cuda_sources="__global__ void k2() {}", functions=["twice"], extra_cflags=["-O2"],
       extra_cuda_cflags=["-lineinfo"])
EOF
(cd "$work/proj" && python3 "$root/scripts/against-torch/jit_load_capture.py" --cpp-extension "$cpp_ext" \
  "${includes[@]}" shapes.py >"$work/torch-shapes.json" 2>"$work/capture.err") ||
  { echo "jit_load.sh: torch's load() could not run here: $(tail -1 "$work/capture.err")" >&2; exit 3; }
python3 "$root/scripts/against-torch/jit_load_capture.py" --cpp-extension "$cpp_ext" "${includes[@]}" \
  "$root/fixtures/projects/jit_load/jit_sample/ops.py" >"$work/torch-fixture.json"
(cd "$work/proj" && "$torchabi" check --format json -v --torch-include "$include" "$work/proj" >"$work/ours-shapes.json") || true
"$torchabi" check --format json -v --torch-include "$include" "$root/fixtures/projects/jit_load" \
  >"$work/ours-fixture.json" || true

python3 - "$work" <<'EOF'
import json, os, shlex, sys
work = sys.argv[1]
COMMON_NVCC = {"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
               "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr"}
status = 0
checked = 0
for case in ("fixture", "shapes"):
    torch = json.load(open(f"{work}/torch-{case}.json"))
    ours = json.load(open(f"{work}/ours-{case}.json"))
    facts = {}
    for s in ours["subjects"]:
        if s["kind"] == "project":
            facts = s["facts"]
    for name, t in sorted(torch.items()):
        want = {"c++": [w for f in t["cflags"] for w in shlex.split(f)]}
        if t["cuda_cflags"] is not None:
            want["nvcc"] = [w for f in t["cuda_cflags"] for w in shlex.split(f) if w not in COMMON_NVCC]
            # CUDA_HOME/include: a .cu file's parse takes it from the CUDA
            # installation itself (--cuda-path), so torchabi does not list it.
            cuda_include = os.path.join(t.get("cuda_home") or "", "include")
            for k in range(len(want["nvcc"]) - 1):
                if want["nvcc"][k] == "-isystem" and want["nvcc"][k + 1] == cuda_include:
                    del want["nvcc"][k:k + 2]
                    break
        # Which compilers torch's build.ninja uses for these sources.
        cuda = t["cuda_cflags"] is not None
        used = {"nvcc" if cuda and s.endswith((".cu", ".cuh")) else "c++" for s in t["sources"]}
        for compiler in sorted(used):
            key = f"extension {name} {compiler} flags"
            got = facts.get(key)
            checked += 1
            if got is None:
                print(f"FAIL {case}: torchabi has no '{key}' (facts: {sorted(facts)})")
                status = 1
            elif got.split() != want[compiler]:
                print(f"FAIL {case}: {name} ({compiler})\n  torch:    {' '.join(want[compiler])}\n  torchabi: {got}")
                status = 1
            else:
                print(f"ok   {case}: {name} ({compiler})")
        for compiler in ("c++", "nvcc"):
            if compiler not in used and f"extension {name} {compiler} flags" in facts:
                print(f"FAIL {case}: torchabi compiles {name} with {compiler}, torch does not")
                status = 1
        n = len(t["sources"])
        summary = facts.get(f"extension {name}", "")
        if f", {n} source" not in summary:
            print(f"FAIL {case}: {name}: torch compiles {n} sources, torchabi says '{summary}'")
            status = 1
if checked == 0:
    print("FAIL nothing was compared")
    status = 1
sys.exit(status)
EOF
