// source-unstable-api: every use, in the project's code, of a declaration
// from PyTorch's unstable C++ API (at::, c10::, caffe2::, torch:: outside
// torch::stable / torch::headeronly, or anything declared in an unstable
// header), with the stable replacement from rules/api/replacements.yaml.
// Where the declaration lives decides: c10::ScalarType, defined in
// torch/headeronly, is stable (check_context / classify_reference).
// When the AST is incomplete (missing headers), qualified names such as
// `at::Tensor` are still found in the tokens.
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/project_macros.h"
#include "analyzers/source/checks/skipped_declarations.h"
#include "analyzers/source/same_method_fold.h"
#include "findings/replacement_builder.h"
#include "inputs/api_catalog.h"
#include "inputs/headeronly_index.h"

namespace torchabi::source::checks {

namespace {

const char* kUnstableApiRule = "source-unstable-api";

std::string declared_in(const Reference& r) {
  if (!r.decl_header.empty()) return r.decl_header;
  return display_path(r.decl_file);
}

// The name as the project wrote it, when the reference was spelled.
std::string written_name(CheckContext& ctx, const Reference& r) {
  if (r.via != Via::Spelled || !r.qualified_range.valid()) return {};
  std::string_view text = ctx.tu.file_text(r.qualified_range.file);
  if (r.qualified_range.end > text.size()) return {};
  return std::string(text.substr(r.qualified_range.begin, r.qualified_range.end - r.qualified_range.begin));
}

// `x.data_ptr<float>()`: the written name is followed by template arguments.
bool has_template_arguments(CheckContext& ctx, const Reference& r) {
  if (r.via != Via::Spelled || !r.qualified_range.valid()) return false;
  std::string_view text = ctx.tu.file_text(r.qualified_range.file);
  size_t i = r.qualified_range.end;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i < text.size() && text[i] == '<';
}

// help text and fix for a reference with a replacement entry.
void apply_replacement(CheckContext& ctx, const Reference& r, const ReplacementMatch& m, findings::Finding& f) {
  const Replacement& e = *m.entry;
  const std::string since = e.since ? " (PyTorch " + e.since->str() + "+)" : std::string();
  if (!m.replacement) {
    f.help = e.note.empty() ? "There is no stable replacement yet." : e.note;
    return;
  }
  const std::string where = e.header.empty() ? std::string() : " from " + e.header;
  switch (e.style) {
    case ReplacementStyle::SameMethod:
      // No fix-it: the call changes only with its receiver's type. The
      // entry's note is about the exception (template arguments), said here.
      if (has_template_arguments(ctx, r)) {
        f.notes.push_back(kTemplateArgumentsNote);
        f.help = "Call " + *m.replacement + where + since +
                 " without template arguments and convert its result, e.g. static_cast<T*>(x.data_ptr()).";
      } else {
        f.help = "Use " + *m.replacement + where + since +
                 ": the call is written the same way once the receiver is a torch::stable::Tensor.";
      }
      return;
    case ReplacementStyle::MethodToFunction:
      f.help = "Call " + *m.replacement + "(tensor, ...)" + where + since + " instead of the method.";
      break;
    default:
      f.help = "Use " + *m.replacement + where + since + ".";
  }
  if (!e.note.empty()) f.help += " " + e.note;
  if (e.fix == ReplacementFix::No || r.via != Via::Spelled) return;
  const bool safe = e.fix == ReplacementFix::Safe;
  if (e.style == ReplacementStyle::Rename && r.qualified_range.valid()) {
    std::string_view text = ctx.tu.file_text(r.qualified_range.file);
    std::string written(text.substr(r.qualified_range.begin, r.qualified_range.end - r.qualified_range.begin));
    f.fix = make_fix(r.qualified_range, *m.replacement, safe, "replace `" + written + "` with `" + *m.replacement + "`");
  } else if (e.style == ReplacementStyle::MethodToFunction && r.call_range.valid() && r.receiver_range.valid()) {
    std::string_view text = ctx.tu.file_text(r.call_range.file);
    auto slice = [&](const Range& x) { return std::string(text.substr(x.begin, x.end - x.begin)); };
    bool same_file = r.receiver_range.file == r.call_range.file && r.receiver_range.end <= r.call_range.end;
    for (const auto& a : r.argument_ranges) same_file = same_file && a.file == r.call_range.file && a.end <= r.call_range.end;
    if (!same_file || r.call_range.end > text.size()) return;
    // The receiver and arguments are copies, so rewrites inside them compose.
    findings::ReplacementBuilder call(text);
    call.text(*m.replacement).text("(").copy(r.receiver_range.begin, r.receiver_range.end);
    for (const auto& a : r.argument_ranges) call.text(", ").copy(a.begin, a.end);
    call.text(")");
    if (!call.ok()) return;
    f.fix = call.fix(r.call_range.file, r.call_range.begin, r.call_range.end, safe,
                     "rewrite `" + slice(r.call_range) + "` as `" + call.str() + "`");
  }
}

class ReferenceCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    std::set<std::tuple<std::string, uint32_t, std::string>> seen;
    std::set<std::string> macros_with_torch_body = project_macros_using_torch_macros(ctx);
    std::vector<const Reference*> unstable;
    for (const auto& [ref, cls] : ctx.classified_references())
      if (cls == ApiClass::Unstable) unstable.push_back(ref);
    for (const Reference* ref : unstable) {
      const Reference& r = *ref;
      if (r.via == Via::Spelled && is_qualifier_of_another(r, unstable)) continue;
      if (r.via == Via::MacroBody && r.spelled.valid()) {
        // Written in the #define of a macro of this file, which expands only
        // here: a use at the #define, reported once for all expansions, with
        // the fix-it of a name written there.
        Reference at = r;
        at.via = Via::Spelled;
        at.range = at.qualified_range = r.spelled;
        at.range.begin = r.spelled.end - static_cast<uint32_t>(r.name.size());
        at.call_range = at.receiver_range = Range{};
        at.argument_ranges.clear();
        at.argument_types.clear();
        if (!seen.emplace(at.range.file, at.range.begin, at.qualified).second) continue;
        findings::Finding f = finding_for(ctx, at);
        f.notes.push_back("written in the definition of a macro of this file, expanded through " + r.macro + " at line " +
                          std::to_string(r.range.line));
        ctx.report(std::move(f));
        continue;
      }
      if (r.via == Via::MacroBody) {
        // Torch's own macros are reported by source-unstable-macro, and so
        // are the expansions of a project macro built on one of them.
        if (!ctx.tu.is_project_file(macro_definition_file(ctx, r))) continue;
        if (macros_with_torch_body.count(r.macro)) continue;
      }
      if (!seen.emplace(r.range.file, r.range.begin, r.qualified).second) continue;
      ctx.report(finding_for(ctx, r));
    }
    if (!ctx.tu.ast_complete()) token_level(ctx);
  }

private:
  // `c10::ScalarType` in `c10::ScalarType::Float` is reported as part of the
  // enumerator, whose fix rewrites the whole qualified name.
  static bool is_qualifier_of_another(const Reference& r, const std::vector<const Reference*>& all) {
    for (const Reference* o : all) {
      if (o == &r || o->via != Via::Spelled || o->qualified_range.file != r.range.file) continue;
      if (o->range.begin != r.range.begin && r.range.begin >= o->qualified_range.begin && r.range.end <= o->range.begin)
        return true;
    }
    return false;
  }

