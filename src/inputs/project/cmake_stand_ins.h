// What a project's configure asks the machine for and torchabi provides
// itself, so that the configure needs neither a libtorch install nor a GPU
// toolchain:
//  - a Torch package (TorchConfig.cmake) for find_package(Torch) that hands
//    out the torch headers project mode lints with, as imported targets named
//    like the real ones (torch, torch_library, c10) and the variables the real
//    TorchConfig.cmake sets (TORCH_INCLUDE_DIRS, TORCH_LIBRARIES,
//    TORCH_CXX_FLAGS, TORCH_FOUND, Torch_VERSION);
//  - a CUDA compiler that CMake takes as already identified (an nvcc script
//    that only answers --version), so project(... CUDA), enable_language(CUDA)
//    and find_package(CUDAToolkit) succeed without running nvcc. The toolkit
//    is the machine's CUDA installation when it has one, else a stand-in
//    directory with the files CMake's modules look for.
#pragma once

#include <string>
#include <vector>

#include "inputs/project/torch_location.h"

namespace torchabi::inputs {

// The torch include directories among `torch.include_dirs` (not Python's).
std::vector<std::string> torch_only_include_dirs(const TorchLocation& torch);

// Writes TorchConfig.cmake and TorchConfigVersion.cmake into `dir` (which
// exists): pass -DTorch_DIR=dir. `version` is what Torch_VERSION says;
// empty (unknown): any version the project asks for.
void write_torch_config(const std::string& dir, const TorchLocation& torch, const std::string& version);

struct CudaStandIn {
  std::string init_cache;    // the -C script that pre-seeds the CUDA compiler
  std::string toolkit_root;  // the toolkit CMake is shown
  bool real_toolkit = false; // toolkit_root is the machine's installation
  std::string version;       // "12.8"
};

// Writes the nvcc stand-in (and the toolkit stand-in when the machine has no
// usable CUDA installation, or `machine_toolkit` is false) under `dir`, which exists.
CudaStandIn write_cuda_stand_in(const std::string& dir, bool machine_toolkit = true);

}  // namespace torchabi::inputs
