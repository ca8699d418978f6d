// The entry of a package — a wheel, or a distribution installed in an
// environment — summed over its libraries: the worst verdict, the highest
// floor, and where it loads.
#pragma once

#include <string>

#include "analyzers/binary/cuda_needs.h"
#include "analyzers/binary/version_floor.h"
#include "findings/finding.h"

namespace torchabi::binary {

struct PackageTotals {
  std::string verdict;  // the worst over its libraries
  VersionFloor floor;   // the highest, set_by prefixed with the library
  size_t libraries = 0;
  CudaNeeds cuda;       // the CUDA libraries of all its libraries, loaded together
};

// Fills `s`'s verdict, floor and loads_on (facts are the caller's).
void summarize_package(const PackageTotals& totals, findings::Subject& s);

}  // namespace torchabi::binary