  static std::string macro_definition_file(CheckContext& ctx, const Reference& r) {
    for (const auto& u : ctx.tu.macro_uses())
      if (u.range.file == r.range.file && u.range.begin == r.range.begin) return u.def_file;
    return {};
  }

  // Project macros that reach a torch macro, directly or through other
  // project macros: source-unstable-macro reports their expansions.
  static std::set<std::string> project_macros_using_torch_macros(CheckContext& ctx) {
    std::set<std::string> out;
    ProjectMacros macros(ctx);
    for (const auto& d : ctx.tu.macro_definitions()) {
      std::set<const MacroDefinition*> walked;
      if (!macros.torch_macros_reached(d, walked).empty()) out.insert(d.name);
    }
    return out;
  }

  static findings::Finding finding_for(CheckContext& ctx, const Reference& r) {
    findings::Finding f;
    f.rule = kUnstableApiRule;
    f.location = location_of(r.via == Via::Spelled ? r.qualified_range : r.range);
    f.location.symbol = r.qualified;
    std::string what = std::string(to_string(r.kind)) + " " + r.qualified;
    // `torch::Tensor` and `Tensor` (after `using namespace at`) resolve to
    // at::Tensor: name both, so the user finds what they wrote.
    const std::string written = written_name(ctx, r);
    if (!written.empty() && written != r.qualified && !r.qualified.ends_with("::" + written))
      what += " (written " + written + ")";
    switch (r.via) {
      case Via::Spelled:
        f.message = "uses unstable PyTorch API: " + what;
        break;
      case Via::MacroBody:
        f.message = "macro " + r.macro + " expands to unstable PyTorch API: " + what;
        break;
      case Via::DeducedType:
        f.message = "variable '" + r.variable + "' has the deduced type " + r.qualified + ", unstable PyTorch API";
        break;
      case Via::UsingDirective:
        f.message = "brings unstable PyTorch namespace " + r.qualified + " into scope";
        break;
    }
    f.notes.push_back("declared in " + declared_in(r) + ":" + std::to_string(r.decl_line));
    if (auto m = ctx.env.replacements.find(r.qualified)) {
      apply_replacement(ctx, r, *m, f);
      if (r.via == Via::DeducedType && m->replacement)
        f.help = "Nothing to rewrite here: '" + r.variable + "' becomes " + *m->replacement +
                 " once the expression it is initialized from returns one; fix that expression.";
    } else if (r.via == Via::UsingDirective) {
      f.help = "Remove the using-directive and name stable APIs explicitly (torch::stable::, torch::headeronly::).";
    } else {
      f.help = "No stable replacement is known for " + r.qualified +
               "; use the torch::stable API (torch/csrc/stable/) or the C shim (aoti_torch_*, torch_*), or call the "
               "operator through torch_call_dispatcher.";
    }
    return f;
  }

