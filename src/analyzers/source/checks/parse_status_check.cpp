// source-parse-incomplete: clang could not build the whole AST (a header is
// missing, flags are wrong). Include, macro and token-level findings are
// still complete; AST-level ones (resolved references, deduced types,
// hand-written shim declarations) may miss uses, and the note says so.
#include <set>
#include <string_view>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/compile_errors.h"

namespace torchabi::source::checks {

namespace {

class ParseStatusCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    // An error another check explained by its cause (a version guard, a
    // configuration macro, a #error; it quotes clang's message) does not make
    // the AST incomplete in a way worth a second finding.
    std::set<std::string> translated;
    for (const auto& f : ctx.reported()) {
      for (const auto& n : f.notes)
        if (auto p = n.find(kClangQuote); p != std::string::npos) translated.insert(n.substr(p + kClangQuote.size()));
    }
    size_t errors = tu.error_count();
    const Diagnostic* first = nullptr;
    for (const auto& d : tu.diagnostics()) {
      if (d.severity < Diagnostic::Severity::Error) continue;
      if (translated.count(d.message)) {
        if (errors > 0) --errors;
        continue;
      }
      if (!first) first = &d;
    }
    // Which CUDA installation a CUDA file was parsed with (or why none): a fact of the TU.
    if (!tu.args().cuda.empty()) ctx.subject().facts.emplace_back("CUDA", tu.args().cuda);
    if (errors == 0 && !tu.used_minimal_args() && !tu.args().cuda_without_sdk) return;
    findings::Finding f;
    f.rule = "source-parse-incomplete";
    f.location.file = tu.main_file();
    if (first && tu.is_project_file(first->file)) {
      f.location.file = first->file;
      f.location.line = first->line;
      f.location.column = first->column;
    }
    if (errors > 0) {
      f.message = "AST-level checks were limited: clang reported " + std::to_string(errors) + " error" +
                  (errors == 1 ? "" : "s") + " in this translation unit";
      if (first)
        f.notes.push_back("first error: " + (first->file.empty() ? std::string() : display_path(first->file) + ":" +
                                                                                      std::to_string(first->line) + ": ") +
                          first->message);
    } else {
      f.message = "AST-level checks may be limited: the translation unit was parsed with reduced flags";
    }
    if (!tu.ignored_flags().empty()) {
      std::string flags;
      for (const auto& x : tu.ignored_flags()) flags += (flags.empty() ? "" : " ") + x;
      f.notes.push_back("clang ignored flags it does not know: " + flags);
    }
    if (tu.used_minimal_args())
      f.notes.push_back("clang rejected the full compile flags; only include paths, macros and the language standard were used");
    if (tu.args().cuda_without_sdk)
      f.notes.push_back(tu.args().cuda + ": CUDA code was parsed without CUDA's headers (install the CUDA toolkit, or "
                        "give its directory with --cuda-path=DIR after -- or in CUDA_HOME)");
    f.help = "Include, macro and token-level findings are complete. For the rest, lint with the extension's real "
             "compile flags (-p BUILD_DIR with compile_commands.json) so that every header is found.";
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_parse_status_check() { return std::make_unique<ParseStatusCheck>(); }

}  // namespace torchabi::source::checks
