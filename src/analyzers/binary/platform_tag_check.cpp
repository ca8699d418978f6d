#include "analyzers/binary/platform_tag_check.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "analyzers/binary/library_scan.h"
#include "inputs/python/platform_policy.h"

namespace torchabi::binary {

namespace {

using inputs::PlatformTag;
using Kind = PlatformTag::Kind;

// Tags that apply to a library of this format; Linux tags for ELF, macOS tags
// for Mach-O, Windows tags for PE.
bool same_family(const LibraryScan& scan, const PlatformTag& t) {
  if (scan.format == "ELF") return t.kind == Kind::Manylinux || t.kind == Kind::Musllinux || t.kind == Kind::Linux;
  if (scan.format == "Mach-O") return t.kind == Kind::MacOS;
  return t.kind == Kind::Windows;
}

// "an ELF", "a Mach-O", "a PE/COFF".
std::string article(const std::string& format) { return (format == "ELF" ? "an " : "a ") + format; }

std::string tag_list(const std::vector<PlatformTag>& tags) {
  std::string out;
  for (const auto& t : tags) out += (out.empty() ? "" : ".") + t.text;
  return out;
}

findings::Finding make(const char* rule, const findings::Location& where, std::string message, std::string help) {
  return findings::make_finding(rule, where, std::move(message), std::move(help));
}

// "GLIBC_2.34" -> {"GLIBC", "2.34"}; "CXXABI_TM_1" -> {"CXXABI", "TM_1"}.
std::pair<std::string, std::string> split_version(const std::string& v) {
  const size_t us = v.find('_');
  if (us == std::string::npos) return {v, ""};
  return {v.substr(0, us), v.substr(us + 1)};
}

// The versions `tag` does not allow, as "GLIBC_2.34 (libc.so.6)".
std::vector<std::string> beyond_policy(const LibraryScan& scan, const PlatformTag& tag, std::string& limits) {
  std::vector<std::string> bad;
  const inputs::PolicyLimits* policy = inputs::PlatformPolicies::current().find(tag.policy, tag.arch);
  for (const auto& need : scan.needed_versions) {
    const auto [ns, ver] = split_version(need.name);
    bool allowed = true;
    if (tag.kind == Kind::Musllinux) {
      // musl has no GNU symbol versions: a GLIBC_ requirement means the
      // library was linked against glibc.
      allowed = ns != "GLIBC";
    } else if (policy) {
      auto it = policy->find(ns);
      if (it == policy->end()) continue;  // a namespace the policy does not govern
      allowed = it->second.allows(ver);
    } else if (ns == "GLIBC" && inputs::is_dotted_number(ver)) {
      // A policy newer than the rules data: PEP 600 still fixes glibc.
      allowed = inputs::compare_dotted(ver, std::to_string(tag.major) + "." + std::to_string(tag.minor)) <= 0;
    }
    if (!allowed) bad.push_back(need.name + " (" + need.file + ")");
  }
  if (tag.kind == Kind::Musllinux) limits = "is for musl libc, which has no GLIBC_ symbol versions";
  else if (policy) {
    for (const char* ns : {"GLIBC", "GLIBCXX", "CXXABI", "GCC"})
      if (auto it = policy->find(ns); it != policy->end() && !it->second.max.empty())
        limits += (limits.empty() ? "allows at most " : ", ") + std::string(ns) + "_" + it->second.max;
  } else {
    limits = "allows at most GLIBC_" + std::to_string(tag.major) + "." + std::to_string(tag.minor);
  }
  std::sort(bad.begin(), bad.end());
  bad.erase(std::unique(bad.begin(), bad.end()), bad.end());
  return bad;
}

std::string first_few(const std::vector<std::string>& v, size_t n = 4) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < n; ++i) out += (i ? ", " : "") + v[i];
  if (v.size() > n) out += " and " + std::to_string(v.size() - n) + " more";
  return out;
}

std::optional<std::pair<int, int>> macos_version(const std::string& v) {
  int major = 0, minor = 0;
  if (std::sscanf(v.c_str(), "%d.%d", &major, &minor) < 1) return std::nullopt;
  return std::pair{major, minor};
}

// The oldest tag pip accepts for a deployment target: from macOS 11 on pip
// only matches "macosx_N_0", so 11.3 needs macosx_12_0.
std::string macos_tag_for(std::pair<int, int> built, const std::string& arch) {
  if (built.first >= 11) return "macosx_" + std::to_string(built.first + (built.second > 0)) + "_0_" + arch;
  return "macosx_" + std::to_string(built.first) + "_" + std::to_string(built.second) + "_" + arch;
}

}  // namespace

void check_platform_tags(const LibraryScan& scan, const std::vector<PlatformTag>& tags, const findings::Location& where,
                         findings::Report& report) {
  if (tags.empty()) return;
  std::vector<PlatformTag> family;
  for (const auto& t : tags)
    if (same_family(scan, t)) family.push_back(t);
  std::vector<PlatformTag> fitting;
  for (const auto& t : family)
    if (inputs::tag_allows_machine(t, scan.machine)) fitting.push_back(t);
  if (fitting.size() < family.size() || family.empty()) {
    const bool any = std::all_of(tags.begin(), tags.end(), [](const PlatformTag& t) { return t.kind == Kind::Any; });
    report.add(make("binary-arch-not-in-tag", where,
                    any ? article(scan.format) + " " + scan.machine + " library in a wheel tagged 'any', which pip installs on every platform"
                        : article(scan.format) + " " + scan.machine + " library in a wheel tagged " + tag_list(tags) +
                              ": pip installs it where this library cannot load",
                    "build the library for each platform tag and ship one wheel per platform (cibuildwheel does); "
                    "tag the wheel with the platform it was built for"));
  }

  std::vector<std::string> checked;  // "manylinux2014_x86_64" is "manylinux_2_17_x86_64" again
  for (const auto& t : fitting) {
    if (t.kind == Kind::Manylinux || t.kind == Kind::Musllinux) {
      const std::string key = t.policy + "_" + t.arch;
      if (std::find(checked.begin(), checked.end(), key) != checked.end()) continue;
      checked.push_back(key);
      std::string limits;
      const auto bad = beyond_policy(scan, t, limits);
      if (bad.empty()) continue;
      findings::Finding f = make("binary-glibc-newer-than-tag", where,
                                 "requires " + first_few(bad) + ", but " + t.text + " " + limits,
                                 "build the wheel in the " + t.policy +
                                     " image (or an older one) and repair it with auditwheel, or tag it with the "
                                     "policy its symbol versions need");
      for (const auto& b : bad) f.notes.push_back("needs " + b);
      report.add(std::move(f));
    } else if (t.kind == Kind::MacOS && !scan.min_os.empty()) {
      const auto built = macos_version(scan.min_os);
      if (!built || *built <= std::pair{t.major, t.minor}) continue;
      report.add(make("binary-macos-newer-than-tag", where,
                      "built for macOS " + scan.min_os + " and later, but " + t.text + " lets pip install it on macOS " +
                          std::to_string(t.major) + "." + std::to_string(t.minor),
                      "set MACOSX_DEPLOYMENT_TARGET=" + std::to_string(t.major) + "." + std::to_string(t.minor) +
                          " when building, or tag the wheel " + macos_tag_for(*built, t.arch)));
    }
  }
}

}  // namespace torchabi::binary
