#include "findings/policy.h"

#include <algorithm>
#include <fnmatch.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "common/input_error.h"
#include "common/json_io.h"
#include "findings/rule_registry.h"

namespace torchabi::findings {

namespace {

bool glob(const std::string& pattern, const std::string& text) {
  return pattern.empty() || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

std::string basename(const std::string& p) {
  auto slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool suppressed_by(const Suppression& s, const Finding& f) {
  if (!glob(s.rule, f.rule)) return false;
  if (!s.symbol.empty() && !glob(s.symbol, f.location.symbol)) return false;
  if (!s.library.empty()) {
    const std::string lib = f.location.member.empty() ? f.location.file : f.location.member;
    if (!glob(s.library, basename(lib)) && !glob(s.library, lib)) return false;
  }
  if (!s.path.empty() && !glob(s.path, f.location.file)) return false;
  return true;
}

}  // namespace

Baseline Baseline::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "baseline file not found");
  Baseline b;
  try {
    auto j = json_io::parse(in);
    if (!j.is_object() || !j.contains("fingerprints") || !j["fingerprints"].is_array())
      throw InputError(path, "not a torchabi baseline (expected {\"fingerprints\": [...]})");
    for (const auto& e : j["fingerprints"]) b.fingerprints.insert(e.get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("malformed baseline: ") + e.what());
  }
  return b;
}

std::string Baseline::serialize(const Report& report) {
  std::set<std::string> fps;
  for (const auto& f : report.findings) fps.insert(f.fingerprint());
  nlohmann::json j;
  j["version"] = 1;
  j["fingerprints"] = fps;
  return json_io::dump(j, 2) + "\n";
}

void apply_policy(Report& report, const Config& config, const RuleRegistry& rules, const Baseline* baseline) {
  std::vector<Finding> kept;
  kept.reserve(report.findings.size());
  for (auto& f : report.findings) {
    const RuleDoc& doc = rules.get(f.rule);
    if (auto it = config.severity.find(f.rule); it != config.severity.end()) f.severity = it->second;
    else if (!f.severity) f.severity = doc.severity;
    if (std::any_of(config.ignore.begin(), config.ignore.end(), [&](const auto& g) { return glob(g, f.rule); })) {
      ++report.suppressed;
      continue;
    }
    if (std::any_of(config.suppress.begin(), config.suppress.end(), [&](const auto& s) { return suppressed_by(s, f); })) {
      ++report.suppressed;
      continue;
    }
    if (baseline && baseline->fingerprints.count(f.fingerprint())) {
      ++report.baselined;
      continue;
    }
    kept.push_back(std::move(f));
  }
  // Sort positions, then move each finding once: a Finding is a dozen
  // strings, and a library with 40,000 unstable imports has as many findings.
  std::vector<size_t> order(kept.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const Location& a = kept[x].location;
    const Location& b = kept[y].location;
    return std::tie(a.file, a.member, a.line, a.column) < std::tie(b.file, b.member, b.line, b.column);
  });
  report.findings.clear();
  report.findings.reserve(kept.size());
  for (size_t i : order) report.findings.push_back(std::move(kept[i]));
}

std::optional<Severity> worst_severity(const Report& report) {
  std::optional<Severity> worst;
  for (const auto& f : report.findings)
    if (f.severity && (!worst || *f.severity > *worst)) worst = f.severity;
  return worst;
}

}  // namespace torchabi::findings
