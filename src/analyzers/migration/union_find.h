// Disjoint sets over 0..n-1: the grouping both the order of work and the
// steps use (files that must change together end up with one root).
#pragma once

#include <cstddef>
#include <numeric>
#include <vector>

namespace torchabi::migration {

struct UnionFind {
  std::vector<size_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  size_t find(size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(size_t a, size_t b) { parent[find(a)] = find(b); }
};

}  // namespace torchabi::migration
