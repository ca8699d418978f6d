// version-macro-missing-at-target: an #if/#elif of a project file that reads
// a version macro the headers of the TU's TORCH_TARGET_VERSION do not define.
//
// `#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0` in code that targets
// 2.9: 2.9's headers define neither macro (torch/csrc/stable/version.h came
// in 2.10), the preprocessor reads both as 0, 0 >= 0 holds, and the branch
// meant for 2.10 is compiled against 2.9's headers. Building with newer
// headers hides it, so it shows only in the 2.9 build, or in a user's.
//
// Each condition is evaluated twice (pp_condition.h): as meant (the macros
// with their values, TORCH_FEATURE_VERSION = the target) and as the target's
// headers read it (the macros they lack are 0). defined(X) reads the same in
// both, so `defined(TORCH_FEATURE_VERSION) && ...` is the protection it
// looks like. A finding needs both results known and different; conditions
// inside a block the target does not compile (#ifdef TORCH_FEATURE_VERSION)
// are not read. Macros the data does not list are unknown, never guessed.
#include <algorithm>
#include <cctype>
#include <vector>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/directives.h"
#include "analyzers/source/pp_condition.h"
#include "analyzers/source/target_setting.h"
#include "common/text.h"

namespace torchabi::source::checks {

namespace {

using Tri = std::optional<bool>;

struct Frame {
  bool live = true;   // the block holding the #if is compiled at the target (or may be)
  Tri taken = false;  // some branch of the chain so far is compiled at the target
};

using text::is_identifier_char;

// Identifiers of a condition read as values (not operands of `defined`), in order, once each.
std::vector<std::string> value_identifiers(const std::string& cond) {
  std::vector<std::string> out;
  bool after_defined = false;
  for (size_t i = 0; i < cond.size();) {
    if (!is_identifier_char(cond[i]) || std::isdigit(static_cast<unsigned char>(cond[i]))) {
      if (std::isdigit(static_cast<unsigned char>(cond[i])))
        while (i < cond.size() && is_identifier_char(cond[i])) ++i;
      else
        ++i;
      continue;
    }
    size_t b = i;
    while (i < cond.size() && is_identifier_char(cond[i])) ++i;
    std::string id = cond.substr(b, i - b);
    if (id == "defined") {
      after_defined = true;
      continue;
    }
    if (!after_defined && std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    after_defined = false;
  }
  return out;
}

class VersionMacroCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    auto target = read_target_setting(ctx.tu, ctx.env);
    if (!target || !target->version || !target->raw) return;
    const TorchVersion at = *target->version;
    const VersionMacros& data = ctx.env.version_macros;

    PpMacros at_target, meant;
    at_target.defined = [&](std::string_view n) -> Tri {
      if (n == "TORCH_TARGET_VERSION") return true;
      if (data.find(n)) return data.defined_at(n, at);
      return std::nullopt;
    };
    meant.defined = at_target.defined;
    auto value = [&](std::string_view n, bool as_meant) -> std::optional<uint64_t> {
      if (n == "TORCH_TARGET_VERSION") return *target->raw;
      const VersionMacro* m = data.find(n);
      if (!m) return std::nullopt;
      if (!as_meant && !data.defined_at(n, at)) return 0;
      if (n == "TORCH_FEATURE_VERSION") return *target->raw;  // what version.h sets it to under a target
      return m->release_value;
    };
    at_target.value = [&](std::string_view n) { return value(n, false); };
    meant.value = [&](std::string_view n) { return value(n, true); };

    for (const auto& file : ctx.tu.project_files()) {
      std::vector<Frame> stack;
      for (const auto& d : scan_directives(ctx.tu.file_text(file))) {
        const bool live = stack.empty() || stack.back().live;
        if (d.keyword == "if" || d.keyword == "ifdef" || d.keyword == "ifndef") {
          const Tri t = condition_at_target(ctx, *target, file, d, live, at_target, meant);
          stack.push_back({live && t != Tri(false), t});
        } else if (d.keyword == "elif" && !stack.empty()) {
          Frame& f = stack.back();
          const bool outer = stack.size() < 2 || stack[stack.size() - 2].live;
          const bool reached = outer && f.taken != Tri(true);
          const Tri t = condition_at_target(ctx, *target, file, d, reached, at_target, meant);
          f.live = reached && t != Tri(false);
          if (t == Tri(true)) f.taken = true;
          else if (!t) f.taken = f.taken == Tri(true) ? Tri(true) : std::nullopt;
        } else if (d.keyword == "else" && !stack.empty()) {
          Frame& f = stack.back();
          const bool outer = stack.size() < 2 || stack[stack.size() - 2].live;
          f.live = outer && f.taken != Tri(true);
          f.taken = true;
        } else if (d.keyword == "endif" && !stack.empty()) {
          stack.pop_back();
        }
      }
    }
  }

private:
  // The directive's value at the target; reports it when it is read there
  // (`reached`) and reads otherwise than meant.
  static Tri condition_at_target(CheckContext& ctx, const TargetSetting& target, const std::string& file,
                                 const Directive& d, bool reached, const PpMacros& at_target, const PpMacros& meant) {
    if (d.keyword == "ifdef" || d.keyword == "ifndef") {
      std::string name;
      for (char c : d.rest)
        if (is_identifier_char(c)) name += c;
        else if (!name.empty()) break;
      Tri def = at_target.defined(name);
      if (!def) return std::nullopt;
      return d.keyword == "ifdef" ? *def : !*def;
    }
    auto there = evaluate_pp_condition(d.rest, at_target);
    if (!there) return std::nullopt;
    auto intended = evaluate_pp_condition(d.rest, meant);
    if (reached && intended && (*there != 0) != (*intended != 0)) report(ctx, target, file, d, *there != 0, *intended != 0);
    return *there != 0;
  }

