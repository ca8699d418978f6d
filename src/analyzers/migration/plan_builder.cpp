#include "analyzers/migration/plan_builder.h"

#include <algorithm>
#include <map>
#include <set>

#include "analyzers/migration/target_choice.h"
#include "analyzers/migration/work_order.h"

namespace torchabi::migration {

const char* to_string(Disposition d) {
  switch (d) {
    case Disposition::Fixable: return "fixable";
    case Disposition::FixableUnsafe: return "fixable-unsafe";
    case Disposition::Manual: return "manual";
    case Disposition::Blocked: return "blocked";
  }
  return "manual";
}

void Counts::add(const ApiUse& u) {
  if (u.unchanged) ++unchanged;
  else add(u.disposition);
}

void Counts::add(Disposition d) {
  switch (d) {
    case Disposition::Fixable: ++fixable; break;
    case Disposition::FixableUnsafe: ++fixable_unsafe; break;
    case Disposition::Manual: ++manual; break;
    case Disposition::Blocked: ++blocked; break;
  }
}

namespace {

bool by_place(const findings::Location& a, const findings::Location& b) {
  return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
}

}  // namespace

MigrationPlan build_plan(PlanInputs in, const BlockerCatalog& blockers) {
  MigrationPlan plan;
  plan.inputs = std::move(in.inputs);
  plan.files_analysed = in.files_analysed;
  plan.notes = std::move(in.notes);
  plan.failures = std::move(in.failures);

  // The same use can arrive twice (a header seen from two translation units).
  std::sort(in.uses.begin(), in.uses.end(), [](const ApiUse& a, const ApiUse& b) {
    return std::tie(a.location, a.api) < std::tie(b.location, b.api);
  });
  in.uses.erase(std::unique(in.uses.begin(), in.uses.end(),
                            [](const ApiUse& a, const ApiUse& b) { return a.location == b.location && a.api == b.api; }),
                in.uses.end());

  std::map<std::string, ApiGroup> groups;
  std::map<std::string, BlockerGroup> blocked;
  std::map<std::string, Counts> per_file;
  for (const auto& u : in.uses) {
    plan.summary.add(u);
    if (!u.unchanged) per_file[u.location.file].add(u.disposition);

    ApiGroup& g = groups[u.api];
    if (g.api.empty()) {
      g.api = u.api;
      g.replacement = u.replacement;
      g.since = u.since;
      g.note = u.note;
      g.alternative = u.alternative;
      g.alternative_since = u.alternative_since;
    }
    g.counts.add(u);
    g.uses.push_back(u.location);
    if (std::find(g.files.begin(), g.files.end(), u.location.file) == g.files.end()) g.files.push_back(u.location.file);

    if (u.disposition == Disposition::Blocked) {
      const Blocker* b = u.blocker.empty() ? nullptr : blockers.find(u.blocker);
      const std::string key = b ? b->id : "no-stable-equivalent";
      BlockerGroup& bg = blocked[key];
      if (bg.id.empty()) {
        bg.id = key;
        if (b) {
          bg.title = b->title;
          bg.workaround = b->workaround;
          bg.partial_since = b->partial_since;
          bg.added_in = b->added_in;
          bg.source = b->source;
        } else {
          bg.title = "Other APIs with no stable equivalent";
          bg.workaround = "The replacement map records no stable equivalent; see each API's note.";
        }
      }
      if (std::find(bg.apis.begin(), bg.apis.end(), u.api) == bg.apis.end()) bg.apis.push_back(u.api);
      bg.uses.push_back(u.location);
    }
  }

  for (auto& [_, g] : groups) {
    std::sort(g.uses.begin(), g.uses.end(), by_place);
    std::sort(g.files.begin(), g.files.end());
    plan.apis.push_back(std::move(g));
  }
  std::stable_sort(plan.apis.begin(), plan.apis.end(), [](const ApiGroup& a, const ApiGroup& b) {
    return std::pair(a.counts.total(), a.counts.unchanged) > std::pair(b.counts.total(), b.counts.unchanged);
  });
  for (auto& [_, bg] : blocked) {
    std::sort(bg.apis.begin(), bg.apis.end());
    std::sort(bg.uses.begin(), bg.uses.end(), by_place);
    plan.blockers.push_back(std::move(bg));
  }
  std::stable_sort(plan.blockers.begin(), plan.blockers.end(),
                   [](const BlockerGroup& a, const BlockerGroup& b) { return a.uses.size() > b.uses.size(); });

  TargetChoice target = choose_target(in.uses, in.baseline, in.ceiling);
  plan.target = target.target;
  plan.target_is_baseline = target.is_baseline;
  plan.target_set_by = std::move(target.set_by);
  plan.target_forced_by = std::move(target.forced_by);
  plan.ceiling = in.ceiling;
  plan.above_ceiling = std::move(target.above_ceiling);

  for (const auto& [path, counts] : per_file) plan.files.push_back({path, counts});
  std::stable_sort(plan.files.begin(), plan.files.end(),
                   [](const FileProgress& a, const FileProgress& b) { return a.counts.total() > b.counts.total(); });

  // The include graph speaks normal paths; the plan speaks the paths lint reported.
  std::map<std::string, Counts> work;
  std::map<std::string, std::string> shown;
  for (const auto& [path, counts] : per_file) {
    const std::string n = normal_path(path);
    shown[n] = path;
    Counts& c = work[n];
    c.fixable += counts.fixable;
    c.fixable_unsafe += counts.fixable_unsafe;
    c.manual += counts.manual;
    c.blocked += counts.blocked;
  }
  plan.order = order_work(work, in.includes, shown);

  StepInputs steps;
  steps.uses = in.uses;
  steps.includes = std::move(in.includes);
  steps.coupling = std::move(in.coupling);
  steps.blocks = std::move(in.blocks);
  steps.display = std::move(shown);
  StepPlan sp = plan_steps(steps);
  plan.steps = std::move(sp.steps);
  plan.libraries = std::move(sp.libraries);
  return plan;
}

}  // namespace torchabi::migration
