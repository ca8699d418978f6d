#include "analyzers/source/header_classifier.h"

#include <algorithm>
#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

const char* to_string(HeaderKind k) {
  switch (k) {
    case HeaderKind::Stable: return "stable";
    case HeaderKind::Unstable: return "unstable";
    case HeaderKind::Other: return "other";
  }
  return "other";
}

bool header_glob_match(std::string_view pattern, std::string_view name) {
  if (pattern.ends_with("/**")) {
    std::string_view prefix = pattern.substr(0, pattern.size() - 2);  // keeps the trailing '/'
    return name.starts_with(prefix);
  }
  return ::fnmatch(std::string(pattern).c_str(), std::string(name).c_str(), FNM_PATHNAME) == 0;
}

HeaderClassifier HeaderClassifier::load(const inputs::RulesSource& src) {
  const std::string rel = "api/headers.yaml";
  HeaderClassifier c;
  try {
    YAML::Node n = YAML::Load(src.require(rel));
    for (const auto& p : n["stable"]) c.stable_.push_back(p.as<std::string>());
    for (const auto& p : n["unstable"]) c.unstable_.push_back(p.as<std::string>());
    for (const auto& p : n["roots"]) c.roots_.push_back(p.as<std::string>());
  } catch (const YAML::Exception& e) {
    throw InputError(src.describe() + "/" + rel, std::string("malformed rules: ") + e.what());
  }
  if (c.stable_.empty() || c.unstable_.empty() || c.roots_.empty())
    throw InputError(src.describe() + "/" + rel, "stable, unstable and roots must all be non-empty");
  for (const auto* list : {&c.stable_, &c.unstable_})
    for (const auto& p : *list)
      if (std::find(c.roots_.begin(), c.roots_.end(), p.substr(0, p.find('/'))) == c.roots_.end())
        throw InputError(src.describe() + "/" + rel, "pattern '" + p + "' does not start with one of the roots");
  return c;
}

HeaderKind HeaderClassifier::classify(std::string_view name) const {
  // Every pattern starts with a root directory: anything else is Other
  // without trying the globs (this runs for each of a TU's #includes).
  const std::string_view first = name.substr(0, name.find('/'));
  if (first.size() == name.size() || std::find(roots_.begin(), roots_.end(), first) == roots_.end())
    return HeaderKind::Other;
  for (const auto& p : stable_)
    if (header_glob_match(p, name)) return HeaderKind::Stable;
  for (const auto& p : unstable_)
    if (header_glob_match(p, name)) return HeaderKind::Unstable;
  return HeaderKind::Other;
}

std::string HeaderClassifier::torch_name(const std::string& path, const std::vector<std::string>& include_dirs) const {
  for (const auto& dir : include_dirs) {
    if (dir.empty()) continue;
    std::string prefix = dir.back() == '/' ? dir : dir + "/";
    if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0) {
      std::string rel = path.substr(prefix.size());
      if (classify(rel) != HeaderKind::Other) return rel;
    }
  }
  // Rightmost root component: ".../torch/include/torch/csrc/stable/ops.h"
  // names "torch/csrc/stable/ops.h".
  for (size_t pos = path.size(); pos > 0;) {
    size_t slash = path.rfind('/', pos - 1);
    if (slash == std::string::npos) break;
    std::string_view rest(path.data() + slash + 1, path.size() - slash - 1);
    for (const auto& root : roots_) {
      if (rest.size() > root.size() && rest.starts_with(root) && rest[root.size()] == '/') {
        if (classify(rest) != HeaderKind::Other) return std::string(rest);
      }
    }
    pos = slash;
  }
  return {};
}

}  // namespace torchabi::source
