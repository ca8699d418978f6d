// source-torch-headers-not-found: a file that includes stable PyTorch headers
// none of which were found. Every check that judges a use of PyTorch needs
// those headers, so such a file was not analysed, and a report without
// findings for it would read as "stable": it is an error, not a note
// (no green without analysis).
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/stable_headers.h"

namespace torchabi::source::checks {

namespace {

class TorchHeadersFoundCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    const ParsedTu& tu = ctx.tu;
    // Found (a missing one is then a newer release's: another rule's
    // business), or none included.
    if (!stable_headers_missing(tu)) return;
    const IncludeDirective* first_missing = nullptr;
    size_t missing = 0;
    for (const auto& inc : tu.includes()) {
      if (inc.kind != HeaderKind::Stable || !tu.is_project_file(inc.includer)) continue;
      ++missing;
      if (!first_missing) first_missing = &inc;
    }
    if (!first_missing) return;
    findings::Finding f;
    f.rule = "source-torch-headers-not-found";
    f.location = location_of(first_missing->range);
    f.location.symbol = first_missing->spelled;
    f.message = "not analysed: <" + first_missing->spelled + ">" +
                (missing > 1 ? " and the " + std::to_string(missing - 1) + " other stable PyTorch headers it includes"
                             : std::string()) +
                " were not found, so none of this file's uses of PyTorch could be checked";
    f.help = "Give torchabi the PyTorch headers the build uses: --torch-include DIR (torch's include directory, "
             "`python -c \"import torch.utils.cpp_extension as c; print(c.include_paths()[0])\"`), the build's "
             "compile_commands.json (-p BUILD_DIR), or an interpreter with torch installed (--python).";
    ctx.subject().facts.emplace_back("not analysed", "the stable PyTorch headers it includes were not found");
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_torch_headers_found_check() { return std::make_unique<TorchHeadersFoundCheck>(); }

}  // namespace torchabi::source::checks
