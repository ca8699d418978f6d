#include "analyzers/migration/inactive_uses.h"

#include "analyzers/migration/lint_adapter.h"

namespace torchabi::migration {

namespace {

// The replacement kind of a use, from how lint worded it (token_use_findings.h).
std::string_view kind_of(const findings::Finding& f) {
  if (f.message.find("includes unstable PyTorch header") != std::string::npos) return "header";
  if (f.message.find("uses unstable PyTorch macro") != std::string::npos) return "macro";
  return {};
}

}  // namespace

std::vector<ApiUse> uses_in_inactive_branches(const findings::Report& report, const source::Replacements& replacements,
                                              const BlockerCatalog* blockers, const MigrationRewrites* rewrites) {
  std::vector<ApiUse> uses;
  for (const auto& f : report.findings) {
    if (f.rule != "source-inactive-branch" || f.location.symbol.empty() || f.severity == findings::Severity::Note)
      continue;
    ApiUse u;
    u.api = f.location.symbol;
    u.location = f.location;
    u.disposition = Disposition::Manual;
    const std::string where = f.message.substr(0, f.message.find(": "));  // "in `#ifdef USE_ROCM`, which this configuration does not compile"
    const std::string_view kind = kind_of(f);
    const std::string lookup = kind.empty() ? tensor_member_name(u.api, replacements) : u.api;
    std::string workaround;
    if (auto m = replacements.find(lookup, kind); m && m->replacement) {
      u.replacement = *m->replacement;
      u.header = m->entry->header;
      u.since = m->entry->since;
    } else if (const BoxedRegistration* boxed = rewrites && kind.empty() ? rewrites->boxed_for(u.api) : nullptr) {
      u.replacement = boxed->wrap;
      u.header = boxed->header;
      u.since = boxed->since;
    } else if (const Blocker* b = blockers && kind.empty() ? blockers->match(lookup) : nullptr) {
      u.disposition = Disposition::Blocked;
      u.blocker = b->id;
      workaround = " " + b->workaround;
    }
    u.note = "Needs a human: " + where + " (" + f.location.display() +
             "). --fix does not edit code the compiler did not read; port it like its active twin, then lint that "
             "configuration (--also-define NAME)." + workaround;
    uses.push_back(std::move(u));
  }
  return uses;
}

}  // namespace torchabi::migration
