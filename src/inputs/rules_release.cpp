#include "inputs/rules_release.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>

#include "common/version.h"

namespace torchabi::inputs {

namespace {

struct Fnv64 {
  uint64_t h = 14695981039346656037ull;
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // separator: ("ab","c") != ("a","bc")
  }
};

// The generated tables say in their header comments which PyTorch they were
// built from ("... from the C shim headers of PyTorch 2.14.1"). Read it there
// rather than keeping a second copy of that fact that could go stale.
std::optional<TorchVersion> named_release(const std::string& content) {
  std::optional<TorchVersion> best;
  std::istringstream in(content);
  for (std::string line; std::getline(in, line) && line.starts_with("#");) {
    for (size_t at = line.find("PyTorch "); at != std::string::npos; at = line.find("PyTorch ", at + 1)) {
      size_t begin = at + 8, end = begin;
      while (end < line.size() && (std::isdigit(static_cast<unsigned char>(line[end])) || line[end] == '.')) ++end;
      while (end > begin && line[end - 1] == '.') --end;  // a sentence's full stop
      if (std::count(line.begin() + begin, line.begin() + end, '.') < 2) continue;  // "2.9" is a since-value
      auto v = TorchVersion::parse_dotted(line.substr(begin, end - begin));
      if (v && (!best || *best < *v)) best = v;
    }
  }
  return best;
}

}  // namespace

RulesRelease describe_rules(const RulesSource& src) {
  if (src.is_embedded()) return embedded_rules_release();
  return describe_rules_now(src);
}

RulesRelease describe_rules_now(const RulesSource& src) {
  RulesRelease r;
  r.source = src.describe();
  Fnv64 fnv;
  std::optional<TorchVersion> newest;
  for (const auto& path : src.list("")) {
    auto content = src.read(path);
    if (!content) continue;
    ++r.files;
    fnv.add(path);
    fnv.add(*content);
    if (path.ends_with(".tsv"))
      if (auto v = named_release(*content); v && (!newest || *newest < *v)) newest = v;
  }
  if (newest) r.derived_from = "PyTorch " + std::to_string(newest->major) + "." + std::to_string(newest->minor) + "." +
                               std::to_string(newest->patch);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv.h));
  r.digest = hex;
  return r;
}

std::string rules_release_line(const RulesRelease& r) {
  std::string line = "rules: " + r.source;
  if (!r.derived_from.empty()) line += ", derived from " + r.derived_from;
  return line + ", " + std::to_string(r.files) + " files, digest " + r.digest;
}

}  // namespace torchabi::inputs
