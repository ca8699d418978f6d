#include "analyzers/schema/compile_readiness/unbuilt_definitions.h"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace torchabi::schema {

namespace fs = std::filesystem;

namespace {

// Bounds the walk: a monorepo root given as the project root must not cost minutes.
constexpr size_t kMaxSourcesWalked = 20000;
constexpr std::uintmax_t kMaxSourceBytes = 4u << 20;

bool cxx_source(const fs::path& p) {
  static const char* kExt[] = {".cpp", ".cc", ".cxx", ".cu", ".c", ".h", ".hpp", ".cuh", ".mm"};
  const std::string ext = p.extension().string();
  for (const char* e : kExt)
    if (ext == e) return true;
  return false;
}

bool skipped_tree(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.empty() || name[0] == '.' || name.starts_with("build") || name.starts_with("cmake-build") ||
         name == "dist" || name == "site-packages" || name == "node_modules" || name == "__pycache__" ||
         fs::exists(p / "pyvenv.cfg");
}

bool names_op(const std::string& text, const std::string& name) {
  for (const std::string& needle : {"\"" + name + "(", "\"" + name + "\"", "\"" + name + "."})
    if (text.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

std::optional<std::string> source_naming_op(const std::vector<std::string>& roots, const std::string& op) {
  std::string name = op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2);
  name = name.substr(0, name.find('.'));
  if (name.empty()) return std::nullopt;
  size_t seen = 0;
  for (const std::string& root : roots) {
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it->is_directory(ec)) {
        if (skipped_tree(it->path())) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || !cxx_source(it->path())) continue;
      if (++seen > kMaxSourcesWalked) return std::nullopt;
      if (it->file_size(ec) > kMaxSourceBytes || ec) continue;
      std::ifstream in(it->path(), std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (names_op(text, name)) return it->path().string();
    }
  }
  return std::nullopt;
}

}  // namespace torchabi::schema
