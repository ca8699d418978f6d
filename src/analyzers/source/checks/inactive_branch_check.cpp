// source-inactive-branch: uses of unstable PyTorch headers, names and macros
// in #if/#ifdef/#elif/#else branches that the analysed configuration does not
// compile (#ifdef USE_ROCM, #ifndef __CUDA_ARCH__ in a host-side parse, a
// feature flag another build sets). Lint parses one configuration; the code of
// the others still has to be ported. Each inactive branch's text is scanned
// with the rules data of the AST checks (token_scan.h), and each use is
// reported with the directive that disabled it. Severity warning by default:
// the scan sees tokens, not declarations (configurable like any rule).
//
// A branch that some inclusion of the file did compile (a header included
// twice with different macros, or by another TU) is left to the AST checks:
// there the use has its exact finding, and lint keeps that one.
#include <algorithm>
#include <cctype>
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/inactive_branches.h"
#include "analyzers/source/pp_condition.h"
#include "analyzers/source/token_scan_context.h"
#include "analyzers/source/token_use_findings.h"

namespace torchabi::source::checks {

namespace {

const char* kInactiveBranchRule = "source-inactive-branch";

// `#ifdef X` / `#if defined(X)` / `#elif defined X`: the macro a user would
// define to compile the branch; empty when it is not that simple.
class InactiveBranchCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    std::optional<TokenScanContext> scan;
    for (const auto& file : tu.project_files()) {
      const OffsetRanges skipped = skipped_ranges(tu, file);
      if (skipped.empty()) continue;
      const std::string_view text = tu.file_text(file);
      const std::vector<ConditionalBranch> branches = inactive_branches(text, skipped);
      if (branches.empty()) continue;
      if (!scan) scan.emplace(tu, ctx.env);
      const TokenScanRules rules = scan->rules_for(file);
      const LineIndex lines(text);
      for (const auto& b : branches) {
        if (compiled_elsewhere(tu, file, b)) continue;
        for (const auto& use : scan_token_uses(text, b.body_begin, b.body_end, rules)) {
          const auto [line, column] = lines.at(use.begin);
          findings::Finding f = token_use_finding(ctx.env, use, kInactiveBranchRule, file, line, column);
          f.message = "in " + b.describe() + ", which this configuration does not compile: " + f.message;
          f.notes.push_back("found in the tokens of the inactive branch: lint parsed the configuration in which " +
                            b.directive + " (line " + std::to_string(b.line) + ") is not taken");
          if (legacy_half(b)) {
            f.severity = findings::Severity::Note;
            f.notes.push_back("the branch a build without " + std::string("TORCH_TARGET_VERSION / TORCH_STABLE_ONLY") +
                              " compiles: the file is built both ways (a stable library and a legacy one), and the "
                              "legacy build's code is legacy by design");
          } else if (const std::string m = enabling_macro(b.directive); !m.empty()) {
            f.notes.push_back("lint the other configuration too with --also-define " + m +
                              " (or add -D" + m + " to the flags) to check this code with the AST");
          }
          ctx.report(std::move(f));
        }
      }
    }
  }

private:
  // The other half of a file a project compiles both ways: a chain that tests
  // nothing but the stable-ABI switches (`#ifdef TORCH_TARGET_VERSION ...
  // #else <legacy> #endif`), in its #else or its opening branch.
  static bool legacy_half(const ConditionalBranch& b) {
    if (!b.directive.starts_with("#else") && b.directive != b.chain_opening) return false;
    static const std::set<std::string> kSwitches = {"TORCH_TARGET_VERSION", "TORCH_STABLE_ONLY"};
    static const std::set<std::string> kWords = {"if", "ifdef", "ifndef", "defined"};
    bool any = false;
    const std::string& d = b.chain_opening;
    for (size_t i = 0; i < d.size();) {
      if (!(std::isalpha(static_cast<unsigned char>(d[i])) || d[i] == '_')) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < d.size() && (std::isalnum(static_cast<unsigned char>(d[j])) || d[j] == '_')) ++j;
      const std::string word = d.substr(i, j - i);
      i = j;
      if (kWords.count(word)) continue;
      if (!kSwitches.count(word)) return false;
      any = true;
    }
    return any;
  }

  // A reference, macro expansion or #include the AST recorded inside the
  // branch means some inclusion of the file compiled it.
  static bool compiled_elsewhere(const ParsedTu& tu, const std::string& file, const ConditionalBranch& b) {
    auto inside = [&](const Range& r) { return r.file == file && r.begin >= b.body_begin && r.begin < b.body_end; };
    for (const auto& u : tu.macro_uses())
      if (inside(u.range)) return true;
    for (const auto& d : tu.includes())
      if (d.includer == file && inside(d.range)) return true;
    for (const auto& r : tu.references())
      if (inside(r.range)) return true;
    return false;
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_inactive_branch_check() { return std::make_unique<InactiveBranchCheck>(); }

}  // namespace torchabi::source::checks
