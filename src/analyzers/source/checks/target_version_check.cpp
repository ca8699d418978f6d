// TORCH_TARGET_VERSION against what the TU uses:
//  version-target-implausible: the value (from -D or a #define) does not
//    decode to a PyTorch release (0x0210000000000000 is 2.16, not 2.10).
//  version-api-after-target: a stable API (C shim function, torch::stable /
//    torch::headeronly C++ API or stable macro) introduced after the target;
//    also when the headers' version guards hid it and clang reported it as
//    undeclared. A use is dated by the declaration clang resolved: the
//    TORCH_FEATURE_VERSION guards around it in the headers in use (see
//    since_of); the rules' name table only when there is no declaration.
// Every TU's subject records the lowest TORCH_TARGET_VERSION its code can
// use: the newest release among the stable APIs it uses.
#include <algorithm>
#include <map>
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/stable_headers.h"
#include "analyzers/source/compile_errors.h"
#include "analyzers/source/feature_guards.h"
#include "analyzers/source/target_setting.h"
#include "analyzers/source/version_expr.h"
#include "common/regex.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

namespace {

using Target = TargetSetting;

struct Use {
  std::string api;
  TorchVersion since;
  bool baseline = true;
  Range range;
  std::string how;  // note for the finding
  // The rules know an older declaration of the name (an overload kept for
  // older targets): at a lower target the call may resolve to that one.
  bool older_overload = false;
};

class TargetVersionCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    versioned_headers_.reset();
    auto target = read_target_setting(ctx.tu, ctx.env);
    if (target && !target->error.empty()) report_implausible(ctx, *target);
    std::vector<Use> uses = collect_uses(ctx);
    if (target && target->version) {
      // Errors first: when a guard hid the API, clang's message is the better note.
      std::set<std::tuple<std::string, uint32_t, std::string>> seen;
      std::vector<Use> hidden = translate_guard_errors(ctx, *target, seen);
      for (const auto& u : uses) {
        if (u.baseline || u.since <= *target->version) continue;
        if (!seen.emplace(u.range.file, u.range.begin, u.api).second) continue;
        report_after_target(ctx, *target, u.api, u.since, location_of(u.range), u.how);
      }
      // The code uses them even though this target hides them.
      uses.insert(uses.end(), hidden.begin(), hidden.end());
    }
    summarize(ctx, target, uses);
  }

