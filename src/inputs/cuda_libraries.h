// NVIDIA's libraries by DT_NEEDED name, and the CUDA major releases that ship
// each (rules/binary/cuda_libraries.tsv): what a library built against CUDA
// says about the CUDA it needs, without running anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class RulesSource;

// One DT_NEEDED entry that is a CUDA library.
struct CudaLibraryNeed {
  std::string needed;       // "libcudart.so.12"
  std::string component;    // "CUDA runtime"
  std::vector<int> majors;  // the CUDA majors that ship it; empty: any
  std::string source;       // the rules' source for the row
};

class CudaLibraries {
public:
  // Throws InputError naming the rules when the table is missing or a row is malformed.
  static CudaLibraries load(const RulesSource& rules);
  // The table of RulesSource::current(), read once.
  static const CudaLibraries& current();

  // nullopt when `needed` is none of NVIDIA's libraries the table knows.
  std::optional<CudaLibraryNeed> classify(std::string_view needed) const;

private:
  struct Row {
    std::string prefix;  // before "{N}", or the whole soname
    bool pattern = false;
    std::string component, cuda, source;
  };
  std::vector<Row> rows_;
};

}  // namespace torchabi::inputs
