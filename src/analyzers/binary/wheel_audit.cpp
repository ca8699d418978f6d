#include "analyzers/binary/wheel_audit.h"

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/member_audit.h"
#include "analyzers/binary/package_summary.h"
#include "analyzers/binary/packaging_checks.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/torch_itself.h"
#include "analyzers/binary/torch_requirement.h"
#include "common/input_error.h"
#include "inputs/wheel_archive.h"
#include "inputs/wheel_metadata.h"

namespace torchabi::binary {

bool is_library_member(std::string_view m) {
  const size_t slash = m.rfind('/');
  std::string_view base = slash == std::string_view::npos ? m : m.substr(slash + 1);
  // macOS and Windows libraries and extension modules (macOS modules are .so too).
  for (std::string_view ext : {".dylib", ".pyd", ".dll"})
    if (base.size() > ext.size() && base.ends_with(ext)) return true;
  const size_t so = base.rfind(".so");
  if (so == std::string_view::npos || so == 0) return false;
  std::string_view rest = base.substr(so + 3);
  // "x.so", or "libx.so.1", "libx.so.1.13.0": only digits and dots after ".so".
  if (rest.empty()) return true;
  if (rest.front() != '.') return false;
  return rest.find_first_not_of("0123456789.") == std::string_view::npos && rest.size() > 1;
}

void audit_wheel(const std::string& path, std::span<const std::byte> bytes, SymbolClassifier& classifier,
                 const AuditOptions& options, findings::Report& report) {
  inputs::WheelArchive wheel(bytes, path);
  const inputs::WheelMember* md_member = wheel.metadata();
  if (!md_member) throw InputError(path, "no <name>.dist-info/METADATA member: not a wheel");
  const inputs::WheelMetadata md = inputs::parse_wheel_metadata(wheel.read_text(*md_member));

  // A wheel of PyTorch itself is what extensions load on: one line.
  if (inputs::normalize_project_name(md.name) == "torch") {
    findings::Subject s;
    s.kind = "wheel";
    s.path = path;
    s.loads_on = torch_itself_line(md.version.substr(0, md.version.find('+')));
    s.facts.emplace_back("distribution", md.name + (md.version.empty() ? "" : " " + md.version));
    s.facts.emplace_back("not audited", "PyTorch's own libraries (what extensions load on)");
    report.subjects.push_back(std::move(s));
    return;
  }

  const PackagingContext packaging = packaging_context(wheel, path);

  // The wheel's own entry goes first; its libraries follow it.
  const size_t wheel_subject = report.subjects.size();
  report.subjects.push_back({});

  PackageTotals totals;
  totals.verdict = kVerdictNoTorch;
  for (const auto& m : wheel.members()) {
    if (!is_library_member(m.name)) continue;
    std::vector<std::byte> lib;
    try {
      lib = wheel.read(m);
    } catch (const InputError& e) {
      ++totals.libraries;
      report.failures.push_back({e.input(), e.what()});
      continue;
    }
    audit_package_member(path, m.name, lib, packaging, classifier, options, report, totals);
  }

  const TorchAllowance allowed = torch_allowance(md);
  findings::Subject& s = report.subjects[wheel_subject];
  s.kind = "wheel";
  s.path = path;
  summarize_package(totals, s);
  if (!md.name.empty()) s.facts.emplace_back("distribution", md.name + (md.version.empty() ? "" : " " + md.version));
  if (!packaging.tags.empty()) s.facts.emplace_back("tags", packaging.tags);
  s.facts.emplace_back("libraries", std::to_string(totals.libraries));
  s.facts.emplace_back("torch requirement", allowed.describe());
  if (!totals.floor.label().empty()) s.facts.emplace_back("floor", totals.floor.label());
  describe_cuda(totals.cuda, s);

  summarize_wheel_torches(report, wheel_subject, wheel_subject + 1);

  const std::string v = totals.floor.version ? totals.floor.version->str() : "";
  check_requirement_floor("binary-wheel-requires-too-old", path, md_member->name, "wheel", "pip", totals, allowed,
                          "require torch>=" + v + " (pyproject.toml: dependencies = [\"torch>=" + v + "\"])", report);
}

}  // namespace torchabi::binary
