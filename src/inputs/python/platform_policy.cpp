#include "inputs/python/platform_policy.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::inputs {

namespace {

std::vector<std::string_view> commas(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t start = 0; start < s.size();) {
    const size_t comma = std::min(s.find(',', start), s.size());
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

bool is_dotted_number(std::string_view v) {
  return !v.empty() && std::isdigit(static_cast<unsigned char>(v.front())) &&
         std::isdigit(static_cast<unsigned char>(v.back())) &&
         v.find_first_not_of("0123456789.") == std::string_view::npos && v.find("..") == std::string_view::npos;
}

int compare_dotted(std::string_view a, std::string_view b) {
  while (!a.empty() || !b.empty()) {
    auto take = [](std::string_view& s) {
      unsigned long n = 0;
      const size_t dot = s.find('.');
      std::from_chars(s.data(), s.data() + std::min(dot, s.size()), n);
      s = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
      return n;
    };
    const unsigned long x = take(a), y = take(b);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

bool VersionLimit::allows(std::string_view version) const {
  if (is_dotted_number(version)) return !max.empty() && compare_dotted(version, max) <= 0;
  return std::find(extras.begin(), extras.end(), version) != extras.end();
}

PlatformPolicies PlatformPolicies::load(const RulesSource& src) {
  const std::string file = "python/platform_policies.tsv";
  PlatformPolicies p;
  for_each_tsv_row(src.require(file), file, 5, [&](const std::vector<std::string_view>& c, size_t line) {
    const std::string policy(c[0]);
    PolicyLimits& limits = p.by_policy_arch_[policy + "/" + std::string(c[2])];
    for (auto alias : commas(c[1])) p.aliases_[std::string(alias)] = policy;
    if (c[3] == "-") return;  // no symbol versions at all (musllinux)
    VersionLimit& l = limits[std::string(c[3])];
    if (c[4] != "-") {
      if (!is_dotted_number(c[4]))
        throw InputError(file + ":" + std::to_string(line), "bad version '" + std::string(c[4]) + "'");
      l.max = std::string(c[4]);
    }
    if (c.size() > 5)
      for (auto extra : commas(c[5])) l.extras.emplace_back(extra);
  });
  if (p.by_policy_arch_.empty()) throw InputError(file, "no policies");
  return p;
}

const PlatformPolicies& PlatformPolicies::current() {
  static const PlatformPolicies p = load(RulesSource::current());
  return p;
}

const PolicyLimits* PlatformPolicies::find(std::string_view policy, std::string_view arch) const {
  std::string name(policy);
  if (auto a = aliases_.find(policy); a != aliases_.end()) name = a->second;
  auto it = by_policy_arch_.find(name + "/" + std::string(arch));
  return it == by_policy_arch_.end() ? nullptr : &it->second;
}

}  // namespace torchabi::inputs
