#include "inputs/torch_header_stand_ins.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "inputs/header_overlay.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// What torch's CMake writes from c10/cuda/impl/cuda_cmake_macros.h.in for
// its (shared-library) wheels and packages, built with the CUDA release the
// stand-in toolkits report (kStandInCudaVersion, 12.9).
constexpr const char* kCudaCmakeMacros =
    "// torchabi stand-in: written by a CUDA build of torch, absent from a CPU build's headers.\n"
    "#pragma once\n"
    "#define C10_CUDA_BUILD_SHARED_LIBS\n"
    "#define TORCH_CUDA_VERSION_MAJOR 12\n"
    "#define TORCH_CUDA_VERSION_MINOR 9\n"
    "#define TORCH_CUDA_VERSION_PATCH 0\n"
    "#define TORCH_CUDA_VERSION_BUILD 0\n";

bool lacks_cuda_macros(const std::string& dir) {
  static std::mutex m;
  static std::map<std::string, bool> seen;  // per include directory: stat twice per process
  std::lock_guard<std::mutex> lock(m);
  auto [it, fresh] = seen.try_emplace(dir, false);
  if (fresh) {
    std::error_code ec;
    it->second = fs::exists(fs::path(dir) / "c10/cuda/CUDAMacros.h", ec) &&
                 !fs::exists(fs::path(dir) / "c10/cuda/impl/cuda_cmake_macros.h", ec);
  }
  return it->second;
}

}  // namespace

std::vector<std::string> torch_header_stand_in_args(const std::vector<std::string>& include_dirs) {
  for (const auto& d : include_dirs) {
    if (!lacks_cuda_macros(d)) continue;
    const std::string overlay =
        header_overlay_dir("torch-overlay-v2", {{"c10/cuda/impl/cuda_cmake_macros.h", kCudaCmakeMacros}});
    if (overlay.empty()) return {};
    return {"-idirafter", overlay};
  }
  return {};
}

}  // namespace torchabi::inputs
