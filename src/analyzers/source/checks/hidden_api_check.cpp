// Compile errors whose cause is PyTorch's stable headers as this build
// configures them, not the user's code:
//  build-api-hidden-by-configuration: the name is declared by a stable
//    header, but in a branch this configuration's macros disable
//    (shim.h declares aoti_torch_get_current_cuda_stream only under
//    #ifdef USE_CUDA); the fix is a flag, not a code change.
//  build-api-not-in-headers: a stable name (torch::stable::..., a C shim)
//    that the headers in use do not declare at all: newer than them, or
//    misspelled.
// Errors a version guard caused are version-api-after-target's (it runs
// first and quotes clang's message); those are left alone here.
#include <set>

#include "analyzers/source/ast_regions.h"
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/compile_errors.h"
#include "analyzers/source/inactive_branches.h"
#include "analyzers/source/pp_condition.h"
#include "analyzers/source/rules_import.h"
#include "analyzers/source/token_scan.h"
#include "common/text.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

namespace {

using text::is_identifier_char;

// Where `name` is declared (a whole identifier followed by '(' , '=', ';' or
// '{', or after struct/class/using/enum) in [begin, end) of `text`; npos if not.
size_t declaration_of(std::string_view text, size_t begin, size_t end, std::string_view name) {
  for (size_t p = text.find(name, begin); p != std::string_view::npos && p < end; p = text.find(name, p + 1)) {
    if ((p > 0 && is_identifier_char(text[p - 1])) || (p + name.size() < text.size() && is_identifier_char(text[p + name.size()])))
      continue;
    size_t q = p + name.size();
    while (q < end && std::isspace(static_cast<unsigned char>(text[q]))) ++q;
    if (q < end && (text[q] == '(' || text[q] == '=' || text[q] == ';' || text[q] == '{')) return p;
    size_t w = p;
    while (w > begin && std::isspace(static_cast<unsigned char>(text[w - 1]))) --w;
    size_t ws = w;
    while (ws > begin && is_identifier_char(text[ws - 1])) --ws;
    const std::string_view word = text.substr(ws, w - ws);
    if (word == "struct" || word == "class" || word == "using" || word == "enum" || word == "namespace") return p;
  }
  return std::string_view::npos;
}

// The macro a `#ifdef X` / `#if defined(X)` branch needs, or "".
struct HiddenDeclaration {
  std::string header;  // include-relative torch name
  uint32_t line = 0;
  ConditionalBranch branch;
};

class HiddenApiCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    std::set<std::string> explained;  // clang messages another check already quotes
    for (const auto& f : ctx.reported())
      for (const auto& n : f.notes)
        if (auto p = n.find(kClangQuote); p != std::string::npos) explained.insert(n.substr(p + kClangQuote.size()));
    std::set<std::pair<std::string, uint32_t>> seen;
    for (const auto& d : ctx.tu.diagnostics()) {
      if (!is_error(d) || explained.count(d.message)) continue;
      const Diagnostic* at = project_site(ctx.tu, d);
      if (!at) continue;
      auto missing = read_missing_name(d.message);
      if (!missing || missing->requires_release) continue;
      const std::string bare = missing->name.substr(missing->name.rfind(':') == std::string::npos
                                                        ? 0
                                                        : missing->name.rfind(':') + 1);
      if (!seen.emplace(at->file, at->offset).second) continue;
      if (auto hidden = find_hidden(ctx, bare)) {
        report_hidden(ctx, *at, *missing, *hidden, d.message);
      } else if (is_stable_name(ctx, *missing)) {
        report_not_in_headers(ctx, *at, *missing, d.message);
      }
    }
  }

