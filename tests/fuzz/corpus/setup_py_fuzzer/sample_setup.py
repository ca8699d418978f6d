# A setuptools CUDA extension as real projects write one: flags in cxx/nvcc
# dicts, the target release computed from two integers, sources globbed.
# `torchabi check fixtures/projects/setuptools_cuda` reads this file without
# running it (tests/e2e/project_mode_test.cpp).
import glob
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

# Oldest PyTorch release the wheel must load on.
TARGET_MAJOR, TARGET_MINOR = 2, 9
TORCH_TARGET_VERSION = (TARGET_MAJOR << 56) | (TARGET_MINOR << 48)

here = os.path.dirname(os.path.abspath(__file__))
common_flags = [f"-DTORCH_TARGET_VERSION={TORCH_TARGET_VERSION:#018x}", "-DSAMPLE_FAST_PATH=1"]

setup(
    name="sample_cuda",
    version="0.3.0",
    ext_modules=[
        CUDAExtension(
            name="sample_cuda._C",
            sources=sorted(glob.glob("csrc/*.cpp")) + ["csrc/kernels/scale.cu"],
            include_dirs=[os.path.join(here, "include")],
            define_macros=[("SAMPLE_WITH_CUDA", None), ("SAMPLE_ABI_LEVEL", "3")],
            extra_compile_args={
                "cxx": ["-O3"] + common_flags,
                "nvcc": ["-O3", "--use_fast_math", "-lineinfo"] + common_flags,
            },
            py_limited_api=True,
        )
    ],
    cmdclass={"build_ext": BuildExtension},
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
