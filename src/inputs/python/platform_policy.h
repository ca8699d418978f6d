// The manylinux and musllinux policies (rules/python/platform_policies.tsv,
// from auditwheel's policy files): the newest GNU symbol version of each
// namespace (GLIBC, GLIBCXX, CXXABI, GCC, ...) a wheel with that tag may
// require.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class RulesSource;

struct VersionLimit {
  std::string max;                  // "2.17"; empty: the policy allows no version of the namespace
  std::vector<std::string> extras;  // non-numeric versions also allowed ("TM_1")
  // True when `version` ("2.34", "TM_1") is allowed.
  bool allows(std::string_view version) const;
};

// One policy on one architecture: namespace -> limit.
using PolicyLimits = std::map<std::string, VersionLimit, std::less<>>;

class PlatformPolicies {
public:
  // Throws InputError when the table is missing or malformed.
  static PlatformPolicies load(const RulesSource& src);
  static const PlatformPolicies& current();

  // `policy` is the PEP 600 name ("manylinux_2_17") or an alias
  // ("manylinux2014"); `arch` as in the tag ("x86_64"). Null when unknown.
  const PolicyLimits* find(std::string_view policy, std::string_view arch) const;

private:
  std::map<std::string, PolicyLimits, std::less<>> by_policy_arch_;  // "manylinux_2_17/x86_64"
  std::map<std::string, std::string, std::less<>> aliases_;           // "manylinux2014" -> "manylinux_2_17"
};

// Compares dotted numeric versions ("2.2.5" < "2.17"); -1, 0 or 1.
int compare_dotted(std::string_view a, std::string_view b);
// "2.34", "3.4.29": digits and dots only.
bool is_dotted_number(std::string_view v);

}  // namespace torchabi::inputs
