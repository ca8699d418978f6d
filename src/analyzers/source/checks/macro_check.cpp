// source-unstable-macro: uses of PyTorch's unstable macros (TORCH_CHECK,
// AT_DISPATCH_*, TORCH_LIBRARY*, C10_CUDA_KERNEL_LAUNCH_CHECK, AT_ERROR,
// PYBIND11_MODULE binding torch types, ...), from libclang's macro expansion
// records. A definition is not a use: a macro the project defines itself (its
// #define is in a project file, even under a torch macro's name, such as a
// stable build's own C10_CUDA_CHECK) is judged by its definition. Its uses
// are fine when its body uses only stable things; otherwise the finding is at
// the unstable macro in the body (once, naming an expansion and the chain),
// without a fix-it: torchabi never edits a #define. A definition that is never
// expanded only gets a note. With missing headers the macro names are found
// in the tokens, outside preprocessor directives and the project's own macros.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>
#include <map>
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/project_macros.h"
#include "findings/replacement_builder.h"

namespace torchabi::source::checks {

namespace {

const char* kUnstableMacroRule = "source-unstable-macro";

bool uses_torch_types(CheckContext& ctx) {
  for (const auto& [ref, cls] : ctx.classified_references())
    if (cls == ApiClass::Unstable) return true;
  for (const auto& d : ctx.tu.includes())
    if (d.kind == HeaderKind::Unstable && ctx.tu.is_project_file(d.includer)) return true;
  return false;
}

// "THO_DISPATCH_V2($1, ...)" -> "THO_DISPATCH_V2".
std::string api_name_of(const std::string& replacement) { return replacement.substr(0, replacement.find('(')); }

// The top-level arguments of the macro call whose '(' is at `open` and whose
// ')' ends before `end`, as trimmed [begin, end) spans of `text`; nullopt
// when the text does not parse as one (unbalanced brackets, a quote left open).
struct Span {
  uint32_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};
std::optional<std::vector<Span>> call_arguments(std::string_view text, size_t open, size_t end) {
  std::vector<Span> args;
  auto trimmed = [&](size_t b, size_t e) {
    while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n')) ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n')) --e;
    return Span{static_cast<uint32_t>(b), static_cast<uint32_t>(e)};
  };
  size_t start = open + 1;
  std::vector<char> nest;
  for (size_t i = open + 1; i < end && i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < end && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      if (i >= end) return std::nullopt;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') nest.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    else if (c == ')' && nest.empty()) {
      args.push_back(trimmed(start, i));
      return args;
    } else if (c == ')' || c == ']' || c == '}') {
      if (nest.empty() || nest.back() != c) return std::nullopt;
      nest.pop_back();
    } else if (c == ',' && nest.empty()) {
      args.push_back(trimmed(start, i));
      start = i + 1;
    }
  }
  return std::nullopt;
}

// "THO_DISPATCH_V2($1, $2, AT_WRAP($3), ...)" filled with the call's
// arguments, each a copy of the file's text (so that rewrites inside the
// lambda compose with this one); false when it names one the call does not have.
//
// An argument the template passes through AT_WRAP(...) (the dispatch body) is
// put in parentheses when it holds a comma outside parentheses (a template
// argument list such as `accessor<scalar_t, 2>`, a declaration `int a, b;`,
// a braced list): the real THO_DISPATCH_V2 (2.14.1's headers) hands the body
// on to one more macro call after it has been expanded (THO_AP<N>(C, BODY,
// types...)), where such a comma splits it; `([&] { ... })()` calls the same
// lambda with any release's macro.
bool splits_in_macro_call(std::string_view text, const Span& a) {
  int depth = 0;
  for (size_t i = a.begin; i < a.end && i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < a.end && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      if (i >= a.end) return true;  // not sure: the parentheses are harmless
    } else if (c == '/' && i + 1 < a.end && text[i + 1] == '/') {
      while (i < a.end && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < a.end && text[i + 1] == '*') {
      const size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos || close >= a.end) return true;
      i = close + 1;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      return true;
    }
  }
  return false;
}

