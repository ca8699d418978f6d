#include "test_files.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace torchabi::migration::testing {

namespace fs = std::filesystem;

namespace {
struct Cleanup {
  std::vector<std::string> dirs;
  ~Cleanup() {
    for (const auto& d : dirs) {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  }
};
Cleanup& cleanup() {
  static Cleanup c;
  return c;
}
}  // namespace

std::string scratch_dir() {
  std::string tmpl = (fs::temp_directory_path() / "torchabi-migration-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) std::abort();
  cleanup().dirs.push_back(tmpl);
  return tmpl;
}

std::string put_file(const std::string& dir, const std::string& name, const std::string& content) {
  fs::path p = fs::path(dir) / name;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace torchabi::migration::testing
