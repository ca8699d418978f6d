// The CUDA axis of the audit. A library that names NVIDIA's libraries in
// DT_NEEDED (libcudart.so.12, libcublas.so.12, ...) needs a CUDA of the major
// release that ships them, next to its torch floor: a wheel built for CUDA 12
// does not work with a torch built for CUDA 11. The majors come from
// rules/binary/cuda_libraries.tsv; with `--torch`, the install's own CUDA
// (torch/version.py, its local version "+cu121", or what libtorch_cuda
// needs) is compared with them (binary-cuda-mismatch).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/binary/audit_options.h"
#include "findings/finding.h"
#include "inputs/cuda_libraries.h"

namespace torchabi::inputs {
class TorchInstall;
}

namespace torchabi::binary {

struct CudaNeeds {
  std::vector<inputs::CudaLibraryNeed> libraries;  // in DT_NEEDED order, each name once
  bool constrained = false;  // some library names CUDA majors
  std::vector<int> majors;   // constrained: the majors every library allows (empty: none does)

  bool empty() const { return libraries.empty(); }
  void add(const inputs::CudaLibraryNeed& need);
  void merge(const CudaNeeds& other);  // a package: its libraries are loaded together
  bool allows(int major) const { return !constrained || std::find(majors.begin(), majors.end(), major) != majors.end(); }
  // "12", "11 or 12", "any", "none (its libraries disagree)".
  std::string majors_text() const;
  // "libcudart.so.12 (CUDA runtime), libcublas.so.12 (cuBLAS)".
  std::string libraries_text() const;
};

// The CUDA libraries among `needed` (DT_NEEDED).
CudaNeeds cuda_needs(const std::vector<std::string>& needed);

// Adds the "cuda" and "cuda majors" facts and says the CUDA in loads_on,
// next to the floor. Nothing when `needs` is empty.
void describe_cuda(const CudaNeeds& needs, findings::Subject& s);

// The CUDA a PyTorch install was built for.
struct TorchCuda {
  std::string version;  // "12.4"; "none" for a CPU-only build; empty when unknown
  std::string source;   // where it was read
  std::optional<int> major;
};
// From the install's files (TorchInstall::cuda), else the CUDA libraries its
// libtorch_cuda/libc10_cuda need, else CPU-only when it has neither (a
// Python package or libtorch without a *_cuda library). Read once per install.
TorchCuda torch_cuda(inputs::TorchInstall& install);

// For each --torch install: the "cuda on <install>" fact of report.subjects[subject]
// and binary-cuda-mismatch when the install's CUDA major is not one `needs` allows.
void check_cuda_on_torches(const CudaNeeds& needs, const findings::Location& where, const AuditOptions& options,
                           findings::Report& report, size_t subject);

}  // namespace torchabi::binary
