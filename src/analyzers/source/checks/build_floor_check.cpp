// build-target-version-missing: a stable translation unit compiled without
// TORCH_TARGET_VERSION. The stable headers then compile for the release they
// come from (TORCH_FEATURE_VERSION = their own version), and their inline
// code calls that release's newest shims (torch_exception_get_what and
// torch_new_stable_ivalue from 2.13 in 2.14's headers), so the built library
// needs the torch it was built with, whatever its own code needs. The floor
// the build will have is predicted from the shims the compiled code imports
// (build_imports.h); the finding names it, the floor the code needs (the
// lowest TORCH_TARGET_VERSION, from target_version_check) and the flag.
// A warning; an error when the project states that it supports an older
// torch than the build's floor ([tool.torchabi] target-version, pyproject's
// torch requirement).
//
// Every stable TU also gets the prediction as facts, target or not: what
// `audit` will read from the built library.
#include <algorithm>

#include "analyzers/source/build_imports.h"
#include "analyzers/source/checks/checks.h"
#include "analyzers/source/checks/stable_headers.h"
#include "analyzers/source/target_setting.h"

namespace torchabi::source::checks {

namespace {

// Compiled against the stable headers only: a TU that includes ATen or c10
// is a legacy extension, whose floor is the release it is built with anyway.
bool is_stable_tu(const ParsedTu& tu) {
  bool stable = false;
  for (const auto& d : tu.includes()) {
    if (d.kind == HeaderKind::Unstable) return false;
    if (d.kind == HeaderKind::Stable) stable = true;
  }
  for (const auto& m : tu.args().macros)
    if (m.name == "TORCH_STABLE_ONLY" && !m.undef) stable = true;
  return stable;
}

// The first #include of a stable header in the main file: where the build's
// flags meet the stable headers.
findings::Location anchor(const ParsedTu& tu) {
  for (const auto& d : tu.includes())
    if (d.includer == tu.main_file() && d.kind == HeaderKind::Stable) return location_of(d.range);
  findings::Location l;
  l.file = tu.main_file();
  return l;
}

std::string list(const std::vector<const ShimImport*>& v, size_t most) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < most; ++i) s += (i ? ", " : "") + v[i]->name;
  if (v.size() > most) s += " and " + std::to_string(v.size() - most) + " more";
  return s;
}

class BuildFloorCheck final : public TuCheck {
public:
  void run(CheckContext& ctx) override {
    if (!is_stable_tu(ctx.tu)) return;
    // Not analysed (source-torch-headers-not-found says so): no imports to predict.
    if (stable_headers_missing(ctx.tu)) return;
    const std::vector<ShimImport> imports = predict_shim_imports(ctx.tu, ctx.env);
    const TorchVersion baseline = ctx.env.stable_apis.baseline();
    TorchVersion floor = baseline;
    for (const auto& i : imports)
      if (!i.baseline && i.since > floor) floor = i.since;
    std::vector<const ShimImport*> newest;
    for (const auto& i : imports)
      if (!i.baseline && i.since == floor) newest.push_back(&i);
    findings::Subject& s = ctx.subject();
    std::string names;
    for (const auto& i : imports) names += (names.empty() ? "" : ", ") + i.name;
    s.facts.emplace_back("build imports", std::to_string(imports.size()) + " stable C function" +
                                              (imports.size() == 1 ? "" : "s") + " (predicted)" +
                                              (names.empty() ? "" : ": " + names));
    s.facts.emplace_back("build floor", newest.empty() ? "PyTorch " + baseline.str() + " or earlier"
                                                       : "PyTorch " + floor.str() + " (" + list(newest, 4) + ")");

    const auto target = read_target_setting(ctx.tu, ctx.env);
    if (target) return;
    // A file that imports no shim (header-only C++ alone) loads on every
    // release: there is no target to ask for. An incomplete AST may hide
    // the calls that import, so it is still asked.
    if (imports.empty() && ctx.tu.ast_complete()) return;
    const TorchVersion code_floor = s.floor.value_or(baseline);
    report_missing(ctx, floor, newest, code_floor);
  }

private:
  static void report_missing(CheckContext& ctx, TorchVersion floor, const std::vector<const ShimImport*>& newest,
                             TorchVersion code_floor) {
    findings::Finding f;
    f.rule = "build-target-version-missing";
    f.location = anchor(ctx.tu);
    f.location.symbol = "TORCH_TARGET_VERSION";
    const bool above = !newest.empty() && floor > code_floor;
    f.message = "TORCH_TARGET_VERSION is not set: the stable headers compile for the PyTorch they come from";
    if (above)
      f.message += ", and the library built from this file will need PyTorch >= " + floor.str() + " (it imports " +
                   list(newest, 3) + "), though its code needs only " + code_floor.str();
    else
      f.message += ", so the release this library needs follows the headers it is built with, not its code (" +
                   code_floor.str() + ")";
    for (const auto* i : newest) {
      std::string how = i->via.empty() ? "called here" : "through " + i->via;
      f.notes.push_back(i->name + " (PyTorch " + i->since.str() + "): " + how + " at " + display_path(i->used_at.file) +
                        ":" + std::to_string(i->used_at.line));
    }
    f.help = "Add -DTORCH_TARGET_VERSION=" + code_floor.hex() + " (PyTorch " + code_floor.str() +
             ", the lowest this code allows) to every compiler's flags that build this extension (g++ and nvcc: in "
             "setup.py both extra_compile_args[\"cxx\"] and [\"nvcc\"]), so the headers call only what " +
             code_floor.str() + " has.";
    if (const auto& p = ctx.env.promise; p && p->release < floor) {
      f.severity = findings::Severity::Error;
      f.message += "; the project states it supports PyTorch " + p->release.str();
      f.notes.push_back("PyTorch " + p->release.str() + " is stated by " + p->origin);
      if (code_floor > p->release)
        f.help += " The code itself needs " + code_floor.str() + ", newer than the stated " + p->release.str() +
                  ": raise the stated requirement too, or do without the newer APIs.";
      else
        f.help = "Add -DTORCH_TARGET_VERSION=" + p->release.hex() + " (PyTorch " + p->release.str() +
                 ", the release the project states) to every compiler's flags that build this extension (g++ and "
                 "nvcc: in setup.py both extra_compile_args[\"cxx\"] and [\"nvcc\"]).";
    }
    ctx.report(std::move(f));
  }
};

}  // namespace

std::unique_ptr<TuCheck> make_build_floor_check() { return std::make_unique<BuildFloorCheck>(); }

}  // namespace torchabi::source::checks