  static void report(CheckContext& ctx, const TargetSetting& target, const std::string& file, const Directive& d,
                     bool there, bool intended) {
    const TorchVersion at = *target.version;
    std::vector<std::string> missing;
    for (const auto& id : value_identifiers(d.rest))
      if (ctx.env.version_macros.find(id) && !ctx.env.version_macros.defined_at(id, at)) missing.push_back(id);
    if (missing.empty()) return;
    std::string names, defined_list;
    for (size_t i = 0; i < missing.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + missing[i];
      defined_list += (i == 0 ? "" : intended ? " || " : " && ") + std::string(intended ? "!" : "") + "defined(" +
                      missing[i] + ")";
    }
    std::string cond = d.rest;
    while (!cond.empty() && std::isspace(static_cast<unsigned char>(cond.front()))) cond.erase(0, 1);
    while (!cond.empty() && std::isspace(static_cast<unsigned char>(cond.back()))) cond.pop_back();

    findings::Finding f;
    f.rule = "version-macro-missing-at-target";
    Range r;
    r.file = file;
    r.line = d.line;
    const size_t in_rest = d.rest.find(missing.front());
    r.begin = d.rest_offset + static_cast<uint32_t>(in_rest == std::string::npos ? 0 : in_rest);
    r.end = r.begin + static_cast<uint32_t>(missing.front().size());
    r.column = r.begin - d.offset + 1;
    if (d.continued) {  // offsets past the first line are not exact: point at the directive
      r.begin = d.offset;
      r.end = d.offset + 1;
      r.column = 1;
    }
    f.location = location_of(r);
    f.location.symbol = missing.front();
    const bool several = missing.size() > 1;
    f.message = "'#" + d.keyword + " " + cond + "' reads " + names + ", which PyTorch " + at.str() + "'s headers " +
                "do not define (" + (several ? "they read" : "it reads") + " as 0): built against them the condition is " +
                (there ? "true" : "false") + ", although at TORCH_TARGET_VERSION " + at.str() + " it means " +
                (intended ? "true" : "false");
    for (const auto& m : missing) {
      const VersionMacro* vm = ctx.env.version_macros.find(m);
      f.notes.push_back(m + " is defined from PyTorch " + vm->since->str() + " on, in <" + vm->header + ">");
    }
    f.notes.push_back("TORCH_TARGET_VERSION " + target.text() + " from " + target.origin);
    const std::string fixed = defined_list + (intended ? " || " : " && ") + "(" + cond + ")";
    f.help = "Test that the macros exist first: '#" + d.keyword + " " + fixed + "'. Including "
             "<torch/csrc/stable/version.h> first does not help: PyTorch " + at.str() +
             " has no such header (include it under `#if __has_include(<torch/csrc/stable/version.h>)`).";
    if (!d.continued && in_rest != std::string::npos) {
      Range whole;
      whole.file = file;
      whole.line = d.line;
      const size_t lead = d.rest.find(cond);
      whole.begin = d.rest_offset + static_cast<uint32_t>(lead);
      whole.end = whole.begin + static_cast<uint32_t>(cond.size());
      whole.column = whole.begin - d.offset + 1;
      std::string_view text = ctx.tu.file_text(file);
      // Only when the condition is written exactly as read (no comment inside it).
      if (whole.end <= text.size() && text.substr(whole.begin, cond.size()) == cond)
        f.fix = make_fix(whole, fixed, false, "test that " + names + (several ? " are" : " is") + " defined");
    }
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_version_macro_check() { return std::make_unique<VersionMacroCheck>(); }

}  // namespace torchabi::source::checks
