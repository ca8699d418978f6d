// A Hugging Face kernel-builder project's build.toml, read as data: the torch
// binding's sources and each [kernel.*] component's sources, include
// directories and flags, and the Torch stable ABI release it targets
// ([torch] stable-abi, a release for every backend or a table per backend).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "inputs/project/setup_py.h"  // ProjectNote

namespace torchabi::inputs {

struct KernelComponent {
  std::string name;     // "torch" for the [torch] binding, else the kernel's key
  std::string backend;  // cuda, cpu, metal, rocm, xpu; "" for the binding (every backend)
  int line = 0;
  std::vector<std::string> sources;       // absolute; headers and Metal shaders left out
  std::vector<std::string> include_dirs;  // absolute
  std::vector<std::string> cxx_flags;
  std::vector<std::string> cuda_flags;
  std::vector<std::string> depends;
};

struct BuildToml {
  std::string name;                   // [general] name
  std::vector<std::string> backends;  // [general] backends (v3+), else those the kernels use
  std::vector<KernelComponent> components;
  // Backend -> "MAJOR.MINOR"; "*" when one release applies to every backend.
  std::map<std::string, std::string> stable_abi;
  int stable_abi_line = 0;
  std::vector<ProjectNote> notes;
};

// Throws InputError naming the file when it cannot be read or is not TOML.
BuildToml read_build_toml(const std::string& path);

// TORCH_TARGET_VERSION for "MAJOR.MINOR" ("0x020B000000000000" for "2.11"),
// or "" when `release` is not of that form.
std::string target_version_macro(const std::string& release);

}  // namespace torchabi::inputs
