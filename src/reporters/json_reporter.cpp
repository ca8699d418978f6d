// JSON for tools. Field names are a public contract documented in
// docs/json-format.md: add fields, never rename or remove them.
#include <nlohmann/json.hpp>

#include "findings/rule_registry.h"
#include "common/json_io.h"
#include "reporters/json_model.h"
#include "reporters/path_bytes.h"
#include "reporters/reporter.h"
#include "reporters/torch_matrix.h"

namespace torchabi::reporters {

using nlohmann::json;

json location_json(const findings::Location& l) {
  json j = json::object();
  j["file"] = l.file;
  if (!plain_name(l.file)) j["file_bytes"] = percent_encode_bytes(l.file);
  if (l.line) j["line"] = l.line;
  if (l.column) j["column"] = l.column;
  if (!l.member.empty()) j["member"] = l.member;
  if (!l.symbol.empty()) j["symbol"] = l.symbol;
  return j;
}

std::string render_json(const findings::Report& r, const findings::RuleRegistry&) {
  json j;
  j["tool"] = {{"name", "torchabi"}, {"version", TORCHABI_VERSION}};
  j["command"] = r.command;
  j["subjects"] = json::array();
  for (const auto& s : r.subjects) {
    json o = {{"kind", s.kind}, {"path", s.path}, {"verdict", s.verdict}, {"loads_on", s.loads_on}};
    o["floor"] = s.floor ? json(s.floor->str()) : json(nullptr);
    if (!plain_name(s.path)) o["path_bytes"] = percent_encode_bytes(s.path);
    o["floor_is_baseline"] = s.floor_is_baseline;
    o["floor_set_by"] = s.floor_set_by;
    json facts = json::object();
    // A fact said of several things (two legacy-by-design libraries) keeps
    // every value: joined, in order, rather than the last one alone.
    for (const auto& [k, v] : s.facts) {
      if (facts.contains(k)) facts[k] = facts[k].get<std::string>() + "; " + v;
      else facts[k] = v;
    }
    o["facts"] = facts;
    // audit --torch: one entry per install, keyed by the PATH given.
    if (!r.torches.empty()) {
      json torch = json::object();
      for (const auto& l : s.torch) torch[l.torch] = torch_load_json(l);
      o["torch"] = torch;
    }
    j["subjects"].push_back(o);
  }
  if (!r.torches.empty()) {
    j["torches"] = json::array();
    for (const auto& t : r.torches) j["torches"].push_back(torch_install_json(t));
  }
  j["findings"] = json::array();
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) {
    const auto sev = f.severity.value_or(findings::Severity::Error);
    ++counts[int(sev)];
    json o = {{"rule", f.rule}, {"severity", findings::to_string(sev)}, {"message", f.message},
              {"help", f.help}, {"location", location_json(f.location)}, {"notes", f.notes}};
    if (f.fix) {
      o["fix"] = {{"file", f.fix->file}, {"begin_offset", f.fix->begin_offset}, {"end_offset", f.fix->end_offset},
                  {"replacement", f.fix->replacement},
                  {"safety", f.fix->safety == findings::FixSafety::Safe ? "safe" : "unsafe"},
                  {"description", f.fix->description}};
    }
    j["findings"].push_back(o);
  }
  j["errors"] = json::array();
  for (const auto& e : r.failures) {
    json o = {{"input", e.input}, {"message", e.message}};
    if (!plain_name(e.input)) o["input_bytes"] = percent_encode_bytes(e.input);
    j["errors"].push_back(o);
  }
  j["summary"] = {{"error", counts[2]}, {"warning", counts[1]}, {"note", counts[0]},
                  {"suppressed", r.suppressed}, {"baselined", r.baselined}};
  return json_io::dump(j, 2) + "\n";
}

}  // namespace torchabi::reporters
