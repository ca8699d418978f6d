#include "inputs/rules_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.h"
#include "inputs/embedded_rules.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

RulesSource RulesSource::embedded() { return RulesSource{}; }

RulesSource RulesSource::directory(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "rules directory not found");
  RulesSource s;
  s.dir_ = dir;
  return s;
}

std::optional<std::string> RulesSource::read(const std::string& relpath) const {
  if (dir_.empty()) {
    for (const auto& f : embedded_rules())
      if (f.path == relpath) return std::string(f.content);
    return std::nullopt;
  }
  std::ifstream in(fs::path(dir_) / relpath, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<std::string_view> RulesSource::embedded_view(const std::string& relpath) const {
  if (!dir_.empty()) return std::nullopt;
  for (const auto& f : embedded_rules())
    if (f.path == relpath) return f.content;
  return std::nullopt;
}

std::string RulesSource::require(const std::string& relpath) const {
  auto s = read(relpath);
  if (!s) throw InputError(describe(), "missing rules file " + relpath);
  return *s;
}

std::vector<std::string> RulesSource::list(const std::string& prefix) const {
  std::vector<std::string> out;
  if (dir_.empty()) {
    for (const auto& f : embedded_rules())
      if (f.path.starts_with(prefix)) out.emplace_back(f.path);
  } else {
    std::error_code ec;
    fs::path base(dir_);
    for (auto it = fs::recursive_directory_iterator(base, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (!it->is_regular_file()) continue;
      std::string rel = fs::relative(it->path(), base).generic_string();
      if (rel.starts_with(prefix)) out.push_back(rel);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string RulesSource::describe() const { return dir_.empty() ? "embedded rules" : dir_; }

static RulesSource& current_slot() {
  static RulesSource s = RulesSource::embedded();
  return s;
}
const RulesSource& RulesSource::current() { return current_slot(); }
void RulesSource::set_current(RulesSource src) { current_slot() = std::move(src); }

}  // namespace torchabi::inputs
