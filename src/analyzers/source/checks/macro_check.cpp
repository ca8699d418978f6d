// source-unstable-macro: uses of PyTorch's unstable macros (TORCH_CHECK,
// AT_DISPATCH_*, TORCH_LIBRARY*, C10_CUDA_KERNEL_LAUNCH_CHECK, AT_ERROR,
// PYBIND11_MODULE binding torch types, ...), from libclang's macro expansion
// records; project macros whose body uses them are reported at their
// #define; with missing headers the macro names are found in the tokens.
#include <set>

#include "analyzers/source/checks/checks.h"

namespace torchabi::source::checks {

namespace {

const char* kRule = "source-unstable-macro";

bool uses_torch_types(CheckContext& ctx) {
  for (const auto& [ref, cls] : ctx.classified_references())
    if (cls == ApiClass::Unstable) return true;
  for (const auto& d : ctx.tu.includes())
    if (d.kind == HeaderKind::Unstable && ctx.tu.is_project_file(d.includer)) return true;
  return false;
}

void describe(CheckContext& ctx, const ReplacementMatch& m, findings::Finding& f, const Range& name_range,
              const Range& invocation, bool may_fix) {
  const Replacement& e = *m.entry;
  if (!m.replacement) {
    f.help = e.note.empty() ? "There is no stable replacement yet." : e.note;
    return;
  }
  const std::string since = e.since ? " (PyTorch " + e.since->str() + "+)" : std::string();
  std::string shown = *m.replacement;
  while (!shown.empty() && (shown.back() == ' ' || shown.back() == ',')) shown.pop_back();
  if (e.style == ReplacementStyle::PrefixArgs) shown += "...)";
  f.help = "Use " + shown + (e.header.empty() ? "" : " from " + e.header) + since + ".";
  if (!e.note.empty()) f.help += " " + e.note;
  if (!may_fix || e.fix == ReplacementFix::No) return;
  const bool safe = e.fix == ReplacementFix::Safe;
  if (e.style == ReplacementStyle::PrefixArgs) {
    // NAME( args ) -> replacement args ): only when there are arguments.
    std::string_view text = ctx.tu.file_text(name_range.file);
    size_t p = name_range.end;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (p >= text.size() || text[p] != '(') return;
    size_t q = p + 1;
    while (q < text.size() && (text[q] == ' ' || text[q] == '\t' || text[q] == '\n')) ++q;
    if (q >= text.size() || text[q] == ')' || (invocation.valid() && q >= invocation.end)) return;
    Range r = name_range;
    r.end = static_cast<uint32_t>(q);
    f.fix = make_fix(r, *m.replacement, safe, "rewrite `" + std::string(text.substr(r.begin, q - r.begin)) + "` as `" +
                                                  *m.replacement + "`");
  } else {
    f.fix = make_fix(name_range, *m.replacement, safe, "replace " + f.location.symbol + " with " + *m.replacement);
  }
}

class MacroCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const bool torch_types = uses_torch_types(ctx);
    std::set<std::pair<std::string, uint32_t>> expanded;
    for (const auto& u : ctx.tu.macro_uses()) {
      expanded.emplace(u.range.file, u.range.begin);
      if (u.def_kind == HeaderKind::Stable) continue;
      if (!u.def_file.empty() && ctx.tu.is_project_file(u.def_file)) continue;
      auto m = ctx.env.replacements.find(u.name, "macro");
      if (m) {
        if (u.name == "PYBIND11_MODULE" && !torch_types) continue;
        report(ctx, u.name, u.range, u.invocation_range, &*m, u.def_header.empty() ? display_path(u.def_file) : u.def_header,
               torch_types && u.name == "PYBIND11_MODULE");
      } else if (u.def_kind == HeaderKind::Unstable) {
        // A torch macro without an entry matters when it expands to unstable API.
        for (const auto& [ref, cls] : ctx.classified_references()) {
          if (cls != ApiClass::Unstable || ref->via != Via::MacroBody || ref->range.file != u.range.file ||
              ref->range.begin != u.range.begin)
            continue;
          findings::Finding f;
          f.rule = kRule;
          f.location = location_of(u.range);
          f.location.symbol = u.name;
          f.message = "uses unstable PyTorch macro " + u.name + ", which expands to " + ref->qualified;
          f.notes.push_back("defined in " + u.def_header + ":" + std::to_string(u.def_line));
          f.help = "Write the code without the macro, using torch::stable / torch::headeronly APIs.";
          ctx.report(std::move(f));
          break;
        }
      }
    }
    // Project macros whose replacement list uses a torch macro: reported once, at the #define.
    std::set<std::pair<std::string, uint32_t>> in_definitions;
    for (const auto& d : ctx.tu.macro_definitions()) {
      for (const auto& [id, range] : d.body_identifiers) {
        in_definitions.emplace(range.file, range.begin);
        auto m = ctx.env.replacements.find(id, "macro");
        if (!m || id == "PYBIND11_MODULE") continue;
        findings::Finding f;
        f.rule = kRule;
        f.location = location_of(range);
        f.location.symbol = id;
        f.message = "macro " + d.name + " is defined with unstable PyTorch macro " + id;
        describe(ctx, *m, f, range, Range{}, m->entry->style == ReplacementStyle::Rename);
        ctx.report(std::move(f));
      }
    }
    if (ctx.tu.ast_complete()) return;
    // Missing headers: the macro was never defined, so never expanded.
    for (const auto& file : ctx.tu.project_files()) {
      for (const auto& t : ctx.tokens(file)) {
        if (t.kind != Token::Kind::Identifier) continue;
        if (expanded.count({t.range.file, t.range.begin}) || in_definitions.count({t.range.file, t.range.begin})) continue;
        auto m = ctx.env.replacements.find(t.text, "macro");
        if (!m) continue;
        if (t.text == "PYBIND11_MODULE" && !torch_types) continue;
        report(ctx, t.text, t.range, Range{}, &*m, "", false, true);
      }
    }
  }

private:
  static void report(CheckContext& ctx, const std::string& name, const Range& range, const Range& invocation,
                     const ReplacementMatch* m, const std::string& defined_in, bool pybind_with_torch,
                     bool token_level = false) {
    findings::Finding f;
    f.rule = kRule;
    f.location = location_of(range);
    f.location.symbol = name;
    f.message = pybind_with_torch ? "PYBIND11_MODULE binds torch types through libtorch_python's pybind11 casters, "
                                    "which are not part of the stable ABI"
                                  : "uses unstable PyTorch macro " + name;
    if (!defined_in.empty()) f.notes.push_back("defined in " + defined_in);
    if (token_level) f.notes.push_back("found in the tokens: the header defining it was not found, so it was not expanded");
    describe(ctx, *m, f, range, invocation, !token_level || m->entry->style == ReplacementStyle::Rename);
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_macro_check() { return std::make_unique<MacroCheck>(); }

}  // namespace torchabi::source::checks
