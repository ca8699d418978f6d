// JSON for tools. Field names are a contract (docs/json-format.md): fields may
// be added, never renamed or removed.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "reporters/migration_reporter.h"

#include "common/json_io.h"
#include "reporters/path_bytes.h"

namespace torchabi::reporters {

using nlohmann::json;
using namespace torchabi::migration;

namespace {

json counts_json(const Counts& c) {
  return {{"fixable", c.fixable}, {"fixable_unsafe", c.fixable_unsafe}, {"manual", c.manual},
          {"blocked", c.blocked}, {"total", c.total()}, {"unchanged", c.unchanged}};
}

// A file name, and beside it, when it is not plain UTF-8, its exact bytes
// percent-encoded in "<key>_bytes" (path_bytes.h; docs/json-format.md).
void put_path(json& o, const std::string& key, const std::string& path) {
  o[key] = path;
  if (!plain_name(path)) o[key + "_bytes"] = percent_encode_bytes(path);
}

// A list of file names; when any is not plain, "<key>_bytes" lists every one
// percent-encoded, in the same order.
void put_paths(json& o, const std::string& key, const std::vector<std::string>& paths) {
  o[key] = paths;
  if (std::all_of(paths.begin(), paths.end(), [](const std::string& p) { return plain_name(p); })) return;
  json bytes = json::array();
  for (const auto& p : paths) bytes.push_back(percent_encode_bytes(p));
  o[key + "_bytes"] = std::move(bytes);
}

json use_json(const findings::Location& l) {
  json j = json::object();
  put_path(j, "file", l.file);
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
  put_paths(j, "inputs", p.inputs);
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
              {"counts", counts_json(g.counts)}};
    put_paths(a, "files", g.files);
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
    put_path(o, "path", f.path);
    j["files"].push_back(o);
  }
  j["order"] = json::array();
  for (size_t i = 0; i < p.order.size(); ++i) {
    const auto& g = p.order[i];
    json o = {{"step", i + 1}, {"why", g.why}, {"counts", counts_json(g.counts)}};
    put_paths(o, "files", g.files);
    j["order"].push_back(std::move(o));
  }
  j["steps"] = json::array();
  for (const auto& s : p.steps) {
    json o = {{"id", s.id}, {"kind", s.kind}, {"counts", counts_json(s.counts)},
              {"uses_left", s.counts.total()}, {"why", s.why}, {"builds", s.builds}, {"blockers", s.blockers},
              {"after", s.after}, {"keep_legacy_module", s.keep_legacy_module}};
    put_paths(o, "files", s.files);
    o["edits"] = json::array();
    for (const auto& e : s.edits) {
      json edit = {{"line", e.line}, {"what", e.what}};
      put_path(edit, "file", e.file);
      o["edits"].push_back(std::move(edit));
    }
    j["steps"].push_back(o);
  }
  j["libraries"] = json::array();
  auto blocks_json = [](const std::vector<LibraryBlockRef>& list) {
    json a = json::array();
    for (const auto& b : list) {
      json o = {{"line", b.line}, {"stable", b.stable}, {"step", b.step.empty() ? json(nullptr) : json(b.step)}};
      put_path(o, "file", b.file);
      if (!b.dispatch_key.empty()) o["dispatch_key"] = b.dispatch_key;
      a.push_back(o);
    }
    return a;
  };
  for (const auto& l : p.libraries)
    j["libraries"].push_back({{"namespace", l.ns}, {"defs", blocks_json(l.defs)}, {"impls", blocks_json(l.impls)},
                              {"plan", l.plan}});
  // What CI tracks (docs/migrate.md, "Progress"): stable field names.
  json progress = {{"uses_left", p.summary.total()},
                   {"by_disposition", {{"fixable", p.summary.fixable}, {"fixable_unsafe", p.summary.fixable_unsafe},
                                       {"manual", p.summary.manual}, {"blocked", p.summary.blocked}}},
                   {"per_step", json::array()}};
  for (const auto& s : p.steps) {
    json o = {{"id", s.id}, {"uses_left", s.counts.total()}};
    put_paths(o, "files", s.files);
    progress["per_step"].push_back(std::move(o));
  }
  j["progress"] = progress;
  if (p.comparison) {
    const auto& c = *p.comparison;
    json b = {{"uses_left_before", c.before}, {"uses_left_now", c.now},
              {"change", static_cast<long long>(c.now) - static_cast<long long>(c.before)}, {"regressed", c.regressed},
              {"per_step", json::array()}};
    put_path(b, "file", c.baseline);
    for (const auto& s : c.steps) {
      json o = {{"id", s.id}, {"status", s.status}, {"before", s.before ? json(*s.before) : json(nullptr)},
                {"now", s.now ? json(*s.now) : json(nullptr)}};
      put_paths(o, "files", s.files);
      b["per_step"].push_back(std::move(o));
    }
    j["baseline"] = b;
  }
  j["notes"] = p.notes;
  j["errors"] = json::array();
  for (const auto& e : p.failures) {
    json o = {{"message", e.message}};
    put_path(o, "input", e.input);
    j["errors"].push_back(std::move(o));
  }
  return json_io::dump(j, 2) + "\n";
}

}  // namespace torchabi::reporters
