#include "inputs/project/environment/newer_cmake.h"

#include <cstdlib>
#include <filesystem>

#include "inputs/project/environment/cmake_version_floor.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace newer_cmake_detail {

// A CMake runs from <prefix>/bin/cmake and reads <prefix>/share/cmake-X.Y.
std::string prefix_of(const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (ec) return "";
  return real.parent_path().parent_path().string();
}

}  // namespace newer_cmake_detail

using newer_cmake_detail::prefix_of;

std::string fetched_cmake_path() {
  std::string cache;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) cache = x;
  else if (const char* h = std::getenv("HOME"); h && *h) cache = std::string(h) + "/.cache";
  if (cache.empty()) return "";
  return cache + "/torchabi/tools/cmake/usr/bin/cmake";
}

CMakeTool cmake_for(const std::string& machine, const std::string& asked) {
  if (const char* chosen = std::getenv("TORCHABI_CMAKE"); chosen && *chosen) {
    CMakeTool t{chosen, machine_cmake_version(chosen), "TORCHABI_CMAKE", ""};
    if (t.path.find('/') != std::string::npos) t.prefix = prefix_of(t.path);
    return t;
  }
  CMakeTool own{machine, machine_cmake_version(machine), "", ""};
  if (asked.empty() || own.version.empty() || !version_below(own.version, asked)) return own;
  const std::string fetched = fetched_cmake_path();
  std::error_code ec;
  if (fetched.empty() || !fs::is_regular_file(fetched, ec)) return own;
  const std::string version = machine_cmake_version(fetched);
  if (version.empty() || version_below(version, asked)) return own;
  return {fetched, version, "the project asks for CMake " + asked + " and " + machine + " is " + own.version +
                                ": the one scripts/fetch-cmake.sh unpacked",
          prefix_of(fetched)};
}

}  // namespace torchabi::inputs
