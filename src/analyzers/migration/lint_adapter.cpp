#include "analyzers/migration/lint_adapter.h"

#include <map>
#include <set>
#include <tuple>

#include "analyzers/migration/directive_scanner.h"
#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/include_graph.h"
#include "common/input_error.h"

namespace torchabi::migration {

namespace {

constexpr const char* kApi = "source-unstable-api";
constexpr const char* kMacro = "source-unstable-macro";
constexpr const char* kInclude = "source-unstable-include";

constexpr const char* kNoEntry =
    "No direct stable replacement is recorded: write it with the torch::stable ops, or call the ATen operator "
    "through torch_call_dispatcher (2.10).";

// Macro definition ranges per file, read once.
class MacroRanges {
public:
  bool inside(const findings::FixIt& f) {
    const std::string path = normal_path(f.file);
    auto it = cache_.find(path);
    if (it == cache_.end()) {
      std::vector<ByteRange> ranges;
      try {
        ranges = scan_directives(read_source_file(path)).macro_definitions;
      } catch (const InputError&) {
      }
      it = cache_.emplace(path, std::move(ranges)).first;
    }
    for (const auto& r : it->second)
      if (r.overlaps(f.begin_offset, f.end_offset)) return true;
    return false;
  }

private:
  std::map<std::string, std::vector<ByteRange>> cache_;
};

}  // namespace

bool is_migration_rule(const std::string& rule) { return rule == kApi || rule == kMacro || rule == kInclude; }

std::vector<ApiUse> uses_from_lint(const findings::Report& report, const source::Replacements& replacements,
                                   const BlockerCatalog& blockers, const std::vector<BoxedRegistration>& boxed) {
  // One finding per place and API, preferring one that carries a fix-it.
  std::map<std::tuple<std::string, uint32_t, uint32_t, std::string>, const findings::Finding*> chosen;
  for (const auto& f : report.findings) {
    if (!is_migration_rule(f.rule) || f.location.symbol.empty()) continue;
    auto key = std::make_tuple(normal_path(f.location.file), f.location.line, f.location.column, f.location.symbol);
    auto [it, fresh] = chosen.emplace(key, &f);
    if (!fresh && !it->second->fix && f.fix) it->second = &f;
  }
  std::vector<ApiUse> uses;
  MacroRanges macros;
  for (const auto& [_, fp] : chosen) {
    const findings::Finding& f = *fp;
    ApiUse u;
    u.api = f.location.symbol;
    u.location = f.location;
    u.is_include = f.rule == kInclude;
    u.fix = f.fix;
    const std::string_view kind = f.rule == kMacro ? "macro" : u.is_include ? "header" : "";
    const auto match = replacements.find(u.api, kind);
    const Blocker* blocker = u.is_include ? nullptr : blockers.match(u.api);
    const BoxedRegistration* box = u.fix ? find_boxed_registration(boxed, u.api) : nullptr;
    if (box) {
      u.replacement = box->wrap;
      u.header = box->header;
      u.since = box->since;
      u.note = box->note;
      u.disposition = box->safe ? Disposition::Fixable : Disposition::FixableUnsafe;
    } else if (match && match->replacement) {
      u.replacement = *match->replacement;
      u.header = match->entry->header;
      u.since = match->entry->since;
      u.note = match->entry->note;
      if (!u.fix) u.disposition = Disposition::Manual;
      else if (macros.inside(*u.fix)) {
        u.disposition = Disposition::Manual;
        u.note = "Inside a macro definition: rewrite it by hand. " + u.note;
      } else {
        u.disposition = u.fix->safety == findings::FixSafety::Safe ? Disposition::Fixable : Disposition::FixableUnsafe;
      }
    } else if (blocker) {
      u.disposition = Disposition::Blocked;
      u.blocker = blocker->id;
      u.note = blocker->workaround;
    } else if (match && !u.is_include) {
      u.disposition = Disposition::Blocked;
      u.note = match->entry->note;
    } else {
      u.disposition = Disposition::Manual;
      u.note = match ? match->entry->note : u.is_include ? f.help : kNoEntry;
    }
    if (u.note.empty()) u.note = f.help;
    uses.push_back(std::move(u));
  }

  // Includes: fixable by the header rewrite when nothing else in the file stays.
  std::set<std::string> keeps_legacy;
  for (const auto& u : uses)
    if (!u.is_include && u.disposition != Disposition::Fixable) keeps_legacy.insert(normal_path(u.location.file));
  for (auto& u : uses) {
    if (!u.is_include || u.disposition != Disposition::Manual || u.fix) continue;
    if (!keeps_legacy.count(normal_path(u.location.file))) {
      u.disposition = Disposition::Fixable;
      u.note = "--fix replaces it with the stable headers the rewritten file uses.";
    } else if (u.note.empty()) {
      u.note = "Stays until the file's other legacy uses are gone.";
    }
  }
  return uses;
}

}  // namespace torchabi::migration
