// Compile errors whose cause is PyTorch's stable headers as this build
// configures them, not the user's code:
//  build-api-hidden-by-configuration: the name is declared by a stable
//    header, but in a branch this configuration's macros disable
//    (shim.h declares aoti_torch_get_current_cuda_stream only under
//    #ifdef USE_CUDA); the fix is a flag, not a code change.
//  build-api-header-not-included: a stable name that a header of these
//    PyTorch headers declares, but this TU does not include that header
//    (directly, or because the project header that would have was not found);
//    the fix is an #include, not a newer PyTorch.
//  build-api-not-in-headers: a stable name (torch::stable::..., a C shim)
//    that the headers in use do not declare at all: newer than them, or
//    misspelled.
// A name blames PyTorch only when a PyTorch header declares it: the skipped
// ranges are matched against declarations (comments and strings blanked, the
// enclosing namespaces compared with the name's scope), never against words.
// Errors a version guard caused are version-api-after-target's (it runs
// first and quotes clang's message); those are left alone here.
#include <filesystem>
#include <map>
#include <set>

#include "analyzers/source/ast_regions.h"
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/skipped_declarations.h"
#include "analyzers/source/checks/stable_headers.h"
#include "analyzers/source/compile_errors.h"
#include "analyzers/source/inactive_branches.h"
#include "analyzers/source/pp_condition.h"
#include "analyzers/source/rules_import.h"
#include "analyzers/source/token_scan.h"
#include "common/text.h"
#include "findings/note_prefixes.h"
#include "inputs/api_catalog.h"

namespace torchabi::source::checks {

namespace {

class HiddenApiCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    std::set<std::string> explained;  // clang messages another check already quotes
    for (const auto& f : ctx.reported())
      for (const auto& n : f.notes)
        if (auto p = n.find(kClangQuote); p != std::string::npos) explained.insert(n.substr(p + kClangQuote.size()));
    std::set<std::pair<std::string, uint32_t>> seen;
    const bool headers_missing = stable_headers_missing(ctx.tu);
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
      if (auto hidden = find_hidden(ctx, *missing, bare)) {
        report_hidden(ctx, *at, *missing, *hidden, d.message);
      } else if (!is_stable_name(ctx, *missing) || headers_missing) {
        continue;
      } else if (auto declared = declaring_header(ctx, *missing, bare); declared && !read_by_tu(ctx, declared->path)) {
        report_not_included(ctx, *at, *missing, *declared, d.message);
      } else {
        report_not_in_headers(ctx, *at, *missing, d.message);
      }
    }
  }