private:
  std::optional<std::vector<std::string>> stable_files_;

  // The stable headers this TU read (declarations of the stable ABI live there).
  const std::vector<std::string>& stable_files(CheckContext& ctx) {
    if (!stable_files_) {
      stable_files_.emplace();
      for (const auto& f : ctx.tu.files_read()) {
        const std::string name = ctx.tu.torch_header_name(f);
        if (!name.empty() && ctx.env.classifier.classify(name) == HeaderKind::Stable) stable_files_->push_back(f);
      }
    }
    return *stable_files_;
  }

  std::optional<HiddenDeclaration> find_hidden(CheckContext& ctx, const std::string& name) {
    for (const auto& file : stable_files(ctx)) {
      const std::string_view text = ctx.tu.file_text(file);
      if (text.find(name) == std::string_view::npos) continue;
      const OffsetRanges skipped = skipped_ranges(ctx.tu, file);
      if (skipped.empty()) continue;
      for (const auto& b : inactive_branches(text, skipped)) {
        // A version guard hides it: version-api-after-target's to explain.
        if (b.directive.find("TORCH_FEATURE_VERSION") != std::string::npos ||
            b.chain_opening.find("TORCH_FEATURE_VERSION") != std::string::npos)
          continue;
        size_t p = declaration_of(text, b.body_begin, b.body_end, name);
        if (p == std::string_view::npos) continue;
        return HiddenDeclaration{ctx.tu.torch_header_name(file), LineIndex(text).at(static_cast<uint32_t>(p)).first, b};
      }
    }
    return std::nullopt;
  }

  static bool is_stable_name(CheckContext& ctx, const MissingName& m) {
    const std::string q = m.qualified();
    if (q.starts_with("torch::stable") || q.starts_with("torch::headeronly") || m.scope.starts_with("torch::stable") ||
        m.scope.starts_with("torch::headeronly"))
      return true;
    if (inputs::ApiCatalog::looks_like_shim(m.name) && m.scope.empty()) return true;
    return ctx.env.stable_apis.find(q) != nullptr;
  }

  // The release of the stable headers this TU read, from their version header.
  std::optional<TorchVersion> headers_release(CheckContext& ctx) {
    for (const auto& f : stable_files(ctx)) {
      const std::string name = ctx.tu.torch_header_name(f);
      if (f.size() > name.size() && f.ends_with(name)) return installed_torch_version(f.substr(0, f.size() - name.size()));
    }
    return std::nullopt;
  }

  static void report_hidden(CheckContext& ctx, const Diagnostic& at, const MissingName& m, const HiddenDeclaration& h,
                            const std::string& clang) {
    findings::Finding f;
    f.rule = "build-api-hidden-by-configuration";
    f.location = location_of(range_of(at));
    f.location.symbol = m.qualified();
    const std::string macro = enabling_macro(h.branch.directive);
    const std::string cond = h.branch.describe();
    f.message = m.qualified() + " is declared by <" + h.header + "> only in " + cond +
                ", which this build configuration does not compile, so the code does not compile";
    f.notes.push_back("declared at " + h.header + ":" + std::to_string(h.line) + ", in " + cond + " (line " +
                      std::to_string(h.branch.line) + ")" + std::string(kClangQuote) + clang);
    if (!macro.empty())
      f.help = "Define " + macro + " for this extension: add -D" + macro +
               " to every compiler's flags that builds this code (g++ and nvcc; in setup.py both "
               "extra_compile_args[\"cxx\"] and [\"nvcc\"], or define_macros), on every platform.";
    else
      f.help = "Build this code in the configuration where " + cond +
               " is compiled (see the header's condition), or do without " + m.qualified() + ".";
    ctx.report(std::move(f));
  }

  void report_not_in_headers(CheckContext& ctx, const Diagnostic& at, const MissingName& m, const std::string& clang) {
    findings::Finding f;
    f.rule = "build-api-not-in-headers";
    f.location = location_of(range_of(at));
    f.location.symbol = m.qualified();
    const auto release = headers_release(ctx);
    const std::string headers = release ? "the PyTorch " + release->str() + " headers in use" : "the PyTorch headers in use";
    f.message = m.qualified() + " is not declared by " + headers + ", so the code does not compile";
    const StableApi* api = ctx.env.stable_apis.find(m.qualified());
    if (api && !api->baseline && (!release || api->since > *release)) {
      f.message += "; it was introduced in PyTorch " + api->since.str();
      f.help = "Build against PyTorch " + api->since.str() + " or newer (and set TORCH_TARGET_VERSION to " +
               api->since.hex() + "; the extension then needs PyTorch >= " + api->since.str() + "), or do without " +
               m.qualified() + ".";
    } else {
      f.help = "Check the name against torch/csrc/stable and torch/headeronly of the PyTorch you build with: it is "
               "misspelled, or comes from a newer PyTorch than those headers (build against that release, or do "
               "without it).";
    }
    f.notes.push_back("clang reported it" + std::string(kClangQuote) + clang);
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_hidden_api_check() { return std::make_unique<HiddenApiCheck>(); }

}  // namespace torchabi::source::checks