bool fill_template(std::string_view text, const std::string& tmpl, const std::vector<Span>& args,
                   findings::ReplacementBuilder& out) {
  static constexpr std::string_view kWrap = "AT_WRAP(";
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '$' && i + 1 < tmpl.size() && tmpl[i + 1] >= '1' && tmpl[i + 1] <= '9') {
      const bool wrapped = i >= kWrap.size() && std::string_view(tmpl).substr(i - kWrap.size(), kWrap.size()) == kWrap &&
                           i + 2 < tmpl.size() && tmpl[i + 2] == ')';
      const size_t k = static_cast<size_t>(tmpl[++i] - '1');
      if (k >= args.size() || args[k].empty()) return false;
      const bool paren = wrapped && splits_in_macro_call(text, args[k]);
      if (paren) out.text("(");
      out.copy(args[k].begin, args[k].end);
      if (paren) out.text(")");
    } else {
      out.text(std::string_view(&tmpl[i], 1));
    }
  }
  return out.ok();
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
  if (e.style == ReplacementStyle::CallTemplate) shown = api_name_of(shown) + "(...)";
  f.help = "Use " + shown + (e.header.empty() ? "" : " from " + e.header) + since + ".";
  if (!e.note.empty()) f.help += " " + e.note;
  if (!may_fix || e.fix == ReplacementFix::No) return;
  const bool safe = e.fix == ReplacementFix::Safe;
  if (e.style == ReplacementStyle::CallTemplate) {
    // The whole call, name to ')', rewritten from its arguments.
    if (!invocation.valid()) return;
    std::string_view text = ctx.tu.file_text(name_range.file);
    size_t p = name_range.end;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (p >= text.size() || text[p] != '(' || invocation.end > text.size()) return;
    const auto args = call_arguments(text, p, invocation.end);
    if (!args) return;
    findings::ReplacementBuilder filled(text);
    if (!fill_template(text, *m.replacement, *args, filled)) return;
    f.fix = filled.fix(name_range.file, name_range.begin, invocation.end, safe,
                       "rewrite the " + f.location.symbol + " call with " + api_name_of(*m.replacement));
  } else if (e.style == ReplacementStyle::PrefixArgs) {
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
          f.rule = kUnstableMacroRule;
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
    ProjectMacros macros(ctx);
    const std::set<std::pair<std::string, uint32_t>> in_definitions = project_macro_chains(ctx, macros);
    if (ctx.tu.ast_complete()) return;
    // Missing headers: the macro was never defined, so never expanded.
    for (const auto& file : ctx.tu.project_files()) {
      const auto directives = directive_spans(ctx.tu.file_text(file));
      for (const auto& t : ctx.tokens(file)) {
        if (t.kind != Token::Kind::Identifier) continue;
        if (expanded.count({t.range.file, t.range.begin}) || in_definitions.count({t.range.file, t.range.begin})) continue;
        auto m = ctx.env.replacements.find(t.text, "macro");
        if (!m) continue;
        // `#define C10_CUDA_CHECK(...)`, `#undef`, `#ifdef`: not a use.
        if (in_spans(directives, t.range.begin)) continue;
        // The project's own C10_CUDA_CHECK: judged by its definition.
        if (macros.is_project_macro(t.text)) continue;
        if (t.text == "PYBIND11_MODULE" && !torch_types) continue;
        report(ctx, t.text, t.range, Range{}, &*m, "", false, true);
      }
    }
  }

