#include "inputs/header_overlay.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace torchabi::inputs {

namespace fs = std::filesystem;

std::string header_overlay_dir(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<fs::path> bases;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) bases.push_back(fs::path(x) / "torchabi");
  if (const char* h = std::getenv("HOME"); h && *h) bases.push_back(fs::path(h) / ".cache" / "torchabi");
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (!ec) bases.push_back(tmp / ("torchabi-" + std::to_string(::getuid())));
  for (const auto& base : bases) {
    const fs::path dir = base / name;
    fs::create_directories(dir, ec);
    if (ec) continue;
    bool ok = true;
    for (const auto& [rel, text] : files) {
      const fs::path file = dir / rel;
      if (fs::is_regular_file(file, ec)) continue;
      fs::create_directories(file.parent_path(), ec);
      const fs::path part = file.string() + ".part" + std::to_string(::getpid());
      {
        std::ofstream out(part);
        out << text;
        if (!out) ok = false;
      }
      fs::rename(part, file, ec);
      if (ec) ok = false;
    }
    if (ok) return dir.string();
  }
  return {};
}

}  // namespace torchabi::inputs
