// JSON for tools. Field names are a contract (docs/json-format.md): fields may
// be added, never renamed or removed.
#include <nlohmann/json.hpp>

#include "reporters/migration_reporter.h"

namespace torchabi::reporters {

using nlohmann::json;
using namespace torchabi::migration;

namespace {

json counts_json(const Counts& c) {
  return {{"fixable", c.fixable}, {"fixable_unsafe", c.fixable_unsafe}, {"manual", c.manual},
          {"blocked", c.blocked}, {"total", c.total()}, {"unchanged", c.unchanged}};
}

json use_json(const findings::Location& l) {
  json j = {{"file", l.file}};
  if (l.line) j["line"] = l.line;
  if (l.column) j["column"] = l.column;
  return j;
}

json version_or_null(const std::optional<TorchVersion>& v) { return v ? json(v->str()) : json(nullptr); }

}  // namespace

std::string render_plan_json(const MigrationPlan& p) {
  json j;
  j["tool"] = {{"name", "torchabi"}, {"version", TORCHABI_VERSION}};
  j["command"] = "migrate";
  j["inputs"] = p.inputs;
  json summary = counts_json(p.summary);
  summary["files_analysed"] = p.files_analysed;
  summary["files_with_work"] = p.files.size();
  j["summary"] = summary;
  if (p.target)
    j["target_version"] = {{"release", p.target->str()}, {"hex", p.target->hex()},
                           {"is_baseline", p.target_is_baseline}, {"set_by", p.target_set_by},
                           {"forced_by", p.target_forced_by},
                           {"ceiling", version_or_null(p.ceiling)},
                           {"above_ceiling", p.above_ceiling}};
  else
    j["target_version"] = nullptr;

  j["apis"] = json::array();
  for (const auto& g : p.apis) {
    json a = {{"api", g.api},
              {"replacement", g.replacement.empty() ? json(nullptr) : json(g.replacement)},
              {"since", version_or_null(g.since)},
              {"note", g.note},
              {"count", g.counts.total()},
              {"alternative", g.alternative.empty() ? json(nullptr) : json(g.alternative)},
              {"alternative_since", version_or_null(g.alternative_since)},
              {"counts", counts_json(g.counts)},
              {"files", g.files}};
    a["uses"] = json::array();
    for (const auto& l : g.uses) a["uses"].push_back(use_json(l));
    j["apis"].push_back(a);
  }
  j["blockers"] = json::array();
  for (const auto& b : p.blockers) {
    json o = {{"id", b.id}, {"title", b.title}, {"workaround", b.workaround},
              {"partial_since", version_or_null(b.partial_since)}, {"added_in", version_or_null(b.added_in)},
              {"source", b.source.empty() ? json(nullptr) : json(b.source)}, {"apis", b.apis}, {"count", b.uses.size()}};
    o["uses"] = json::array();
    for (const auto& l : b.uses) o["uses"].push_back(use_json(l));
    j["blockers"].push_back(o);
  }
  j["files"] = json::array();
  for (const auto& f : p.files) {
    json o = counts_json(f.counts);
    o["path"] = f.path;
    j["files"].push_back(o);
  }
  j["order"] = json::array();
  for (size_t i = 0; i < p.order.size(); ++i) {
    const auto& g = p.order[i];
    j["order"].push_back({{"step", i + 1}, {"files", g.files}, {"why", g.why}, {"counts", counts_json(g.counts)}});
  }
  j["notes"] = p.notes;
  j["errors"] = json::array();
  for (const auto& e : p.failures) j["errors"].push_back({{"input", e.input}, {"message", e.message}});
  return j.dump(2) + "\n";
}

}  // namespace torchabi::reporters
