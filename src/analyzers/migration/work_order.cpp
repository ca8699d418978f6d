#include "analyzers/migration/union_find.h"
#include "analyzers/migration/work_order.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

namespace torchabi::migration {

namespace {

}  // namespace

std::vector<WorkGroup> order_work(const std::map<std::string, Counts>& work, const IncludeGraph& graph,
                                  const std::map<std::string, std::string>& display) {
  auto name = [&](const std::string& path) {
    auto it = display.find(path);
    return it == display.end() ? path : it->second;
  };
  std::vector<std::string> files;
  std::map<std::string, size_t> index;
  for (const auto& [path, counts] : work) {
    if (counts.total() == 0) continue;
    index[path] = files.size();
    files.push_back(path);
  }
  // deps[i]: files with work that file i includes, directly or through files without work.
  std::vector<std::set<size_t>> deps(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    std::set<std::string> seen{files[i]};
    std::vector<std::string> stack{files[i]};
    while (!stack.empty()) {
      const std::string cur = stack.back();
      stack.pop_back();
      auto it = graph.find(cur);
      if (it == graph.end()) continue;
      for (const auto& next : it->second) {
        if (!seen.insert(next).second) continue;
        auto w = index.find(next);
        if (w != index.end()) deps[i].insert(w->second);
        stack.push_back(next);
      }
    }
  }
  UnionFind uf(files.size());
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t d : deps[i]) uf.join(i, d);

  // Rank: how deep a file sits in its group's include chain (0: includes no
  // other file of the group). Lower ranks go first. Cycles (mutually
  // including headers) are cut where they are found.
  std::vector<int> rank(files.size(), -1);
  std::vector<bool> on_path(files.size(), false);
  std::function<int(size_t)> depth = [&](size_t i) -> int {
    if (rank[i] >= 0) return rank[i];
    if (on_path[i]) return 0;
    on_path[i] = true;
    int r = 0;
    for (size_t d : deps[i]) r = std::max(r, depth(d) + 1);
    on_path[i] = false;
    return rank[i] = r;
  };

  std::map<size_t, std::vector<size_t>> members;
  for (size_t i = 0; i < files.size(); ++i) members[uf.find(i)].push_back(i);

  std::vector<WorkGroup> groups;
  for (auto& [root, list] : members) {
    std::sort(list.begin(), list.end(), [&](size_t a, size_t b) {
      int ra = depth(a), rb = depth(b);
      return ra != rb ? ra < rb : files[a] < files[b];
    });
    WorkGroup g;
    for (size_t i : list) {
      g.files.push_back(name(files[i]));
      const Counts& c = work.at(files[i]);
      g.counts.fixable += c.fixable;
      g.counts.fixable_unsafe += c.fixable_unsafe;
      g.counts.manual += c.manual;
      g.counts.blocked += c.blocked;
    }
    if (list.size() > 1) {
      for (size_t h : list) {
        std::vector<std::string> users;
        for (size_t u : list)
          if (deps[u].count(h)) users.push_back(name(files[u]));
        if (users.empty()) continue;
        if (!g.why.empty()) g.why += "; ";
        g.why += name(files[h]) + " is included by ";
        for (size_t k = 0; k < users.size(); ++k) g.why += (k ? ", " : "") + users[k];
      }
    }
    groups.push_back(std::move(g));
  }
  std::sort(groups.begin(), groups.end(), [](const WorkGroup& a, const WorkGroup& b) {
    bool ba = a.counts.blocked > 0, bb = b.counts.blocked > 0;
    if (ba != bb) return !ba;
    if (a.counts.total() != b.counts.total()) return a.counts.total() < b.counts.total();
    return a.files.front() < b.files.front();
  });
  return groups;
}

}  // namespace torchabi::migration
