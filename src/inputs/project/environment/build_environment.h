// What a project's build code is given when torchabi runs it (setup.py under
// the recorder, a CMake configure): one place, so that a reader sees here
// everything a build script finds that a real build machine would have had,
// and what torchabi assumed for it. Every runner (setup_run, cmake_file_api)
// asks for its environment here.
//
// A build machine has a CUDA toolkit of a recent release, TORCH_CUDA_ARCH_LIST
// set, git metadata, and the packages the build needs. The scratch copy has
// none of that, so scripts stop before setup() ("CUDAArchListError",
// `assert nvcc >= 12.9`, `git describe` failing). What is given instead:
//  - the variables CI builds set (kAssumed below), unless the user's own
//    environment sets them, in which case theirs are passed through;
//  - a stand-in `git` first on PATH (the copy has no .git): versions come out
//    as 0.0.0 and commits as zeros;
//  - HOME and TMPDIR inside the scratch tree, the only writable one;
//  - the stand-in CUDA toolkit and torch modules (record_setup.py,
//    cmake_stand_ins.h), whose versions are the ones below;
//  - confinement (sandbox.h): no network, a read-only system, the original
//    project and home directories hidden, nothing else of torchabi's
//    environment (tokens and keys stay out).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "inputs/project/environment/sandbox.h"

namespace torchabi::inputs {

// The CUDA release the stand-in toolkits report: the newest 12.x, which
// passes the version checks real scripts make (`sm100 requires 12.9`) and
// accepts every C++/CUDA dialect CMake knows.
inline constexpr const char* kStandInCudaVersion = "12.9";
// What a setup.py that fails with kStandInCudaVersion is run with again, in
// turn, until one run records: scripts branch on the CUDA release
// (FlashAttention-3 downloads an nvcc 12.6 from the network for 12.x other
// than 12.8 and uses the machine's for 13+; its forks pin 12.8 exactly).
inline constexpr const char* kOtherStandInCudaVersions[] = {"13.0", "12.8"};
// The GPU the stand-in torch.cuda reports: an A100 (8.0), which every CUDA
// release of the stand-ins supports. Scripts that build for the device
// they find and refuse others (Blackwell-only kernels: "Unsupported GPU")
// are run again with these, in turn, before CUDA is made unavailable.
inline constexpr const char* kStandInGpuCapability = "8.0";
inline constexpr const char* kOtherStandInGpuCapabilities[] = {"9.0", "10.0", "12.0"};
// The ROCm release the stand-in ROCm reports, for scripts that build only
// for a ROCm torch (must match record_setup.py's STANDIN_ROCM_VERSION).
inline constexpr const char* kStandInRocmVersion = "6.4.1";

struct BuildEnvironmentRequest {
  std::string scratch;                  // the only writable tree (the copy lives in it)
  std::string project;                  // the user's tree: hidden from the script
  std::string python;                   // the interpreter asked for ("" when none runs)
  std::vector<std::string> visible;     // other trees the script must read (torch headers)
  bool unconfined = false;              // --run-build=unconfined: the user asked for it
};

struct BuildEnvironment {
  Confinement confinement;
  bool confined = true;
  // The interpreter to start: the one asked for, or its real executable when
  // the command is a shim that needs the hidden home directory (pyenv).
  std::string python;
  // NAME=VALUE given because a build machine has them, for the report.
  std::vector<std::pair<std::string, std::string>> assumed;
  // One line for the report: how the script ran ("sandboxed: no network, ...").
  std::string how;
};

// Creates scratch/home, scratch/tmp and scratch/bin (the stand-in git) and
// describes the environment. The confinement's writable tree is `scratch`.
BuildEnvironment make_build_environment(const BuildEnvironmentRequest& request);

}  // namespace torchabi::inputs
