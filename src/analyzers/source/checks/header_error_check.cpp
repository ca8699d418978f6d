// build-header-error: a PyTorch header stops this build with #error. From
// 2.10 on every non-stable header (ATen, c10, torch/...) ends in
// `#error "This file should not be included when either TORCH_STABLE_ONLY or
// TORCH_TARGET_VERSION is defined."`, so a stable build that still reaches
// one, directly or through a project or third-party header, cannot compile;
// everything after it is parsed without that header's declarations, so the
// errors that follow are consequences. Reported once per header, at the
// project's #include that leads there, with the chain.
#include <set>

#include "analyzers/source/checks/checks.h"
#include "analyzers/source/compile_errors.h"

namespace torchabi::source::checks {

namespace {

// The text of `line` (1-based) of `text`, without leading blanks.
std::string_view line_text(std::string_view text, uint32_t line) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line && pos != std::string_view::npos; ++l) {
    pos = text.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos || pos >= text.size()) return {};
  size_t end = text.find('\n', pos);
  std::string_view l = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
  while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
  return l;
}

class HeaderErrorCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    std::set<std::string> seen;
    for (const auto& d : tu.diagnostics()) {
      if (!is_error(d) || d.file.empty() || tu.is_project_file(d.file)) continue;
      const std::string header = tu.torch_header_name(d.file);
      if (header.empty() || !seen.insert(d.file).second) continue;
      std::string_view directive = line_text(tu.file_text(d.file), d.line);
      if (!directive.starts_with("#")) continue;
      directive.remove_prefix(1);
      while (!directive.empty() && directive.front() == ' ') directive.remove_prefix(1);
      if (!directive.starts_with("error")) continue;
      report(ctx, d, header);
    }
  }

private:
  static void report(CheckContext& ctx, const Diagnostic& d, const std::string& header) {
    const auto chain = ctx.tu.include_chain(d.file);
    // The innermost #include written in a project file: what the user edits.
    const IncludeDirective* site = nullptr;
    for (const auto* c : chain)
      if (ctx.tu.is_project_file(c->includer)) site = c;
    findings::Finding f;
    f.rule = "build-header-error";
    if (site) {
      f.location = location_of(site->range);
    } else {
      f.location.file = ctx.tu.main_file();
    }
    f.location.symbol = header;
    f.message = "<" + header + "> stops this build with #error: \"" + unquote(d.message) + "\"";
    if (!chain.empty()) {
      std::string s;
      for (const auto* c : chain) s += (s.empty() ? "" : " -> ") + include_site(*c) + " <" + c->spelled + ">";
      f.notes.push_back("include chain: " + s);
    }
    f.notes.push_back("at " + header + ":" + std::to_string(d.line) + std::string(kClangQuote) + d.message);
    const bool stable_guard = d.message.find("TORCH_TARGET_VERSION") != std::string::npos ||
                              d.message.find("TORCH_STABLE_ONLY") != std::string::npos;
    f.help = stable_guard
                 ? "This header is not part of the stable ABI and refuses to compile when TORCH_TARGET_VERSION or "
                   "TORCH_STABLE_ONLY is set: include the stable header that replaces it (see source-unstable-include "
                   "at the same line), or move the code that needs it out of the stable extension."
                 : "Build this code in the configuration the header requires, or stop including it.";
    ctx.report(std::move(f));
  }

  static std::string unquote(std::string s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
    return s;
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_header_error_check() { return std::make_unique<HeaderErrorCheck>(); }

}  // namespace torchabi::source::checks
