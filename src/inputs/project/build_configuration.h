// One way a project compiles its sources, as its build system computes it:
// one extension (or CMake target, or kernel-builder component), one compiler,
// one backend, one platform. Project mode lints each configuration that ships
// and compares them (analyzers/build/), so the fields say where each came
// from and how it was obtained.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct BuildConfiguration {
  std::string unit;      // "extension pkg._C", "target ops", "torch binding", "kernel activation"
  std::string compiler;  // "cxx" or "nvcc"
  std::string backend;   // kernel-builder's cuda, rocm, cpu, metal, xpu; "" elsewhere
  std::string platform;  // "linux", "darwin" or "win32": whose branch of the build script this is
  // How the flags were obtained, for the report: "setup.py run in CPython
  // (torch 2.14.1's cpp_extension)", "CMake File API (cmake 3.25.1)", "read".
  std::string method;
  std::string file;  // the build file that declares the unit, and the line
  int line = 0;
  // False for a kernel-builder backend that [torch.stable-abi] does not
  // list: its code is legacy by design and is not held to the stable ABI.
  bool stable_expected = true;
  // Compiled just in time by the torch that then loads it
  // (cpp_extension.load/load_inline): it never meets another release, so
  // what it would need of one is moot.
  bool built_by_running_torch = false;
  std::vector<std::string> sources;  // absolute
  // The compile command without the source and output: compiler first, then
  // flags in the order the build passes them.
  std::vector<std::string> arguments;
  std::string directory;  // working directory of the compile
  // What of these flags could not be determined (a value computed by code
  // the static reader does not run); "" when all were. Findings that rest
  // on flags are notes for such a configuration: unknown is not absent.
  std::string unresolved;

  // "extension pkg._C (nvcc)", "torch binding (cuda)": how findings and
  // subjects name the configuration.
  std::string label() const;
};

}  // namespace torchabi::inputs
