// build-api-not-in-headers, for macros: a stable macro (STD_CUDA_CHECK,
// STABLE_TORCH_LIBRARY_FRAGMENT, ... : rules/api/*.tsv rows of kind macro)
// that the headers in use do not define, so that clang stops on its use. The
// macro is not expanded there, so clang's error reads as anything but a
// missing macro ("use of undeclared identifier", "a type specifier is
// required", "expected ';'"...): the finding names the macro and the release
// that added it, as for a stable function these headers lack.
//
// Only a name where clang reported an error, in active code, outside
// preprocessor directives, that is not the project's own macro and that the
// TU never expanded (it would be, were it defined): not a guess. Errors
// another check explained (version-api-after-target, which quotes clang's
// "undeclared identifier") are left to it; a macro newer than the target that
// headers have behind their version guard is reported under that rule.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analyzers/source/ast_regions.h"
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/stable_headers.h"
#include "analyzers/source/checks/project_macros.h"
#include "analyzers/source/compile_errors.h"
#include "analyzers/source/rules_import.h"
#include "analyzers/source/target_setting.h"

namespace torchabi::source::checks {

namespace {

class MacroNotInHeadersCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    if (ctx.tu.ast_complete() || stable_headers_missing(ctx.tu)) return;
    std::set<std::string> explained;  // clang messages another check already quotes
    for (const auto& f : ctx.reported()) {
      for (const auto& n : f.notes)
        if (auto p = n.find(kClangQuote); p != std::string::npos) explained.insert(n.substr(p + kClangQuote.size()));
    }
    std::set<std::string> expanded_names;
    std::set<std::pair<std::string, uint32_t>> expanded_at;
    for (const auto& u : ctx.tu.macro_uses()) {
      expanded_names.insert(u.name);
      expanded_at.emplace(u.range.file, u.range.begin);
    }
    std::optional<ProjectMacros> project;
    std::set<std::pair<std::string, uint32_t>> seen;
    for (const auto& d : ctx.tu.diagnostics()) {
      if (!is_error(d) || explained.count(d.message)) continue;
      const Diagnostic* at = project_site(ctx.tu, d);
      if (!at) continue;
      // The stable macro named on the error's line, first from the error's column.
      const Token* name = nullptr;
      const StableApi* api = nullptr;
      for (const auto& t : tokens_of(ctx, at->file)) {
        if (t.range.line != at->line || t.kind != Token::Kind::Identifier) continue;
        const StableApi* a = ctx.env.stable_apis.find(t.text);
        if (!a || a->kind != "macro" || expanded_names.count(t.text) || expanded_at.count({t.range.file, t.range.begin}))
          continue;
        if (in_spans(directives_of(ctx, at->file), t.range.begin) || in_spans(skipped_of(ctx, at->file), t.range.begin))
          continue;
        if (!project) project.emplace(ctx);
        if (project->is_project_macro(t.text)) continue;
        if (!name || t.range.begin == at->offset) {
          name = &t;
          api = a;
        }
      }
      if (!name || !seen.emplace(name->range.file, name->range.begin).second) continue;
      report(ctx, *name, *api, d.message);
    }
  }

private:
  std::map<std::string, std::vector<Token>> tokens_;
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> directives_, skipped_;
  std::optional<std::optional<TorchVersion>> release_;

  const std::vector<Token>& tokens_of(CheckContext& ctx, const std::string& file) {
    auto it = tokens_.find(file);
    if (it == tokens_.end()) it = tokens_.emplace(file, ctx.tokens(file)).first;
    return it->second;
  }
  const std::vector<std::pair<uint32_t, uint32_t>>& directives_of(CheckContext& ctx, const std::string& file) {
    auto it = directives_.find(file);
    if (it == directives_.end()) it = directives_.emplace(file, directive_spans(ctx.tu.file_text(file))).first;
    return it->second;
  }
  const std::vector<std::pair<uint32_t, uint32_t>>& skipped_of(CheckContext& ctx, const std::string& file) {
    auto it = skipped_.find(file);
    if (it == skipped_.end()) {
      OffsetRanges r = skipped_ranges(ctx.tu, file);
      std::sort(r.begin(), r.end());
      it = skipped_.emplace(file, std::move(r)).first;
    }
    return it->second;
  }

  // The release of the torch headers this TU read, from their version header.
  const std::optional<TorchVersion>& headers_release(CheckContext& ctx) {
    if (!release_) {
      release_.emplace();
      for (const auto& f : ctx.tu.files_read()) {
        const std::string name = ctx.tu.torch_header_name(f);
        if (name.empty() || !f.ends_with(name) || f.size() == name.size()) continue;
        if (auto v = installed_torch_version(f.substr(0, f.size() - name.size()))) {
          *release_ = v;
          break;
        }
      }
    }
    return *release_;
  }

  void report(CheckContext& ctx, const Token& t, const StableApi& api, const std::string& clang) {
    const auto& release = headers_release(ctx);
    // Headers that have it, behind a TORCH_FEATURE_VERSION guard the target closes.
    const auto target = read_target_setting(ctx.tu, ctx.env);
    if (target && target->version && api.since > *target->version && (!release || *release >= api.since)) {
      findings::Finding f;
      f.rule = "version-api-after-target";
      f.location = location_of(t.range);
      f.location.symbol = t.text;
      f.message = t.text + " was introduced in PyTorch " + api.since.str() + ", but TORCH_TARGET_VERSION is " + target->text();
      f.help = "Raise TORCH_TARGET_VERSION to " + api.since.hex() + " (" + api.since.str() +
               "; the extension then needs PyTorch >= " + api.since.str() + ") or do without " + t.text + ".";
      f.notes.push_back("TORCH_TARGET_VERSION from " + target->origin);
      f.notes.push_back("the stable headers define the macro only from " + api.since.str() + std::string(kClangQuote) + clang);
      ctx.report(std::move(f));
      return;
    }
    findings::Finding f;
    f.rule = "build-api-not-in-headers";
    f.location = location_of(t.range);
    f.location.symbol = t.text;
    const std::string headers = release ? "the PyTorch " + release->str() + " headers in use" : "the PyTorch headers in use";
    f.message = "macro " + t.text + " is not defined by " + headers + ", so the code does not compile";
    if (release ? api.since > *release : !api.baseline) {
      f.message += api.baseline ? "; PyTorch's stable headers define it from " + api.since_label()
                                : "; it was introduced in PyTorch " + api.since.str();
      f.help = "Build against PyTorch " + api.since.str() + " or newer (and set TORCH_TARGET_VERSION to " +
               api.since.hex() + "; the extension then needs PyTorch >= " + api.since.str() + "), or do without " +
               t.text + ".";
    } else {
      f.help = "Check that <" + api.header + "> is included and that the PyTorch headers in use are whole: " + t.text +
               " is defined there from PyTorch " + api.since_label() + ".";
    }
    if (api.header != "-") f.notes.push_back(t.text + " is defined in <" + api.header + "> (PyTorch " + api.since_label() + ")");
    f.notes.push_back("clang reported an error on its line" + std::string(kClangQuote) + clang);
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_macro_not_in_headers_check() { return std::make_unique<MacroNotInHeadersCheck>(); }

}  // namespace torchabi::source::checks
