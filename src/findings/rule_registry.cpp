#include "findings/rule_registry.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <yaml-cpp/yaml.h>

#include "common/input_error.h"
#include "inputs/precompiled_rules.h"
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
                                             "boxed",  "runtime", "torchbind", "backend", "project", "build",
                                             "compile", "opcheck"};
  return g;
}

namespace {

std::string text(const YAML::Node& n, const char* key) {
  return n[key] ? n[key].as<std::string>() : std::string();
}

constexpr std::string_view kDir = "checks/";
constexpr std::string_view kExt = ".yaml";

RuleDoc parse_entry(const inputs::RulesSource& src, const std::string& rel, const std::string& content) {
  const std::string where = src.describe() + "/" + rel;
  try {
    YAML::Node n = YAML::Load(content);
    RuleDoc d;
    d.id = text(n, "id");
    const std::string stem = rel.substr(kDir.size(), rel.size() - kDir.size() - kExt.size());
    if (d.id != stem) throw InputError(where, "id '" + d.id + "' does not match the file name");
    d.group = d.id.substr(0, d.id.find('-'));
    const auto& g = RuleRegistry::groups();
    if (std::find(g.begin(), g.end(), d.group) == g.end())
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
    return d;
  } catch (const YAML::Exception& e) {
    throw InputError(where, std::string("malformed rule: ") + e.what());
  }
}

// Rule ids are kebab-case; anything else cannot name a file of checks/ (and
// must not reach outside it: ids also come from users' config files).
bool plausible_id(const std::string& id) {
  return !id.empty() &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace

RuleDoc from_precompiled(const inputs::precompiled::RuleDoc& p) {
  RuleDoc d;
  d.id = p.id;
  d.group = p.group;
  d.severity = static_cast<Severity>(p.severity);
  d.summary = p.summary;
  d.description = p.description;
  d.instead = p.instead;
  d.fix = static_cast<FixKind>(p.fix);
  d.example_fires = p.example_fires;
  d.example_clean = p.example_clean;
  return d;
}

struct RuleRegistry::Entries {
  explicit Entries(inputs::RulesSource s)
      : src(std::move(s)), pre(src.is_embedded() ? inputs::precompiled::embedded() : nullptr) {}
  const inputs::RulesSource src;
  // The embedded rules' entries as the build read them (no YAML at run time).
  const inputs::precompiled::Rules* const pre;
  std::mutex mutex;
  std::map<std::string, RuleDoc> rules;  // node-based: pointers stay valid as it grows
  std::set<std::string> absent;
  bool complete = false;  // every entry read: `rules` no longer changes

  const inputs::precompiled::RuleDoc* precompiled(const std::string& id) const {
    const auto* end = pre->rule_docs + pre->rule_doc_count;
    const auto* it = std::lower_bound(pre->rule_docs, end, id,
                                      [](const inputs::precompiled::RuleDoc& d, const std::string& i) { return d.id < i; });
    return it != end && it->id == id ? it : nullptr;
  }

  void read_all() {
    if (complete) return;
    if (pre) {
      for (size_t i = 0; i < pre->rule_doc_count; ++i)
        if (!rules.count(pre->rule_docs[i].id)) rules.emplace(pre->rule_docs[i].id, from_precompiled(pre->rule_docs[i]));
      complete = true;
      return;
    }
    for (const auto& rel : src.list(std::string(kDir))) {
      if (!rel.ends_with(kExt)) continue;
      const std::string id = rel.substr(kDir.size(), rel.size() - kDir.size() - kExt.size());
      if (rules.count(id)) continue;
      RuleDoc d = parse_entry(src, rel, src.require(rel));
      rules.emplace(d.id, std::move(d));
    }
    complete = true;
  }
};

RuleRegistry::RuleRegistry(std::shared_ptr<Entries> entries) : entries_(std::move(entries)) {}

RuleRegistry RuleRegistry::lazy(const inputs::RulesSource& src) {
  return RuleRegistry(std::make_shared<Entries>(src));
}

RuleRegistry RuleRegistry::load(const inputs::RulesSource& src) {
  RuleRegistry reg = lazy(src);
  reg.entries_->read_all();
  return reg;
}

const RuleRegistry& RuleRegistry::current() {
  static const RuleRegistry reg = lazy(inputs::RulesSource::current());
  return reg;
}

const std::map<std::string, RuleDoc>& RuleRegistry::all() const {
  std::lock_guard lock(entries_->mutex);
  entries_->read_all();
  return entries_->rules;
}

const RuleDoc* RuleRegistry::find(const std::string& id) const {
  Entries& e = *entries_;
  std::lock_guard lock(e.mutex);
  if (auto it = e.rules.find(id); it != e.rules.end()) return &it->second;
  if (e.complete || e.absent.count(id) || !plausible_id(id)) return nullptr;
  if (e.pre) {
    const inputs::precompiled::RuleDoc* p = e.precompiled(id);
    if (!p) {
      e.absent.insert(id);
      return nullptr;
    }
    return &e.rules.emplace(id, from_precompiled(*p)).first->second;
  }
  const std::string rel = std::string(kDir) + id + std::string(kExt);
  std::optional<std::string> content = e.src.read(rel);
  if (!content) {
    e.absent.insert(id);
    return nullptr;
  }
  RuleDoc d = parse_entry(e.src, rel, *content);
  return &e.rules.emplace(id, std::move(d)).first->second;
}

const RuleDoc& RuleRegistry::get(const std::string& id) const {
  if (auto* d = find(id)) return *d;
  throw std::out_of_range("torchabi: rule '" + id + "' is emitted but has no rules/checks entry");
}

}  // namespace torchabi::findings
