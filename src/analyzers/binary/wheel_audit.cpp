#include "analyzers/binary/wheel_audit.h"

#include "analyzers/binary/image_audit.h"
#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/package_summary.h"
#include "analyzers/binary/packaging_checks.h"
#include "analyzers/binary/torch_audit.h"
#include "analyzers/binary/torch_itself.h"
#include "analyzers/binary/torch_requirement.h"
#include "common/input_error.h"
#include "inputs/elf_view.h"
#include "inputs/object_image.h"
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

  VersionFloor floor;
  std::string verdict = kVerdictNoTorch;
  size_t libraries = 0;
  for (const auto& m : wheel.members()) {
    if (!is_library_member(m.name)) continue;
    ++libraries;
    try {
      const std::vector<std::byte> lib = wheel.read(m);
      findings::Location where;
      where.file = path;
      where.member = m.name;
      const inputs::BinaryFormat format = inputs::sniff_binary(lib);
      if (format != inputs::BinaryFormat::Elf && format != inputs::BinaryFormat::Unknown) {
        ImageAudit image =
            audit_object_image(lib, path + "!" + m.name, m.name, packaging, where, options, classifier, report);
        for (auto& s : image.floor.set_by) s = m.name + ": " + s;
        floor.raise_to(image.floor);
        verdict = worse_verdict(verdict, image.verdict);  // a wheel is as unstable as its worst library
        continue;
      }
      inputs::ElfView elf(lib, path + "!" + m.name);
      LibraryScan scan = scan_library(elf, classifier);
      VersionFloor lib_floor = report_library(scan, where, options, report);
      check_packaging(scan, m.name, packaging, where, report.subjects.size() - 1, report);
      audit_on_torches(elf, scan, lib_floor, where, options, classifier, report, report.subjects.size() - 1);
      for (auto& s : lib_floor.set_by) s = m.name + ": " + s;
      floor.raise_to(lib_floor);
      verdict = worse_verdict(verdict, verdict_of(scan));
    } catch (const InputError& e) {
      report.failures.push_back({e.input(), e.what()});
    }
  }

  const TorchAllowance allowed = torch_allowance(md);
  findings::Subject& s = report.subjects[wheel_subject];
  s.kind = "wheel";
  s.path = path;
  summarize_package({verdict, floor, libraries}, s);
  if (!md.name.empty()) s.facts.emplace_back("distribution", md.name + (md.version.empty() ? "" : " " + md.version));
  if (!packaging.tags.empty()) s.facts.emplace_back("tags", packaging.tags);
  s.facts.emplace_back("libraries", std::to_string(libraries));
  s.facts.emplace_back("torch requirement", allowed.describe());
  if (!floor.label().empty()) s.facts.emplace_back("floor", floor.label());

  summarize_wheel_torches(report, wheel_subject, wheel_subject + 1);

  // Only a dated floor can be checked: "<=2.9" does not say which older
  // release lacks the functions.
  if (verdict == kVerdictStable && floor.version && !floor.baseline && allowed.allows_older_than(*floor.version)) {
    findings::Finding f;
    f.rule = "binary-wheel-requires-too-old";
    f.location.file = path;
    f.location.member = md_member->name;
    const std::string need = "PyTorch >= " + floor.version->str();
    switch (allowed.kind) {
      case TorchAllowance::Kind::NotDeclared:
        f.message = "the wheel does not require torch, so pip installs it next to any release, but its libraries need " + need;
        break;
      case TorchAllowance::Kind::NoLowerBound:
        f.message = "'" + allowed.requirement + "' sets no lower bound on torch, but the wheel's libraries need " + need;
        break;
      default:
        f.message = "'" + allowed.requirement + "' allows torch " + allowed.bound.str() +
                    ", but the wheel's libraries need " + need;
    }
    f.help = "require torch>=" + floor.version->str() + " (pyproject.toml: dependencies = [\"torch>=" +
             floor.version->str() + "\"])";
    for (const auto& by : floor.set_by) f.notes.push_back("floor set by " + by);
    report.add(std::move(f));
  }
}

}  // namespace torchabi::binary
