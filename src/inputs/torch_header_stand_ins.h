// Headers a CUDA build of torch generates that the include tree of a CPU
// build lacks (Debian's libtorch-dev): c10/cuda/CUDAMacros.h includes
// c10/cuda/impl/cuda_cmake_macros.h, which only a CUDA build writes, so
// every source that includes c10/cuda/* stops parsing with the headers of a
// CPU build, while the real build (against a CUDA torch) compiles it.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

// The clang arguments to add after a command's own: an overlay (-idirafter)
// with what a CUDA build would have generated, when one of `include_dirs`
// has c10/cuda/ without it; else nothing.
std::vector<std::string> torch_header_stand_in_args(const std::vector<std::string>& include_dirs);

}  // namespace torchabi::inputs
