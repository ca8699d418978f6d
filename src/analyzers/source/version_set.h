// A set of TORCH_FEATURE_VERSION values: the targets for which a line of a
// PyTorch header is compiled. Values use the TORCH_ABI_VERSION encoding
// ((major << 56) | (minor << 48) | (patch << 40)); the set is a sorted list of
// disjoint half-open intervals [lo, hi), hi == kUnbounded meaning "and every
// newer release". Guards such as `< 2.10` or an `#else` after `>= 2.13` make
// sets that are bounded above, so a single "since" cannot describe them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/version.h"

namespace torchabi::source {

class VersionSet {
public:
  static constexpr uint64_t kUnbounded = UINT64_MAX;
  struct Interval {
    uint64_t lo = 0, hi = kUnbounded;
    bool operator==(const Interval&) const = default;
  };

  static VersionSet all() { return VersionSet({{0, kUnbounded}}); }
  static VersionSet none() { return VersionSet({}); }
  static VersionSet at_least(uint64_t v) { return VersionSet({{v, kUnbounded}}); }
  static VersionSet below(uint64_t v) { return v == 0 ? none() : VersionSet({{0, v}}); }
  // `TORCH_FEATURE_VERSION op value` for op in >=, >, <, <=, ==, != (nullopt otherwise).
  static std::optional<VersionSet> compare(std::string_view op, uint64_t value);

  VersionSet operator&(const VersionSet& o) const;
  VersionSet operator|(const VersionSet& o) const;
  VersionSet complement() const;
  bool operator==(const VersionSet&) const = default;

  bool empty() const { return intervals_.empty(); }
  bool is_all() const { return *this == all(); }
  bool contains(uint64_t v) const;
  // The smallest value in the set; nullopt when empty.
  std::optional<uint64_t> lowest() const;
  const std::vector<Interval>& intervals() const { return intervals_; }

  // "any", "none", ">= 2.10", "< 2.10", ">= 2.10 and < 2.12", joined with " or ".
  std::string str() const;

private:
  explicit VersionSet(std::vector<Interval> iv);
  std::vector<Interval> intervals_;
};

}  // namespace torchabi::source
