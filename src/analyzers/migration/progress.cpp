#include "analyzers/migration/progress.h"

#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/input_error.h"
#include "common/json_io.h"

namespace torchabi::migration {

Progress progress_of(const MigrationPlan& plan) {
  Progress p;
  p.by_disposition = plan.summary;
  p.by_disposition.unchanged = 0;
  p.uses_left = plan.summary.total();
  for (const auto& s : plan.steps) p.steps.push_back({s.id, s.files, s.counts.total()});
  return p;
}

Progress parse_progress_json(const std::string& text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = json_io::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    throw InputError(origin, "not JSON: expected a plan written by `torchabi migrate --format json`");
  }
  const auto bad = [&](const std::string& what) {
    return InputError(origin, "not a torchabi migrate plan: " + what + " (write one with --write-baseline)");
  };
  if (!j.is_object() || !j.contains("progress") || !j["progress"].is_object()) throw bad("no progress object");
  const auto& pj = j["progress"];
  if (!pj.contains("uses_left") || !pj["uses_left"].is_number_unsigned()) throw bad("no progress.uses_left");
  Progress p;
  p.uses_left = pj["uses_left"].get<size_t>();
  if (pj.contains("by_disposition") && pj["by_disposition"].is_object()) {
    const auto& d = pj["by_disposition"];
    auto n = [&](const char* k) { return d.contains(k) && d[k].is_number_unsigned() ? d[k].get<size_t>() : size_t(0); };
    p.by_disposition.fixable = n("fixable");
    p.by_disposition.fixable_unsafe = n("fixable_unsafe");
    p.by_disposition.manual = n("manual");
    p.by_disposition.blocked = n("blocked");
  }
  if (!pj.contains("per_step") || !pj["per_step"].is_array()) throw bad("no progress.per_step");
  for (const auto& s : pj["per_step"]) {
    if (!s.is_object() || !s.contains("id") || !s["id"].is_string() || !s.contains("uses_left") ||
        !s["uses_left"].is_number_unsigned())
      throw bad("a progress.per_step entry without id and uses_left");
    StepProgress sp;
    sp.id = s["id"].get<std::string>();
    sp.uses_left = s["uses_left"].get<size_t>();
    if (s.contains("files") && s["files"].is_array())
      for (const auto& f : s["files"])
        if (f.is_string()) sp.files.push_back(f.get<std::string>());
    p.steps.push_back(std::move(sp));
  }
  return p;
}

Progress read_progress_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot read the baseline plan (missing or unreadable)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read the baseline plan");
  return parse_progress_json(text.str(), path);
}

ProgressComparison compare_progress(const Progress& before, const Progress& now, const std::string& baseline) {
  ProgressComparison c;
  c.baseline = baseline;
  c.before = before.uses_left;
  c.now = now.uses_left;
  c.before_counts = before.by_disposition;
  c.regressed = now.uses_left > before.uses_left;
  std::map<std::string, const StepProgress*> old;
  for (const auto& s : before.steps) old.emplace(s.id, &s);
  for (const auto& s : now.steps) {
    StepChange ch{s.id, s.files, std::nullopt, s.uses_left, "new"};
    if (auto it = old.find(s.id); it != old.end()) {
      ch.before = it->second->uses_left;
      ch.status = s.uses_left < *ch.before ? "down" : s.uses_left > *ch.before ? "up" : "same";
      if (s.uses_left > *ch.before) c.regressed = true;
      old.erase(it);
    }
    c.steps.push_back(std::move(ch));
  }
  for (const auto& s : before.steps)
    if (old.count(s.id)) c.steps.push_back({s.id, s.files, s.uses_left, std::nullopt, "gone"});
  return c;
}

}  // namespace torchabi::migration
