// source-unstable-api (and -include/-macro) in code the AST walk cannot
// resolve: templates and declarations clang marked invalid.
//
// clang resolves a use through a dependent type (`W.new_empty(...)` where the
// call depends on a template parameter, `c10::irange(p.n)` with p of a
// template type) only when the template is instantiated, and lint sees the
// template, not its instantiations; a .cuh file's templates may never be
// instantiated in the TU at all. A declaration whose type comes from a
// missing third-party header (cutlass/cutlass.h) is invalid and may have no
// usable body. In both, the tokens are scanned (token_scan.h) for names
// written with a torch qualifier, member uses on variables declared with a
// torch type, and types in signatures. What the AST resolved (to anything)
// is left to the AST checks, so a use is reported once, whatever the number
// of instantiations.
#include <cctype>
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/token_scan_context.h"
#include "analyzers/source/token_use_findings.h"

namespace torchabi::source::checks {

namespace {

class TemplateUseCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    TokenScanContext scan(tu, ctx.env);
    const AstRegions& regions = scan.regions();
    std::set<std::tuple<std::string, uint32_t, uint32_t>> reported;
    for (const auto& f : ctx.reported()) reported.emplace(f.location.file, f.location.line, f.location.column);

    for (const auto& file : tu.project_files()) {
      const std::string_view text = tu.file_text(file);
      OffsetRanges ranges;
      if (auto it = regions.templates.find(file); it != regions.templates.end()) ranges = it->second;
      OffsetRanges unresolved;
      if (auto it = regions.invalid.find(file); it != regions.invalid.end()) unresolved = it->second;
      if (!tu.ast_complete()) {
        const OffsetRanges dropped = regions.undeclared(file, static_cast<uint32_t>(text.size()));
        unresolved.insert(unresolved.end(), dropped.begin(), dropped.end());
      }
      ranges.insert(ranges.end(), unresolved.begin(), unresolved.end());
      if (ranges.empty()) continue;
      ranges = outermost(std::move(ranges));
      const OffsetRanges skipped = skipped_ranges(tu, file);
      TokenScanRules rules = scan.rules_for(file);
      // Inside a template the preprocessor ran as anywhere else: macros and
      // includes are the macro and include checks' (and inactive branches the
      // inactive-branch check's).
      rules.includes = false;
      rules.macros = false;
      rules.unqualified = false;
      const LineIndex lines(text);
      for (const auto& [begin, end] : ranges) {
        for (const auto& use : scan_token_uses(text, begin, end, rules)) {
          if (in_ranges(skipped, use.begin)) continue;
          if (covered(tu, regions, file, use)) continue;
          const auto [line, column] = lines.at(use.begin);
          if (!reported.emplace(file, line, column).second) continue;
          findings::Finding f = token_use_finding(ctx.env, use, "source-unstable-api", file, line, column);
          const bool in_template = !in_ranges(unresolved, use.begin);
          f.notes.push_back(in_template
                                ? "found in the tokens of a template: clang resolves uses through dependent types only "
                                  "in instantiations"
                                : "found in the tokens of a declaration clang could not resolve (a missing header: see "
                                  "source-parse-incomplete); the rest of the file was analysed with the AST");
          ctx.report(std::move(f));
        }
      }
    }
  }

private:
  static bool in_ranges(const OffsetRanges& ranges, uint32_t offset) {
    for (const auto& [b, e] : ranges)
      if (offset >= b && offset < e) return true;
    return false;
  }

  // The AST resolved a name inside the use (to a torch declaration: the
  // reference checks report it; to another one: it is not PyTorch's).
  // Only the name itself counts: in `at::cuda::getCurrentCUDAStream()` the
  // namespaces may resolve while the function does not.
  static bool covered(const ParsedTu& tu, const AstRegions& regions, const std::string& file, const TokenUse& use) {
    const std::string_view text = tu.file_text(file);
    uint32_t last = use.end;
    while (last > use.begin && (std::isalnum(static_cast<unsigned char>(text[last - 1])) || text[last - 1] == '_')) --last;
    if (regions.resolved_in(file, last, use.end)) return true;
    for (const auto& r : tu.references())
      if (r.range.file == file && r.range.begin >= last && r.range.begin < use.end) return true;
    return false;
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_template_use_check() { return std::make_unique<TemplateUseCheck>(); }

}  // namespace torchabi::source::checks
