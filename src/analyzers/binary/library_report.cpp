#include "analyzers/binary/library_report.h"

#include <algorithm>

#include "analyzers/binary/cuda_needs.h"
#include "analyzers/binary/stable_cxx_headers.h"
#include "common/text.h"
#include "inputs/api_catalog.h"

namespace torchabi::binary {

namespace {

using text::join;

bool is_torch_library(const std::string& soname) {
  return soname.starts_with("libtorch") || soname.starts_with("libc10") || soname.starts_with("libcaffe2");
}

// torch::stable / torch::headeronly C++ is header-only by design: an import
// of it is a definition the build left out, which no libtorch provides.
std::vector<const CxxSymbol*> undefined_stable_cxx(const LibraryScan& scan) {
  std::vector<const CxxSymbol*> out;
  for (const auto& imp : scan.stable_cxx_imports)
    if (imp.ns == "torch::stable" || imp.ns == "torch::headeronly") out.push_back(&imp);
  return out;
}

std::string loads_on(const LibraryScan& scan, const VersionFloor& floor, const std::vector<BuildNeed>& needs) {
  if (const auto undefined = undefined_stable_cxx(scan); !undefined.empty())
    return "no PyTorch release (it imports " + undefined.front()->demangled + ", header-only C++ no libtorch exports)";
  const std::string verdict = verdict_of(scan);
  if (verdict == kVerdictNoTorch) return "any PyTorch release (it imports nothing from PyTorch)";
  if (verdict == kVerdictUnstable) {
    std::vector<std::string> torch_libs;
    for (const auto& n : scan.needed)
      if (is_torch_library(n)) torch_libs.push_back(n);
    std::string s = "only the PyTorch release it was built against";
    if (!torch_libs.empty()) s += " (it links " + join(torch_libs) + ")";
    return s;
  }
  std::string s;
  if (!floor.version) s = "PyTorch releases with the stable ABI (it imports no stable C functions)";
  else if (floor.baseline) s = "PyTorch >= " + floor.version->str() + " (every import is in the " + floor.label() + " baseline)";
  else s = "PyTorch >= " + floor.version->str();
  if (!needs.empty()) {
    std::vector<std::string> conditions;
    for (const auto& n : needs) conditions.push_back(n.condition);
    s += ", built with " + join(conditions, " and ");
  }
  if (!scan.unknown_shims.empty())
    s += "; " + std::to_string(scan.unknown_shims.size()) + " shim-like import(s) unknown to torchabi may need a newer one";
  return s;
}

findings::Location at_symbol(const findings::Location& where, const std::string& symbol) {
  findings::Location l = where;
  l.symbol = symbol;
  return l;
}

void add_findings(const LibraryScan& scan, const findings::Location& where, const AuditOptions& options,
                  findings::Report& report) {
  for (const auto& imp : scan.unstable_imports) {
    findings::Finding f;
    f.rule = "binary-unstable-import";
    f.location = at_symbol(where, imp.demangled);
    f.message = "imports " + imp.demangled + " from PyTorch's unstable C++ API (" + imp.ns + "::)";
    f.help = "use the stable C shim or torch::stable / torch::headeronly instead; this import only resolves "
             "against the exact libtorch the library was built with";
    f.notes.push_back("mangled: " + imp.mangled);
    report.add(std::move(f));
  }
  for (const CxxSymbol* imp : undefined_stable_cxx(scan)) {
    findings::Finding f;
    f.rule = "binary-undefined-stable-cxx";
    f.location = at_symbol(where, imp->demangled);
    f.message = "imports " + imp->demangled + ", header-only C++ (" + imp->ns +
                "::) that no libtorch exports: the library can never load on any PyTorch";
    const std::string header = stable_header_to_include(imp->qualified);
    f.help = (header.empty() ? std::string("include the stable header that defines it")
                             : "include <" + header + "> (it defines " + imp->qualified + ")") +
             " in every source that uses it and rebuild; the build compiled a call to it without its definition";
    f.notes.push_back("mangled: " + imp->mangled);
    report.add(std::move(f));
  }
  for (const auto& name : scan.unknown_shims) {
    findings::Finding f;
    f.rule = "binary-unknown-shim";
    f.location = at_symbol(where, name);
    f.message = "imports " + name + ", a shim-like symbol torchabi's rules do not list";
    f.help = "check that it is declared in a stable shim header; if it is newer than torchabi's data, "
             "pass --rules-dir with updated rules, otherwise stop using it";
    report.add(std::move(f));
  }
  if (options.target) {
    for (const auto& imp : scan.stable_shims) {
      const auto& fn = *imp.function;
      if (fn.baseline || !(fn.since > *options.target)) continue;
      findings::Finding f;
      f.rule = "version-import-after-target";
      f.location = at_symbol(where, imp.symbol);
      f.message = "imports " + imp.symbol + ", introduced in PyTorch " + fn.since.str() + ", after the target " +
                  options.target->str();
      f.help = "raise the target to " + fn.since.str() + " (and the wheel's torch requirement with it), or stop "
               "using " + imp.symbol + "; building with -DTORCH_TARGET_VERSION=" + options.target->hex() +
               " hides APIs newer than the target";
      if (fn.prototype != "-") f.notes.push_back("declared as: " + fn.prototype);
      report.add(std::move(f));
    }
  }
  if (scan.leaked_count > 0) {
    findings::Finding f;
    f.rule = "binary-leaked-inline-cxx";
    f.location = where;
    f.message = "exports " + std::to_string(scan.leaked_count) +
                " weak definition(s) of PyTorch's inline C++, which the dynamic linker may interpose with libtorch's";
    f.help = "stop including ATen/c10/torch C++ headers, or build with -fvisibility=hidden "
             "-fvisibility-inlines-hidden so these copies stay private";
    for (const auto& ex : scan.leaked_examples) f.notes.push_back("exports " + ex.demangled);
    if (scan.leaked_count > scan.leaked_examples.size())
      f.notes.push_back("... and " + std::to_string(scan.leaked_count - scan.leaked_examples.size()) + " more");
    report.add(std::move(f));
  }
}

}  // namespace

const char* verdict_of(const LibraryScan& scan) {
  if (!scan.unstable_imports.empty()) return kVerdictUnstable;
  if (!scan.stable_shims.empty() || !scan.unknown_shims.empty() || !scan.stable_cxx_imports.empty())
    return kVerdictStable;
  return kVerdictNoTorch;
}

VersionFloor report_library(const LibraryScan& scan, const findings::Location& where, const AuditOptions& options,
                            findings::Report& report) {
  const VersionFloor floor = compute_floor(scan.stable_shims);
  const std::vector<BuildNeed> needs = compute_build_needs(scan.stable_shims);

  findings::Subject s;
  s.kind = "library";
  s.path = where.member.empty() ? where.file : where.file + "!" + where.member;
  s.verdict = verdict_of(scan);
  s.floor = floor.version;
  s.floor_is_baseline = floor.baseline;
  s.floor_set_by = floor.set_by;
  s.loads_on = loads_on(scan, floor, needs);
  s.facts.emplace_back("architecture", scan.machine);
  if (!scan.soname.empty()) s.facts.emplace_back("soname", scan.soname);
  s.facts.emplace_back("needed", scan.needed.empty() ? "(nothing)" : join(scan.needed));
  s.facts.emplace_back("imports", std::to_string(scan.stable_shims.size()) + " stable shim, " +
                                      std::to_string(scan.unknown_shims.size()) + " unknown shim-like, " +
                                      std::to_string(scan.unstable_imports.size()) + " unstable C++, " +
                                      std::to_string(scan.stable_cxx_imports.size()) + " stable C++, " +
                                      std::to_string(scan.other_imports) + " other");
  if (!floor.label().empty()) s.facts.emplace_back("floor", floor.label());
  describe_cuda(cuda_needs(scan.needed), s);
  for (const auto& n : needs) {  // e.g. aoti_torch_cuda_*: absent from CPU-only PyTorch
    constexpr size_t kShown = 5;
    std::vector<std::string> shown(n.imports.begin(), n.imports.begin() + std::min(kShown, n.imports.size()));
    std::string text = n.condition + " (" + n.library + "): " + join(shown);
    if (n.imports.size() > kShown) text += " and " + std::to_string(n.imports.size() - kShown) + " more";
    s.facts.emplace_back("needs a build with", text);
  }
  if (!scan.unknown_shims.empty()) s.facts.emplace_back("unknown shim imports", join(scan.unknown_shims));
  if (scan.leaked_count) s.facts.emplace_back("leaked inline C++ exports", std::to_string(scan.leaked_count));
  if (options.target) s.facts.emplace_back("target", options.target->str());
  report.subjects.push_back(std::move(s));

  add_findings(scan, where, options, report);
  return floor;
}

}  // namespace torchabi::binary
