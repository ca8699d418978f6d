// Which CUDA installation a .cu/.cuh file is parsed with, and the flags that
// make clang 19 accept it.
//
// Candidates, in order: --cuda-path in the flags (then the only one, as for
// clang), the nvcc of the compile command, CUDA_HOME, CUDA_PATH, nvcc on
// PATH, /usr/local/cuda, /usr/lib/cuda (Debian's nvidia-cuda-toolkit). An
// installation is usable when it has what clang's CUDA driver checks
// (include/cuda.h, include/cuda_runtime.h, bin/, nvvm/libdevice/).
//
// clang 19's CUDA wrapper header (__clang_cuda_runtime_wrapper.h) includes a
// few headers that newer CUDA releases removed (CUDA 13 dropped
// texture_fetch_functions.h with texture references). Those are given empty
// stand-ins in an overlay directory, passed with -isystem after everything
// else, so the rest of the installation is used as it is. CUDA 13 also moved
// thrust/cub/libcu++ to include/cccl, which nvcc adds by itself: so is it here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace torchabi::inputs {

struct CudaInstallation {
  std::string root;      // absolute
  std::string found_by;  // "--cuda-path", "CUDA_HOME", "nvcc on PATH", "/usr/local/cuda", ...
  std::string version;   // "13.0" from include/cuda.h; empty when unknown
  std::vector<std::string> stand_ins;  // headers the overlay provides (the installation lacks them)
};

struct CudaSearch {
  std::optional<CudaInstallation> found;
  // Each candidate looked at and why it was not used ("CUDA_HOME=/x: no include/cuda_runtime.h").
  std::vector<std::string> rejected;
  // One line for reports: which installation, or why none.
  std::string summary() const;
};

// `args`: clang arguments (for --cuda-path); `compiler`: argv[0] of the
// compile command when it was nvcc (empty otherwise).
CudaSearch find_cuda_installation(const std::vector<std::string>& args, const std::string& compiler = {});

// The include directory of this machine's CUDA installation (found as for a
// compile command without flags), or "" without one: what torch's
// CUDAExtension and load() of CUDA sources add for the host (.cpp) sources
// too, as CUDA_HOME/include. Looked up once.
const std::string& host_cuda_include_dir();

// Headers clang 19's CUDA wrapper includes that some CUDA releases no longer ship.
const std::vector<std::string>& cuda_wrapper_headers_newer_cuda_removed();

// A directory holding an empty stand-in for each of `headers` (created on
// first use, under the user's cache directory, or the temporary directory).
// Empty when it cannot be created.
std::string cuda_overlay_dir(const std::vector<std::string>& headers);

// The clang arguments that parse CUDA with `cuda` (appended after the
// project's own flags): --cuda-path, -nocudalib (a host-side parse links no
// libdevice), the overlay, and include/cccl when present.
std::vector<std::string> cuda_parse_args(const CudaInstallation& cuda, const std::vector<std::string>& args);

}  // namespace torchabi::inputs
