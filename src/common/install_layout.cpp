#include "common/install_layout.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace torchabi::install_layout {

namespace {

bool has_runtime(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "lib/torchabi-runtime", ec);
}

bool names_this_version(const fs::path& dir) {
  std::ifstream in(dir / "share/torchabi/version");
  std::string v;
  return in && std::getline(in, v) && v == TORCHABI_VERSION;
}

// <scheme>/lib{,64}/python*/{site,dist}-packages/torchabi, sorted (a stable choice).
std::vector<fs::path> wheel_packages(const fs::path& scheme) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const char* lib : {"lib", "lib64"}) {
    for (fs::directory_iterator it(scheme / lib, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("python", 0) != 0) continue;
      for (const char* packages : {"site-packages", "dist-packages"}) {
        const fs::path p = it->path() / packages / "torchabi";
        if (has_runtime(p)) found.push_back(p);
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

fs::path root_for(const fs::path& exe) {
  if (exe.empty()) return {};
  const fs::path prefix = exe.parent_path().parent_path();
  if (has_runtime(prefix)) return prefix;
  std::vector<fs::path> candidates = wheel_packages(prefix);
  if (has_runtime(prefix / "torchabi")) candidates.push_back(prefix / "torchabi");  // pip --target
  for (const auto& c : candidates)
    if (names_this_version(c)) return c;
  return candidates.empty() ? prefix : candidates.front();
}

fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

const fs::path& root() {
  static const fs::path r = root_for(self_exe());
  return r;
}

}  // namespace torchabi::install_layout