private:
  std::map<std::string, FeatureGuards> guards_;  // by file; a path reads the same in every TU of a run
  std::optional<bool> versioned_headers_;        // per TU, see headers_are_versioned()

  const FeatureGuards& guards_of(CheckContext& ctx, const std::string& file) {
    auto it = guards_.find(file);
    if (it == guards_.end()) it = guards_.emplace(file, FeatureGuards::scan(ctx.tu.file_text(file))).first;
    return it->second;
  }

  // Whether the torch headers this TU read have the TORCH_FEATURE_VERSION
  // mechanism at all (one of them #defines it, as torch/csrc/stable/version.h
  // does from 2.10 on). Without it no declaration is guarded, and a missing
  // guard says nothing about when the API arrived.
  bool headers_are_versioned(CheckContext& ctx) {
    if (!versioned_headers_) {
      versioned_headers_ = false;
      for (const auto& f : ctx.tu.files_read()) {
        if (f.find("/torch/") == std::string::npos ||
            ctx.tu.file_text(f).find("TORCH_FEATURE_VERSION") == std::string_view::npos)
          continue;
        if (guards_of(ctx, f).defines_feature_version()) {
          versioned_headers_ = true;
          break;
        }
      }
    }
    return *versioned_headers_;
  }

  struct Dating {
    TorchVersion since;
    bool baseline = true;
    std::string how;  // where the date comes from, for the finding's note
    bool older_overload = false;
  };

  // Release an API use needs. The declaration (or macro definition) clang
  // resolved decides: the guards around it in the user's own headers say from
  // which release on that exact declaration exists, so the 2.9 overload of
  // new_empty (under `#if TORCH_FEATURE_VERSION < 2.10`) is 2.9 even though
  // the name also has a 2.10 overload, and a declaration outside any guard is
  // baseline. The rules' name table is only the fallback: no declaration
  // location, or headers without the TORCH_FEATURE_VERSION mechanism.
  Dating since_of(CheckContext& ctx, const std::string& api, const std::string& decl_file, uint32_t decl_line) {
    const TorchVersion baseline = ctx.env.stable_apis.baseline();
    if (!decl_file.empty() && headers_are_versioned(ctx)) {
      const VersionSet& at = guards_of(ctx, decl_file).compiled_at(decl_line);
      if (auto low = at.lowest()) {  // empty: our reading of the guards is off; use the table
        const TorchVersion v = TorchVersion::decode(*low);
        const std::string how = at.is_all() ? "" : " (compiled for TORCH_FEATURE_VERSION " + at.str() + ")";
        if (v <= baseline) return {baseline, true, how};
        const StableApi* named = ctx.env.stable_apis.find(api);
        return {v, false, how, named && (named->baseline || named->since < v)};
      }
    }
    if (const StableApi* a = ctx.env.stable_apis.find(api)) return {a->since, a->baseline, ""};
    return {baseline, true, ""};
  }

  std::vector<Use> collect_uses(CheckContext& ctx) {
    std::vector<Use> uses;
    for (const auto& [ref, cls] : ctx.classified_references()) {
      if (cls != ApiClass::Stable || (ref->via != Via::Spelled && ref->via != Via::DeducedType)) continue;
      Dating d = since_of(ctx, ref->qualified, ref->decl_file, ref->decl_line);
      uses.push_back({ref->qualified, d.since, d.baseline, ref->via == Via::Spelled ? ref->qualified_range : ref->range,
                      "declared in " + (ref->decl_header.empty() ? display_path(ref->decl_file) : ref->decl_header) +
                          ":" + std::to_string(ref->decl_line) + d.how,
                      d.older_overload});
    }
    for (const auto& u : ctx.tu.macro_uses()) {
      if (u.def_kind != HeaderKind::Stable) continue;
      Dating d = since_of(ctx, u.name, u.def_file, u.def_line);
      uses.push_back({u.name, d.since, d.baseline, u.range,
                      "macro defined in " + u.def_header + ":" + std::to_string(u.def_line) + d.how, d.older_overload});
    }
    if (!ctx.tu.ast_complete()) {
      // Shim functions named in code the AST could not resolve.
      for (const auto& file : ctx.tu.project_files()) {
        for (const auto& t : ctx.tokens(file)) {
          if (t.kind != Token::Kind::Identifier || !inputs::ApiCatalog::looks_like_shim(t.text)) continue;
          const StableApi* a = ctx.env.stable_apis.find(t.text);
          if (!a || ctx.covered_by_reference(file, t.range.begin)) continue;
          uses.push_back({t.text, a->since, a->baseline, t.range, "found in the tokens (the AST is incomplete)"});
        }
      }
    }
    return uses;
  }

  static std::string target_text(const Target& t) { return t.text(); }

  static void report_after_target(CheckContext& ctx, const Target& t, const std::string& api, TorchVersion since,
                                  findings::Location where, const std::string& how) {
    findings::Finding f;
    f.rule = "version-api-after-target";
    f.location = std::move(where);
    f.location.symbol = api;
    f.message = api + " was introduced in PyTorch " + since.str() + ", but TORCH_TARGET_VERSION is " + target_text(t);
    f.help = "Raise TORCH_TARGET_VERSION to " + since.hex() + " (" + since.str() +
             "; the extension then needs PyTorch >= " + since.str() + ") or do without " + api + ".";
    f.notes.push_back("TORCH_TARGET_VERSION from " + t.origin);
    if (!how.empty()) f.notes.push_back(how);
    ctx.report(std::move(f));
  }

  static void report_implausible(CheckContext& ctx, const Target& t) {
    findings::Finding f;
    f.rule = "version-target-implausible";
    if (t.value_range.valid()) {
      f.location = location_of(t.value_range);
    } else {
      f.location.file = ctx.tu.main_file();
    }
    f.location.symbol = "TORCH_TARGET_VERSION";
    f.message = "TORCH_TARGET_VERSION " + t.written + ": " + t.error;
    f.notes.push_back("set by " + t.origin);
    f.help = "Write the target as (major << 56) | (minor << 48), e.g. 0x020a000000000000 for 2.10, or use "
             "TORCH_VERSION_2_10_0.";
    static const Regex meant("write (0x[0-9a-f]{16})");
    if (auto m = meant.search(t.error)) {
      const std::string& value = (*m)[1];
      f.help = "Write " + value + ".";
      if (t.value_range.valid()) f.fix = make_fix(t.value_range, value, false, "set TORCH_TARGET_VERSION to " + value);
    }
    ctx.report(std::move(f));
  }

  // Clang errors that a version guard caused: the API exists, only not for this target.
  std::vector<Use> translate_guard_errors(CheckContext& ctx, const Target& t,
                                         std::set<std::tuple<std::string, uint32_t, std::string>>& seen) {
    std::vector<Use> hidden;
    for (const auto& d : ctx.tu.diagnostics()) {
      if (!is_error(d)) continue;
      const Diagnostic* at = project_site(ctx.tu, d);
      if (!at) continue;
      auto missing = read_missing_name(d.message);
      if (!missing) continue;
      std::optional<TorchVersion> needed = missing->requires_release;
      std::string name = missing->qualified();
      const StableApi* api = nullptr;
      if (!needed) {
        api = ctx.env.stable_apis.find(name);
        if (!api && missing->scope.empty() && name.find("::") == std::string::npos)
          api = ctx.env.stable_apis.find_unqualified(name);
      }
      if (api && !api->baseline) {
        needed = api->since;
        name = api->name;
      }
      if (!needed || *needed <= *t.version) continue;
      Range r = range_of(*at);
      if (!seen.emplace(r.file, r.begin, name).second) continue;
      report_after_target(ctx, t, name, *needed, location_of(r),
                          "the stable headers hide it below " + needed->str() + std::string(kClangQuote) + d.message);
      hidden.push_back({name, *needed, false, r, "hidden by the target"});
    }
    return hidden;
  }

  // A TU that uses stable functions it never defines (tensor_struct.h without
  // tensor_inl.h) has not seen the definitions' own requirements: its floor is
  // a lower bound, not a target to lower to.
  static void advise_lowering(CheckContext& ctx, const TorchVersion& floor) {
    for (const auto& f : ctx.reported())
      if (f.rule == "source-undefined-stable-function") {
        ctx.subject().facts.emplace_back(
            "note", "TORCH_TARGET_VERSION is not advised lower: functions this TU uses are not defined in it "
                    "(source-undefined-stable-function), so the floor may be understated");
        return;
      }
    ctx.subject().facts.emplace_back("note", "TORCH_TARGET_VERSION could be lowered to " + floor.str() +
                                                 " and the extension would load on more releases");
  }

  static void summarize(CheckContext& ctx, const std::optional<Target>& target, const std::vector<Use>& uses) {
    findings::Subject& s = ctx.subject();
    s.kind = "translation-unit";
    s.path = display_path(ctx.tu.main_file());
    if (target) {
      s.facts.emplace_back("TORCH_TARGET_VERSION",
                           (target->version ? target_text(*target) : target->written + " (invalid)") + " from " + target->origin);
    } else {
      s.facts.emplace_back("TORCH_TARGET_VERSION", "not set (the extension targets the torch it is built with)");
    }
    // Not analysed (source-torch-headers-not-found): no release to name.
    if (stable_headers_missing(ctx.tu)) {
      s.loads_on = "lowest TORCH_TARGET_VERSION: unknown (the stable PyTorch headers it includes were not found)";
      return;
    }
    if (uses.empty()) return;
    std::set<std::string> names;
    for (const auto& u : uses) names.insert(u.api);
    s.facts.emplace_back("stable APIs used", std::to_string(names.size()));
    std::optional<TorchVersion> floor;
    for (const auto& u : uses)
      if (!u.baseline && (!floor || u.since > *floor)) floor = u.since;
    if (!floor) {
      s.floor = ctx.env.stable_apis.baseline();
      s.floor_is_baseline = true;
      s.loads_on = "lowest TORCH_TARGET_VERSION: " + s.floor->str() + " (" + s.floor->hex() + "); nothing newer is used";
      if (target && target->version && *target->version > *s.floor) advise_lowering(ctx, *s.floor);
      return;
    }
    s.floor = floor;
    s.loads_on = "lowest TORCH_TARGET_VERSION: " + floor->str() + " (" + floor->hex() + ")";
    std::set<std::string> by, overloaded;
    for (const auto& u : uses)
      if (!u.baseline && u.since == *floor) {
        by.insert(u.api);
        if (u.older_overload) overloaded.insert(u.api);
      }
    s.floor_set_by.assign(by.begin(), by.end());
    if (target && target->version && *target->version > *floor) advise_lowering(ctx, *floor);
    // The floor is what the declarations resolved at this target need; an
    // overload for older targets (new_empty's 2.9 one) may serve the same call.
    if (!overloaded.empty() && overloaded.size() == by.size()) {
      std::string names;
      for (const auto& n : overloaded) names += (names.empty() ? "" : ", ") + n;
      s.facts.emplace_back("note", names + " also declared for older targets: at a lower TORCH_TARGET_VERSION the calls "
                                           "may resolve to those; lint at that target to find out");
    }
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_target_version_check() { return std::make_unique<TargetVersionCheck>(); }

}  // namespace torchabi::source::checks
