// Where a parse with -fopenmp finds <omp.h>. g++ -fopenmp takes it from
// GCC's own include directory; clang ships it only with its OpenMP runtime
// (libomp-dev), which a machine that builds extensions with GCC rarely has,
// so clang stops at `#include <omp.h>` where the real build does not.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

// GCC's include directory holding omp.h (the newest GCC of this machine's
// triple, else of any), or "" when none has it. Looked up once.
const std::string& gcc_openmp_include_dir();

// The clang arguments to add after a command's own when it compiles with
// -fopenmp: GCC's directory searched last (-idirafter), so clang's own
// headers still come first and only what it lacks (omp.h) is taken there;
// and GCC's deallocator attribute, which clang does not know, made plain.
std::vector<std::string> openmp_parse_args(const std::vector<std::string>& args);

}  // namespace torchabi::inputs
