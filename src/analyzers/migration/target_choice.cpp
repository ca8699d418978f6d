#include "analyzers/migration/target_choice.h"

#include <set>

namespace torchabi::migration {

namespace {

std::string place(const ApiUse& u) { return u.api + " at " + u.location.file + ":" + std::to_string(u.location.line); }

// The release a fix-it's code needs: its own, else the use's replacement's.
std::optional<TorchVersion> fix_needs(const findings::FixIt& f, const ApiUse& u) { return f.needs ? f.needs : u.since; }

}  // namespace

TargetChoice choose_target(const std::vector<ApiUse>& uses, TorchVersion baseline,
                           std::optional<TorchVersion> ceiling) {
  std::optional<TorchVersion> newest;
  std::set<std::string> newest_by;
  std::vector<std::string> forced, above;
  for (const auto& u : uses) {
    if (u.disposition == Disposition::Blocked || !u.needs() || u.replacement.empty() || u.is_include) continue;
    // Lowest means lowest: a use with an older alternative needs only that.
    const TorchVersion needs = *u.needs();
    const std::string& spelling = u.alternative_since ? u.alternative : u.replacement;
    if (ceiling && needs > *ceiling) {
      above.push_back(place(u) + " -> " + spelling + " needs " + needs.str());
      continue;
    }
    if (!newest || needs > *newest) {
      newest = needs;
      newest_by.clear();
      forced.clear();
    }
    if (needs == *newest) {
      newest_by.insert(spelling);
      forced.push_back(place(u) + " -> " + spelling);
    }
  }
  TargetChoice c;
  c.above_ceiling = std::move(above);
  if (!newest || *newest <= baseline) {
    c.target = baseline;
    c.is_baseline = true;
  } else {
    c.target = *newest;
    c.set_by.assign(newest_by.begin(), newest_by.end());
    c.forced_by = std::move(forced);
  }
  return c;
}

std::vector<std::string> fit_fixes_to_target(std::vector<ApiUse>& uses, TorchVersion target) {
  std::vector<std::string> withheld;
  for (auto& u : uses) {
    if (!u.fix) continue;
    const auto needs = fix_needs(*u.fix, u);
    if (!needs || *needs <= target) continue;
    const auto fallback_needs = u.fallback_fix ? fix_needs(*u.fallback_fix, u) : std::nullopt;
    if (u.fallback_fix && (!fallback_needs || *fallback_needs <= target)) {
      u.fix = std::move(u.fallback_fix);
      u.fallback_fix.reset();
      continue;
    }
    withheld.push_back(place(u) + ": not rewritten: " + u.replacement + " needs " + needs->str() +
                       ", newer than the target " + target.str());
    u.fix.reset();
    u.fallback_fix.reset();
    u.disposition = Disposition::Manual;
  }
  return withheld;
}

}  // namespace torchabi::migration
