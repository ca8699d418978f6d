#include "findings/rule_registry.h"

#include <algorithm>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::findings {

const char* to_string(FixKind k) {
  switch (k) {
    case FixKind::None: return "none";
    case FixKind::Safe: return "safe";
    case FixKind::Unsafe: return "unsafe";
  }
  return "none";
}

const std::vector<std::string>& RuleRegistry::groups() {
  static const std::vector<std::string> g = {"binary", "source", "version", "schema",
                                             "boxed",  "runtime", "torchbind", "backend"};
  return g;
}

static std::string text(const YAML::Node& n, const char* key) {
  return n[key] ? n[key].as<std::string>() : std::string();
}

RuleRegistry RuleRegistry::load(const inputs::RulesSource& src) {
  RuleRegistry reg;
  for (const auto& rel : src.list("checks/")) {
    if (!rel.ends_with(".yaml")) continue;
    const std::string where = src.describe() + "/" + rel;
    try {
      YAML::Node n = YAML::Load(src.require(rel));
      RuleDoc d;
      d.id = text(n, "id");
      const std::string stem = rel.substr(7, rel.size() - 7 - 5);
      if (d.id != stem) throw InputError(where, "id '" + d.id + "' does not match the file name");
      d.group = d.id.substr(0, d.id.find('-'));
      if (std::find(groups().begin(), groups().end(), d.group) == groups().end())
        throw InputError(where, "rule id must start with one of the groups (binary-, source-, ...)");
      auto sev = parse_severity(text(n, "severity"));
      if (!sev) throw InputError(where, "severity must be error, warning or note");
      d.severity = *sev;
      d.summary = text(n, "summary");
      d.description = text(n, "description");
      d.instead = text(n, "instead");
      if (d.summary.empty() || d.description.empty() || d.instead.empty())
        throw InputError(where, "summary, description and instead are required");
      const std::string fix = n["fix"] ? text(n, "fix") : "none";
      if (fix == "none") d.fix = FixKind::None;
      else if (fix == "safe") d.fix = FixKind::Safe;
      else if (fix == "unsafe") d.fix = FixKind::Unsafe;
      else throw InputError(where, "fix must be none, safe or unsafe");
      d.example_fires = text(n, "example_fires");
      d.example_clean = text(n, "example_clean");
      reg.rules_.emplace(d.id, std::move(d));
    } catch (const YAML::Exception& e) {
      throw InputError(where, std::string("malformed rule: ") + e.what());
    }
  }
  return reg;
}

const RuleRegistry& RuleRegistry::current() {
  static const RuleRegistry reg = load(inputs::RulesSource::current());
  return reg;
}

const RuleDoc* RuleRegistry::find(const std::string& id) const {
  auto it = rules_.find(id);
  return it == rules_.end() ? nullptr : &it->second;
}

const RuleDoc& RuleRegistry::get(const std::string& id) const {
  if (auto* d = find(id)) return *d;
  throw std::out_of_range("torchabi: rule '" + id + "' is emitted but has no rules/checks entry");
}

}  // namespace torchabi::findings
