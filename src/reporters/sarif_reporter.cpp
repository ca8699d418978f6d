// SARIF 2.1.0, the format GitHub code scanning ingests. Binary findings have no
// line; they point at the artifact and name the symbol as a logical location.
#include <map>
#include <nlohmann/json.hpp>

#include "findings/rule_registry.h"
#include "common/json_io.h"
#include "reporters/path_bytes.h"
#include "reporters/reporter.h"
#include "reporters/torch_matrix.h"

namespace torchabi::reporters {

using nlohmann::json;

static const char* sarif_level(findings::Severity s) {
  switch (s) {
    case findings::Severity::Error: return "error";
    case findings::Severity::Warning: return "warning";
    case findings::Severity::Note: return "note";
  }
  return "error";
}

std::string render_sarif(const findings::Report& r, const findings::RuleRegistry& reg) {
  // Only the rules this run used, in a stable order, so ruleIndex is meaningful.
  std::map<std::string, size_t> index;
  for (const auto& f : r.findings) index.emplace(f.rule, 0);
  json rules = json::array();
  size_t i = 0;
  for (auto& [id, idx] : index) {
    idx = i++;
    json rule = {{"id", id}, {"name", id}};
    if (const auto* d = reg.find(id)) {
      rule["shortDescription"] = {{"text", d->summary}};
      rule["fullDescription"] = {{"text", d->description}};
      rule["help"] = {{"text", d->instead}, {"markdown", "**Instead:** " + d->instead}};
      rule["defaultConfiguration"] = {{"level", sarif_level(d->severity)}};
      rule["properties"] = {{"fix", findings::to_string(d->fix)}};
    }
    rules.push_back(rule);
  }
  json results = json::array();
  for (const auto& f : r.findings) {
    const auto sev = f.severity.value_or(findings::Severity::Error);
    std::string text = f.message;
    if (!f.help.empty()) text += " Instead: " + f.help;
    json phys = {{"artifactLocation", {{"uri", plain_name(f.location.file) ? f.location.file : percent_encode_bytes(f.location.file)}}}};
    if (f.location.line) {
      phys["region"] = {{"startLine", f.location.line}};
      if (f.location.column) phys["region"]["startColumn"] = f.location.column;
    }
    json loc = {{"physicalLocation", phys}};
    json logical = json::array();
    if (!f.location.member.empty()) logical.push_back({{"name", f.location.member}, {"kind", "module"}});
    if (!f.location.symbol.empty()) logical.push_back({{"name", f.location.symbol}, {"kind", "function"}});
    if (!logical.empty()) loc["logicalLocations"] = logical;
    json res = {{"ruleId", f.rule}, {"ruleIndex", index[f.rule]}, {"level", sarif_level(sev)},
                {"message", {{"text", text}}}, {"locations", json::array({loc})}};
    res["partialFingerprints"] = {{"torchabi/v1", f.fingerprint()}};
    if (f.fix) {
      // SARIF regions count characters from 0; byte offsets match for ASCII sources.
      res["fixes"] = json::array({{{"description", {{"text", f.fix->description}}},
                                   {"artifactChanges", json::array({{{"artifactLocation", {{"uri", f.fix->file}}},
                                                                     {"replacements", json::array({{
                                                                          {"deletedRegion", {{"charOffset", f.fix->begin_offset}, {"charLength", f.fix->end_offset - f.fix->begin_offset}}},
                                                                          {"insertedContent", {{"text", f.fix->replacement}}}}})}}})}}});
    }
    results.push_back(res);
  }
  json run = {{"tool", {{"driver", {{"name", "torchabi"}, {"version", TORCHABI_VERSION},
                                    {"rules", rules}}}}},
              {"results", results}};
  // audit --torch: the whole matrix (a result exists only where a library
  // does not load; this also records where it does).
  if (!r.torches.empty()) {
    json torches = json::array(), libraries = json::array();
    for (const auto& t : r.torches) torches.push_back(torch_install_json(t));
    for (const auto& s : r.subjects) {
      json per = json::object();
      for (const auto& l : s.torch) per[l.torch] = torch_load_json(l);
      libraries.push_back({{"path", s.path}, {"kind", s.kind}, {"torch", per}});
    }
    run["properties"] = {{"torchabi/torchMatrix", {{"torches", torches}, {"subjects", libraries}}}};
  }
  if (!r.failures.empty()) {
    json notes = json::array();
    for (const auto& e : r.failures)
      notes.push_back({{"level", "error"}, {"message", {{"text", e.line()}}}});
    run["invocations"] = json::array({{{"executionSuccessful", false}, {"toolExecutionNotifications", notes}}});
  }
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"},
              {"runs", json::array({run})}};
  return json_io::dump(doc, 2) + "\n";
}

}  // namespace torchabi::reporters
