#include "analyzers/source/version_set.h"

#include <algorithm>

namespace torchabi::source {

VersionSet::VersionSet(std::vector<Interval> iv) {
  std::sort(iv.begin(), iv.end(), [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
  for (const auto& i : iv) {
    if (i.lo >= i.hi) continue;
    if (!intervals_.empty() && i.lo <= intervals_.back().hi) {
      intervals_.back().hi = std::max(intervals_.back().hi, i.hi);
    } else {
      intervals_.push_back(i);
    }
  }
}

std::optional<VersionSet> VersionSet::compare(std::string_view op, uint64_t v) {
  const uint64_t next = v == kUnbounded ? v : v + 1;
  if (op == ">=") return at_least(v);
  if (op == ">") return at_least(next);
  if (op == "<") return below(v);
  if (op == "<=") return below(next);
  if (op == "==") return VersionSet({{v, next}});
  if (op == "!=") return VersionSet({{v, next}}).complement();
  return std::nullopt;
}

VersionSet VersionSet::operator&(const VersionSet& o) const {
  std::vector<Interval> out;
  for (const auto& a : intervals_)
    for (const auto& b : o.intervals_) {
      Interval i{std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
      if (i.lo < i.hi) out.push_back(i);
    }
  return VersionSet(std::move(out));
}

VersionSet VersionSet::operator|(const VersionSet& o) const {
  std::vector<Interval> out = intervals_;
  out.insert(out.end(), o.intervals_.begin(), o.intervals_.end());
  return VersionSet(std::move(out));
}

VersionSet VersionSet::complement() const {
  std::vector<Interval> out;
  uint64_t from = 0;
  for (const auto& i : intervals_) {
    if (i.lo > from) out.push_back({from, i.lo});
    from = i.hi;
  }
  if (from != kUnbounded) out.push_back({from, kUnbounded});
  return VersionSet(std::move(out));
}

bool VersionSet::contains(uint64_t v) const {
  for (const auto& i : intervals_)
    if (v >= i.lo && v < i.hi) return true;
  return false;
}

std::optional<uint64_t> VersionSet::lowest() const {
  if (intervals_.empty()) return std::nullopt;
  return intervals_.front().lo;
}

std::string VersionSet::str() const {
  if (intervals_.empty()) return "none";
  if (is_all()) return "any";
  // Bounds from `<=` / `>` sit one past a release: name that release instead.
  constexpr uint64_t kBelowPatch = (uint64_t(1) << 40) - 1;
  auto v = [](uint64_t x) { return TorchVersion::decode(x).str(); };
  auto from = [&](uint64_t lo) { return lo & kBelowPatch ? "> " + v(lo - 1) : ">= " + v(lo); };
  auto to = [&](uint64_t hi) { return hi & kBelowPatch ? "<= " + v(hi - 1) : "< " + v(hi); };
  std::string out;
  for (const auto& i : intervals_) {
    if (!out.empty()) out += " or ";
    if (i.lo == 0) out += to(i.hi);
    else if (i.hi == kUnbounded) out += from(i.lo);
    else out += from(i.lo) + " and " + to(i.hi);
  }
  return out;
}

}  // namespace torchabi::source