private:
  // A project macro built on torch macros is reported at the torch macro in
  // its definition (the innermost one of a chain: CHECK_POSITIVE ->
  // MYEXT_CHECK -> TORCH_CHECK), once, naming an expansion: a definition is
  // not a use, and every expansion of it uses what its body uses. A project
  // header that defines both TORCH_LIBRARY_EXPAND and
  // STABLE_TORCH_LIBRARY_EXPAND, to serve both builds, is fine when only the
  // stable one is expanded; the other gets a note. Returns the positions of
  // the torch macro names in project definitions, which the token-level scan
  // must not report again.
  static std::set<std::pair<std::string, uint32_t>> project_macro_chains(CheckContext& ctx, ProjectMacros& macros) {
    std::set<const MacroDefinition*> expanded;
    // By the torch macro's position in a definition: the first expansion reaching it.
    std::map<std::pair<std::string, uint32_t>, std::pair<const MacroUse*, ProjectMacros::Reached>> reached;
    for (const auto& u : ctx.tu.macro_uses()) {
      if (u.def_file.empty() || !ctx.tu.is_project_file(u.def_file)) continue;
      const MacroDefinition* d = macros.definition_of(u);
      if (!d) continue;
      for (auto& use : macros.torch_macros_reached(*d, expanded))
        reached.emplace(std::make_pair(use.torch_range.file, use.torch_range.begin), std::make_pair(&u, std::move(use)));
    }
    for (const auto& [at, first] : reached) report_in_definition(ctx, *first.first, first.second);
    std::set<std::pair<std::string, uint32_t>> in_definitions;
    for (const auto& d : ctx.tu.macro_definitions()) {
      for (const auto& [id, range] : d.body_identifiers) {
        if (!ctx.env.replacements.find(id, "macro")) continue;
        in_definitions.emplace(range.file, range.begin);
        if (expanded.count(&d) || id == "PYBIND11_MODULE" || macros.is_project_macro(id)) continue;
        findings::Finding f;
        f.rule = kUnstableMacroRule;
        f.severity = findings::Severity::Note;
        f.location = location_of(range);
        f.location.symbol = id;
        // The message is the same for every TU, so that a header's note is reported once.
        f.message = "macro " + d.name + " is defined with unstable PyTorch macro " + id +
                    "; a definition alone is not a use";
        f.notes.push_back(d.name + " is not expanded in the translation unit of " + display_path(ctx.tu.main_file()) +
                          "; it matters only in a build that expands it");
        f.help = "Nothing to change for this build. If another build expands " + d.name + ", that build is not stable; ";
        if (auto m = ctx.env.replacements.find(id, "macro"); m && m->replacement)
          f.help += "its stable counterpart uses " + *m->replacement + ".";
        else
          f.help += "write it with torch::stable / torch::headeronly APIs.";
        ctx.report(std::move(f));
      }
    }
    return in_definitions;
  }

  static void report_in_definition(CheckContext& ctx, const MacroUse& u, const ProjectMacros::Reached& use) {
    const MacroDefinition& inner = *use.chain.back();
    findings::Finding f;
    f.rule = kUnstableMacroRule;
    f.location = location_of(use.torch_range);
    f.location.symbol = use.torch_macro;
    // The same for every TU that expands it, so that a header's finding is reported once.
    f.message = "macro " + inner.name + " is defined with unstable PyTorch macro " + use.torch_macro +
                ", so every expansion of " + inner.name + " uses it";
    std::string chain;
    for (const MacroDefinition* d : use.chain) chain += d->name + " -> ";
    chain += use.torch_macro;
    f.notes.push_back(u.name + " is expanded at " + display_path(u.range.file) + ":" + std::to_string(u.range.line) +
                      (use.chain.size() > 1 ? " (" + chain + ")" : ""));
    for (const MacroDefinition* d : use.chain)
      if (d != &inner)
        f.notes.push_back(d->name + " is defined at " + display_path(d->range.file) + ":" + std::to_string(d->range.line));
    auto m = ctx.env.replacements.find(use.torch_macro, "macro");
    // A #define is the project's own code: no fix-it for one in a header,
    // which may serve other translation units and builds. One in the
    // translation unit's own source file expands only here, so the edit of its
    // body is the edit of every expansion.
    std::error_code ec;
    const bool own_file = use.torch_range.file == inner.range.file &&
                          std::filesystem::weakly_canonical(inner.range.file, ec) ==
                              std::filesystem::weakly_canonical(ctx.tu.main_file(), ec);
    describe(ctx, *m, f, use.torch_range, Range{}, own_file);
    f.help += " Change it in the definition of " + inner.name + " (" + display_path(inner.range.file) + ":" +
              std::to_string(inner.range.line) + "); its expansions then follow.";
    ctx.report(std::move(f));
  }

  static void report(CheckContext& ctx, const std::string& name, const Range& range, const Range& invocation,
                     const ReplacementMatch* m, const std::string& defined_in, bool pybind_with_torch,
                     bool token_level = false) {
    findings::Finding f;
    f.rule = kUnstableMacroRule;
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