private:
  SkippedDeclarations skipped_;

  const std::vector<std::string>& stable_files(CheckContext& ctx) { return skipped_.stable_files(ctx); }

  // A version guard hides it: version-api-after-target's to explain.
  std::optional<HiddenDeclaration> find_hidden(CheckContext& ctx, const MissingName& m, const std::string& name) {
    return skipped_.find(ctx, m.scope, name, /*version_guards=*/false);
  }

  // The PyTorch header of this release that declares `m` (from the rules'
  // header of the API, checked against that header's text), when there is one.
  struct DeclaringHeader {
    std::string header;  // include-relative
    std::string path;
  };
  std::optional<DeclaringHeader> declaring_header(CheckContext& ctx, const MissingName& m, const std::string& bare) {
    std::string header;
    bool macro = false;
    if (const StableApi* api = ctx.env.stable_apis.find(m.qualified())) {
      header = api->header;
      macro = api->kind == "macro";
    } else if (ctx.env.catalog && m.scope.empty()) {
      if (const auto* fn = ctx.env.catalog->find_c(m.name)) header = fn->header;
    }
    if (header.empty() || header == "-") return std::nullopt;
    for (const auto& root : torch_roots(ctx)) {
      const std::string path = root + header;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) continue;
      const std::string code = code_only(text::read_file_or_empty(path));
      const bool declared = macro ? code.find("#define " + bare) != std::string::npos ||
                                        code.find("# define " + bare) != std::string::npos
                                  : declaration_of(code, 0, code.size(), bare) != std::string_view::npos;
      if (declared) return DeclaringHeader{header, path};
    }
    return std::nullopt;
  }

  // The directories the stable headers this TU read are included from.
  std::vector<std::string> torch_roots(CheckContext& ctx) {
    std::set<std::string> roots;
    for (const auto& f : stable_files(ctx)) {
      const std::string name = ctx.tu.torch_header_name(f);
      if (!name.empty() && f.size() > name.size() && f.ends_with(name)) roots.insert(f.substr(0, f.size() - name.size()));
    }
    return {roots.begin(), roots.end()};
  }

  // Project headers this TU includes that were not found: what may have
  // brought the declaring header in.
  static std::vector<std::string> missing_project_headers(CheckContext& ctx) {
    std::vector<std::string> out;
    for (const auto& inc : ctx.tu.includes())
      if (inc.resolved.empty() && inc.header_name.empty() && !inc.spelled.starts_with("torch/") &&
          !inc.spelled.starts_with("ATen/") && !inc.spelled.starts_with("c10/") && ctx.tu.is_project_file(inc.includer))
        out.push_back(inc.spelled);
    return out;
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
    // A use in a project header: name the source that compiled it, so that
    // project mode can blame the configuration (build-define-missing).
    if (f.location.file != ctx.tu.main_file())
      f.notes.push_back(std::string(findings::kCompiledFrom) + display_path(ctx.tu.main_file()));
    // A file written for another toolchain (it includes <hip/hip_runtime.h>,
    // absent here) is not compiled by this configuration as it stands: the
    // configuration it is meant for (ROCm) defines other macros, so the
    // verdict is a note until it is linted with that toolchain's headers.
    if (const std::string foreign = foreign_toolchain_header(ctx); !foreign.empty()) {
      f.severity = findings::Severity::Note;
      f.notes.push_back("the file includes <" + foreign + ">, which is not on this include path: it is written for "
                        "another toolchain, so this configuration's macros may not be the ones its build defines; "
                        "lint it with that toolchain's headers");
    }
    if (!macro.empty())
      f.help = "Define " + macro + " for this extension: add -D" + macro +
               " to every compiler's flags that builds this code (g++ and nvcc; in setup.py both "
               "extra_compile_args[\"cxx\"] and [\"nvcc\"], or define_macros), on every platform.";
    else
      f.help = "Build this code in the configuration where " + cond +
               " is compiled (see the header's condition), or do without " + m.qualified() + ".";
    ctx.report(std::move(f));
  }

  // The first HIP or SYCL header a project file includes that was not found.
  static std::string foreign_toolchain_header(CheckContext& ctx) {
    for (const auto& inc : ctx.tu.includes())
      if (inc.resolved.empty() && ctx.tu.is_project_file(inc.includer) &&
          (inc.spelled.starts_with("hip/") || inc.spelled.starts_with("sycl/") || inc.spelled.starts_with("CL/sycl")))
        return inc.spelled;
    return {};
  }

  static bool read_by_tu(CheckContext& ctx, const std::string& path) {
    std::error_code ec;
    const auto canonical = std::filesystem::weakly_canonical(path, ec);
    for (const auto& f : ctx.tu.files_read()) {
      if (f == path) return true;
      std::error_code e2;
      if (!ec && std::filesystem::weakly_canonical(f, e2) == canonical) return true;
    }
    return false;
  }

  void report_not_included(CheckContext& ctx, const Diagnostic& at, const MissingName& m, const DeclaringHeader& h,
                           const std::string& clang) {
    findings::Finding f;
    f.rule = "build-api-header-not-included";
    f.location = location_of(range_of(at));
    f.location.symbol = m.qualified();
    const auto release = headers_release(ctx);
    const std::string headers = release ? "the PyTorch " + release->str() + " headers" : "the PyTorch headers in use";
    const std::vector<std::string> missing = missing_project_headers(ctx);
    f.message = m.qualified() + " is declared by <" + h.header + "> of " + headers + ", which this translation unit " +
                "does not include";
    if (missing.empty()) {
      f.message += ", so the code does not compile";
      f.help = "Add #include <" + h.header + "> (include what you use; the header is part of the stable ABI).";
    } else {
      // Perhaps the project header that was not found includes it: a
      // missing include path, not a defect of this file.
      f.severity = findings::Severity::Note;
      f.message += "; it may come through " + text::join(missing, ", ") + ", which " +
                   (missing.size() == 1 ? "was" : "were") + " not found";
      f.help = "Give the include path of " + missing.front() + " (-I, or lint with the build's compile database); "
               "if it does not include <" + h.header + ">, add #include <" + h.header + ">.";
    }
    f.notes.push_back("declared at " + h.path + std::string(kClangQuote) + clang);
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
