#include "inputs/openmp_headers.h"

#include <algorithm>
#include <filesystem>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// "12" < "13", "9" < "12": GCC's version directories compared as numbers.
int major_version(const fs::path& dir) {
  const std::string name = dir.filename().string();
  int v = 0;
  for (char c : name) {
    if (c < '0' || c > '9') break;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

const std::string& gcc_openmp_include_dir() {
  static const std::string dir = [] {
    fs::path best;
    int best_version = -1;
    bool best_native = false;
    std::error_code ec;
    for (const auto& triple : fs::directory_iterator("/usr/lib/gcc", ec)) {
      const bool native = triple.path().filename() == "x86_64-linux-gnu" || triple.path().filename() == "aarch64-linux-gnu";
      for (const auto& version : fs::directory_iterator(triple.path(), ec)) {
        if (!fs::exists(version.path() / "include" / "omp.h", ec)) continue;
        const int v = major_version(version.path());
        if (best_version < 0 || (native && !best_native) || (native == best_native && v > best_version)) {
          best = version.path() / "include";
          best_version = v;
          best_native = native;
        }
      }
    }
    return best.string();
  }();
  return dir;
}

std::vector<std::string> openmp_parse_args(const std::vector<std::string>& args) {
  const bool openmp = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "-fopenmp" || a.starts_with("-fopenmp=");
  });
  if (!openmp || gcc_openmp_include_dir().empty()) return {};
  // GCC's omp.h declares its allocators with __malloc__(omp_free), the
  // deallocator form clang 19 rejects; read as plain __malloc__ it parses.
  return {"-idirafter", gcc_openmp_include_dir(), "-D__malloc__(...)=__malloc__"};
}

}  // namespace torchabi::inputs
