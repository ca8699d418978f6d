#include "inputs/project/glob_files.h"

#include <algorithm>
#include <filesystem>
#include <fnmatch.h>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

void walk(const fs::path& dir, const std::vector<std::string>& parts, size_t i, std::vector<std::string>& out) {
  std::error_code ec;
  if (i == parts.size()) return;
  const std::string& part = parts[i];
  const bool last = i + 1 == parts.size();
  if (part == "**") {
    walk(dir, parts, i + 1, out);  // zero directories
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->is_directory(ec) && !it->is_symlink(ec) && !it->path().filename().string().starts_with("."))
        walk(it->path(), parts, i, out);
    return;
  }
  if (part.find_first_of("*?[") == std::string::npos) {  // a literal component: no listing
    const fs::path next = dir / part;
    if (last ? fs::is_regular_file(next, ec) : fs::is_directory(next, ec)) {
      if (last) out.push_back(next.lexically_normal().string());
      else walk(next, parts, i + 1, out);
    }
    return;
  }
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (::fnmatch(part.c_str(), name.c_str(), FNM_PERIOD) != 0) continue;
    if (last && it->is_regular_file(ec)) out.push_back(it->path().lexically_normal().string());
    else if (!last && it->is_directory(ec)) walk(it->path(), parts, i + 1, out);
  }
}

}  // namespace

std::optional<std::vector<std::string>> glob_files(const std::string& root, const std::string& pattern) {
  const fs::path base = fs::path(root).lexically_normal();
  const fs::path full = (fs::path(pattern).is_absolute() ? fs::path(pattern) : base / pattern).lexically_normal();
  const fs::path rel = full.lexically_relative(base);
  if (rel.empty() || rel.generic_string().starts_with("..")) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& p : rel)
    if (!p.empty() && p != ".") parts.push_back(p.string());
  std::vector<std::string> out;
  walk(base, parts, 0, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace torchabi::inputs