  SkippedDeclarations skipped_;

  // Qualified names in the tokens that the (partial) AST did not resolve.
  void token_level(CheckContext& ctx) {
    for (const auto& file : ctx.tu.project_files()) {
      const auto& toks = ctx.tokens(file);
      for (size_t i = 0; i + 2 < toks.size(); ++i) {
        const Token& t = toks[i];
        const bool using_ns = t.kind == Token::Kind::Keyword && t.text == "using" && toks[i + 1].text == "namespace";
        size_t start = using_ns ? i + 2 : i;
        if (start >= toks.size() || toks[start].kind != Token::Kind::Identifier) continue;
        if (start > 0 && toks[start - 1].text == "::") continue;  // the middle of a longer name
        std::string name = toks[start].text;
        size_t j = start + 1;
        while (j + 1 < toks.size() && toks[j].text == "::" && toks[j + 1].kind == Token::Kind::Identifier) {
          name += "::" + toks[j + 1].text;
          j += 2;
        }
        if (!using_ns && j == start + 1) continue;  // not qualified
        auto ns = ctx.env.catalog->classify(using_ns ? name + "::x" : name);
        if (ns.kind != inputs::NamespaceKind::Unstable) continue;
        // c10::ScalarType, c10::Half: torch/headeronly defines them, although
        // their namespace is c10 (rules/api/headeronly_cxx.tsv). From tokens an
        // overload cannot be told apart, so such a name is not reported.
        if (!using_ns && inputs::HeaderOnlyIndex::current().defines_name(name)) continue;
        // Nor is a name a stable header declares in a branch this
        // configuration skips (Half.h's aarch64-only c10::detail helpers):
        // stable, only not compiled here (build-api-hidden-by-configuration).
        if (!using_ns && j > start + 1 &&
            skipped_.find(ctx, name.substr(0, name.rfind("::")), toks[j - 1].text, /*version_guards=*/true))
          continue;
        if (ctx.covered_by_reference(file, toks[start].range.begin)) continue;
        findings::Finding f;
        f.rule = kUnstableApiRule;
        Range r = toks[start].range;
        r.end = toks[j - 1].range.end;
        f.location = location_of(r);
        f.location.symbol = name;
        f.message = using_ns ? "brings unstable PyTorch namespace " + name + " into scope"
                             : "uses unstable PyTorch API: " + name;
        f.notes.push_back("found in the tokens: the declaration could not be resolved because the AST is incomplete");
        if (auto m = ctx.env.replacements.find(name); m && m->replacement) {
          f.help = "Use " + *m->replacement + (m->entry->header.empty() ? "" : " from " + m->entry->header) + ".";
        } else {
          f.help = "Use the torch::stable API (torch/csrc/stable/) or the header-only torch::headeronly API instead.";
        }
        ctx.report(std::move(f));
        i = j - 1;
      }
    }
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_reference_check() { return std::make_unique<ReferenceCheck>(); }

}  // namespace torchabi::source::checks
