#include "analyzers/migration/fix_nesting.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace torchabi::migration {

using findings::FixIt;
using findings::KeptText;

namespace {

uint32_t size_of(const FixIt& f) { return f.end_offset - f.begin_offset; }

// The copy of `outer` that holds all of `inner`, if any.
const KeptText* holder(const FixIt& outer, const FixIt& inner) {
  if (size_of(outer) <= size_of(inner)) return nullptr;
  for (const auto& k : outer.kept)
    if (k.begin_offset <= inner.begin_offset && inner.end_offset <= k.end_offset) return &k;
  return nullptr;
}

bool same_edit(const FixIt& a, const FixIt& b) {
  return a.begin_offset == b.begin_offset && a.end_offset == b.end_offset && a.replacement == b.replacement;
}

}  // namespace

NestingResult fold_nested_fixes(const std::vector<FixIt>& fixes, std::string_view text) {
  const size_t n = fixes.size();
  // Each fix-it's parent: the smallest fix-it whose copy holds it.
  std::vector<std::optional<size_t>> parent(n);
  std::vector<size_t> copiers;  // only fix-its that copy text can hold others
  for (size_t j = 0; j < n; ++j)
    if (!fixes[j].kept.empty()) copiers.push_back(j);
  for (size_t i = 0; i < n; ++i)
    for (size_t j : copiers)
      if (i != j && holder(fixes[j], fixes[i]) &&
          (!parent[i] || size_of(fixes[j]) < size_of(fixes[*parent[i]])))
        parent[i] = j;

  // Children before parents: smallest first.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return size_of(fixes[a]) < size_of(fixes[b]); });

  std::vector<NestedFix> built(n);
  for (size_t i = 0; i < n; ++i) {
    built[i].index = i;
    built[i].fix = fixes[i];
  }
  std::vector<std::vector<size_t>> children(n);
  for (size_t i = 0; i < n; ++i)
    if (parent[i]) children[*parent[i]].push_back(i);

  NestingResult out;
  for (size_t p : order) {
    auto& kids = children[p];
    if (kids.empty()) continue;
    std::sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
      return std::pair(fixes[a].begin_offset, fixes[a].end_offset) < std::pair(fixes[b].begin_offset, fixes[b].end_offset);
    });
    // Disjoint children only; the same edit twice (a header seen from two
    // translation units) counts once.
    std::vector<size_t> taken;
    for (size_t c : kids) {
      if (!taken.empty()) {
        const FixIt& prev = fixes[taken.back()];
        if (same_edit(prev, fixes[c])) continue;
        if (fixes[c].begin_offset < prev.end_offset) {
          out.refused.emplace_back(fixes[c], fixes[p]);
          continue;
        }
      }
      taken.push_back(c);
    }
    std::string r = built[p].fix.replacement;
    // Right to left, so the offsets of the copies still hold.
    for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
      const FixIt& c = fixes[*it];
      const KeptText& k = *holder(fixes[p], c);
      const size_t at = k.at + (c.begin_offset - k.begin_offset);
      const size_t len = size_of(c);
      if (at + len > r.size() || c.end_offset > text.size() ||
          r.compare(at, len, text.substr(c.begin_offset, len)) != 0) {
        out.refused.emplace_back(c, fixes[p]);
        continue;
      }
      r.replace(at, len, built[*it].fix.replacement);
      built[p].absorbed.push_back(c);
      for (auto& a : built[*it].absorbed) built[p].absorbed.push_back(std::move(a));
    }
    built[p].fix.replacement = std::move(r);
    built[p].fix.kept.clear();  // the copies' offsets moved
  }
  for (size_t i = 0; i < n; ++i)
    if (!parent[i]) out.top.push_back(std::move(built[i]));
  return out;
}

}  // namespace torchabi::migration
