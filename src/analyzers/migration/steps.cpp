#include "analyzers/migration/steps.h"
#include "analyzers/migration/union_find.h"
#include "common/text.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <set>
#include <tuple>

namespace torchabi::migration {

std::string step_id(std::vector<std::string> files) {
  std::sort(files.begin(), files.end());
  uint32_t h = 2166136261u;  // FNV-1a: stable across runs, platforms and compilers
  for (const auto& f : files) {
    for (unsigned char c : f) h = (h ^ c) * 16777619u;
    h = (h ^ '\n') * 16777619u;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "s-%08x", h);
  return buf;
}

namespace {

void add(Counts& to, const Counts& c) {
  to.fixable += c.fixable;
  to.fixable_unsafe += c.fixable_unsafe;
  to.manual += c.manual;
  to.blocked += c.blocked;
}

using text::join;

// A function of one file used from a registration block or a pybind module
// of another file: the user's step comes after the function's.
struct SoftEdge {
  size_t user = 0;      // the file with the block
  size_t provider = 0;  // the file defining the function
  std::string function;
  uint32_t line = 0;
  const CodeBlock* block = nullptr;
  uint32_t declared_line = 0;  // a prototype of the function in the user's file, 0: none
};

class Planner {
public:
  explicit Planner(const StepInputs& in) : in_(in) {}

  StepPlan run() {
    collect_work();
    link_includes();
    link_functions();
    form_groups();
    order_groups();
    StepPlan out;
    for (size_t k = 0; k < order_.size(); ++k) out.steps.push_back(make_step(order_[k]));
    out.libraries = libraries(out.steps);
    return out;
  }

private:
  const StepInputs& in_;
  std::vector<std::string> files_;  // normal paths with work left
  std::map<std::string, size_t> index_;
  std::map<std::string, Counts> work_;
  std::map<std::string, std::vector<const ApiUse*>> uses_in_;
  std::vector<std::set<size_t>> deps_;  // hard: file i needs file j in place first
  std::map<std::pair<size_t, size_t>, std::string> helper_;  // (user, provider) -> helper name
  std::vector<SoftEdge> soft_;
  std::vector<size_t> group_of_;        // file -> group
  std::vector<std::vector<size_t>> groups_;
  std::vector<std::set<size_t>> after_;  // group -> groups that land first
  std::vector<size_t> order_;
  std::vector<std::string> ids_;         // group -> step id
  std::vector<size_t> position_;         // group -> index in order_

  std::string shown(const std::string& path) const {
    auto it = in_.display.find(path);
    return it == in_.display.end() ? shown_path(path) : it->second;
  }
  std::string shown(size_t file) const { return shown(files_[file]); }

  const std::vector<CodeBlock>& blocks(const std::string& file) const {
    static const std::vector<CodeBlock> none;
    auto it = in_.blocks.find(file);
    return it == in_.blocks.end() ? none : it->second;
  }
  const CodeBlock* block_at(const std::string& file, uint32_t line) const {
    for (const auto& b : blocks(file))
      if (b.contains(line)) return &b;
    return nullptr;
  }

  void collect_work() {
    for (const auto& u : in_.uses) {
      if (u.unchanged) continue;
      const std::string n = normal_path(u.location.file);
      work_[n].add(u.disposition);
      uses_in_[n].push_back(&u);
    }
    for (const auto& [path, c] : work_) {
      if (c.total() == 0) continue;
      index_[path] = files_.size();
      files_.push_back(path);
    }
    deps_.assign(files_.size(), {});
  }

  // A header with work and the files with work that include it, directly or
  // through headers without work (as work_order.cpp).
  void link_includes() {
    for (size_t i = 0; i < files_.size(); ++i) {
      std::set<std::string> seen{files_[i]};
      std::vector<std::string> stack{files_[i]};
      while (!stack.empty()) {
        const std::string cur = stack.back();
        stack.pop_back();
        auto it = in_.includes.find(cur);
        if (it == in_.includes.end()) continue;
        for (const auto& next : it->second) {
          if (!seen.insert(next).second) continue;
          if (auto w = index_.find(next); w != index_.end()) deps_[i].insert(w->second);
          stack.push_back(next);
        }
      }
    }
  }

  void link_functions() {
    // A signature with work left: a use inside its span.
    std::set<std::string> legacy;
    std::map<std::string, std::set<std::string>> defined, declared;
    std::map<std::string, std::string> names;
    std::map<std::pair<std::string, std::string>, uint32_t> prototype;  // (file, usr) -> line
    for (const auto& fn : in_.coupling.functions) {
      names.emplace(fn.usr, fn.name);
      (fn.definition ? defined : declared)[fn.usr].insert(fn.file);
      if (!fn.definition) prototype.emplace(std::pair(fn.file, fn.usr), fn.begin_line);
      auto u = uses_in_.find(fn.file);
      if (u == uses_in_.end()) continue;
      for (const ApiUse* use : u->second)
        if (fn.covers(use->location.line, use->location.column)) {
          legacy.insert(fn.usr);
          break;
        }
    }
    std::set<std::tuple<size_t, size_t, std::string>> soft_seen;
    for (const auto& r : in_.coupling.references) {
      if (!legacy.count(r.usr)) continue;
      auto user = index_.find(r.file);
      if (user == index_.end()) continue;
      const auto& providers = defined.count(r.usr) ? defined[r.usr] : declared[r.usr];
      const CodeBlock* block = block_at(r.file, r.line);
      for (const auto& p : providers) {
        auto provider = index_.find(p);
        if (p == r.file || provider == index_.end()) continue;
        if (!block) {
          deps_[user->second].insert(provider->second);
          helper_.emplace(std::pair(user->second, provider->second), names[r.usr]);
          continue;
        }
        if (!soft_seen.insert({user->second, provider->second, r.usr}).second) continue;
        SoftEdge e{user->second, provider->second, names[r.usr], r.line, block, 0};
        if (auto d = prototype.find(std::pair(r.file, r.usr)); d != prototype.end() && !defined[r.usr].count(r.file))
          e.declared_line = d->second;
        soft_.push_back(e);
      }
    }
  }

  void form_groups() {
    UnionFind uf(files_.size());
    for (size_t i = 0; i < files_.size(); ++i)
      for (size_t d : deps_[i]) uf.join(i, d);
    std::map<size_t, size_t> root_group;
    group_of_.assign(files_.size(), 0);
    for (size_t i = 0; i < files_.size(); ++i) {
      auto [it, added] = root_group.try_emplace(uf.find(i), groups_.size());
      if (added) groups_.emplace_back();
      groups_[it->second].push_back(i);
      group_of_[i] = it->second;
    }
    // Leaves first: a file after the files it includes or calls into.
    std::vector<int> rank(files_.size(), -1);
    std::vector<bool> on_path(files_.size(), false);
    std::function<int(size_t)> depth = [&](size_t i) -> int {
      if (rank[i] >= 0) return rank[i];
      if (on_path[i]) return 0;  // mutually including headers: cut the cycle here
      on_path[i] = true;
      int r = 0;
      for (size_t d : deps_[i]) r = std::max(r, depth(d) + 1);
      on_path[i] = false;
      return rank[i] = r;
    };
    for (auto& g : groups_)
      std::sort(g.begin(), g.end(), [&](size_t a, size_t b) {
        return std::pair(depth(a), shown(a)) < std::pair(depth(b), shown(b));
      });
    ids_.clear();
    for (const auto& g : groups_) {
      std::vector<std::string> names;
      for (size_t f : g) names.push_back(shown(f));
      ids_.push_back(step_id(names));
    }
  }

  bool has(size_t group, CodeBlock::Kind kind, bool stable = false) const {
    for (size_t f : groups_[group])
      for (const auto& b : blocks(files_[f]))
        if (b.kind == kind && b.stable == stable) return true;
    return false;
  }

  Counts counts(size_t group) const {
    Counts c;
    for (size_t f : groups_[group]) add(c, work_.at(files_[f]));
    return c;
  }

  // 0: kernels, helpers, impls; 1: a library's legacy defs; 2: pybind modules.
  // The namespaces whose legacy def block is in `group`.
  std::set<std::string> legacy_def_namespaces(size_t group) const {
    std::set<std::string> ns;
    for (size_t f : groups_[group])
      for (const auto& b : blocks(files_[f]))
        if (b.kind == CodeBlock::Kind::LibraryDef && !b.stable) ns.insert(b.ns);
    return ns;
  }

  // Whether a legacy impl block of `ns` is in a file with work outside `group`.
  bool legacy_impls_elsewhere(const std::string& ns, size_t group) const {
    for (size_t f = 0; f < files_.size(); ++f) {
      if (group_of_[f] == group) continue;
      for (const auto& b : blocks(files_[f]))
        if (b.kind == CodeBlock::Kind::LibraryImpl && !b.stable && b.ns == ns) return true;
    }
    return false;
  }

  // 0: kernels, helpers, impls; 1: a library's legacy defs whose impls are in
  // other steps; 2: pybind modules.
  int tier(size_t group) const {
    if (has(group, CodeBlock::Kind::PybindModule)) return 2;
    if (has(group, CodeBlock::Kind::LibraryImpl)) return 0;
    for (const auto& ns : legacy_def_namespaces(group))
      if (legacy_impls_elsewhere(ns, group)) return 1;
    return 0;
  }

  void order_groups() {
    after_.assign(groups_.size(), {});
    for (const auto& e : soft_) {
      const size_t a = group_of_[e.user], b = group_of_[e.provider];
      if (a != b) after_[a].insert(b);
    }
    // A namespace's legacy defs land after the steps of its legacy impls.
    for (size_t g = 0; g < groups_.size(); ++g) {
      if (tier(g) != 1) continue;
      const std::set<std::string> ns = legacy_def_namespaces(g);
      for (size_t other = 0; other < groups_.size(); ++other) {
        if (other == g || tier(other) == 2) continue;
        for (size_t f : groups_[other])
          for (const auto& b : blocks(files_[f]))
            if (b.kind == CodeBlock::Kind::LibraryImpl && !b.stable && ns.count(b.ns)) after_[g].insert(other);
      }
    }
    // Kahn's algorithm; among the steps that may land, the quick wins first:
    // lower tier, no blocker, fewer uses, then the id. A cycle (two files
    // registering each other's kernels) is cut at the best step left.
    auto key = [&](size_t g) {
      const Counts c = counts(g);
      return std::tuple(tier(g), c.blocked > 0, c.total(), ids_[g]);
    };
    std::vector<bool> done(groups_.size(), false);
    position_.assign(groups_.size(), 0);
    for (size_t placed = 0; placed < groups_.size(); ++placed) {
      std::optional<size_t> best, fallback;
      for (size_t g = 0; g < groups_.size(); ++g) {
        if (done[g]) continue;
        if (!fallback || key(g) < key(*fallback)) fallback = g;
        bool ready = std::all_of(after_[g].begin(), after_[g].end(), [&](size_t p) { return done[p]; });
        if (ready && (!best || key(g) < key(*best))) best = g;
      }
      const size_t g = best ? *best : *fallback;
      done[g] = true;
      position_[g] = order_.size();
      order_.push_back(g);
    }
  }

  std::string label(size_t group) const {
    return "step " + std::to_string(position_[group] + 1) + " (" + ids_[group] + ")";
  }

  PlanStep make_step(size_t g) {
    PlanStep s;
    s.id = ids_[g];
    const int t = tier(g);
    s.kind = t == 2 ? "pybind-module" : t == 1 ? "library-defs" : "code";
    for (size_t f : groups_[g]) s.files.push_back(shown(f));
    s.counts = counts(g);
    std::set<size_t> members(groups_[g].begin(), groups_[g].end());

    // Why these files move together.
    for (size_t h : groups_[g]) {
      std::vector<std::string> includers, callers;
      for (size_t u : groups_[g]) {
        if (!deps_[u].count(h)) continue;
        if (auto it = helper_.find(std::pair(u, h)); it != helper_.end())
          callers.push_back(shown(u) + " (" + it->second + ")");
        else
          includers.push_back(shown(u));
      }
      if (!includers.empty()) s.why.push_back(shown(h) + " is included by " + join(includers));
      if (!callers.empty())
        s.why.push_back(shown(h) + " defines helpers whose signatures name legacy types, called from " + join(callers));
    }

    // Registrations and bindings in files of other steps.
    std::set<std::string> said;
    for (const auto& e : soft_) {
      if (!members.count(e.provider) || members.count(e.user)) continue;
      const std::string user = shown(e.user);
      const CodeBlock& b = *e.block;
      // A prototype beside a registration changes with the kernel; one beside
      // a pybind11 binding goes with the binding (below).
      if (e.declared_line && b.is_library())
        s.edits.push_back({user, e.declared_line, "update the declaration of " + e.function + " to the stable types"});
      if (b.is_library()) {
        const std::string key = b.kind == CodeBlock::Kind::LibraryImpl ? b.dispatch_key : "<key>";
        const std::string target = "STABLE_TORCH_LIBRARY_IMPL(" + b.ns + ", " + key + ", m)";
        if (b.stable) {
          s.edits.push_back({user, e.line, "the registration of " + e.function + " is stable already: wrap it as TORCH_BOX(&" + e.function + ")"});
        } else if (b.kind == CodeBlock::Kind::LibraryImpl) {
          s.edits.push_back({user, e.line, "move the registration of " + e.function + " from " + b.label() +
                                               " into a " + target + " block, as TORCH_BOX(&" + e.function + ")"});
          if (said.insert(user + b.label()).second)
            s.builds.push_back(user + " keeps " + b.label() + " for the kernels of later steps and gets a " + target +
                               " block next to it for the ones this step moves: both load, since each op still has one "
                               "kernel per dispatch key; drop each moved m.impl from the legacy block in the same change "
                               "(a second kernel for the same op and key overrides the first, with a warning)");
        } else {
          s.edits.push_back({user, e.line, "split the m.def of " + e.function + " in " + b.label() +
                                               ": keep the schema there and register " + e.function +
                                               " in a STABLE_TORCH_LIBRARY_IMPL(" + b.ns +
                                               ", KEY, m) block for the dispatch keys it serves "
                                               "(CompositeExplicitAutograd for all of them)"});
          if (said.insert(user + b.label()).second)
            s.builds.push_back("the schemas stay in " + user + "'s " + b.label() +
                               ": a stable impl registers a kernel for an op a legacy TORCH_LIBRARY defines");
        }
      } else {
        s.edits.push_back({user, e.line, e.function + " is bound here with pybind11 (" + b.label() +
                                             "): register it as an op in a STABLE_TORCH_LIBRARY_IMPL block and call "
                                             "torch.ops from Python, or keep a legacy wrapper here until this module's step"});
      }
    }

    // Registration blocks of this step's own files.
    for (size_t f : groups_[g])
      for (const auto& b : blocks(files_[f])) {
        if (b.stable || b.kind == CodeBlock::Kind::PybindModule) continue;
        if (b.kind == CodeBlock::Kind::LibraryImpl) {
          s.builds.push_back(shown(f) + ": " + b.label() + " becomes STABLE_TORCH_LIBRARY_IMPL(" + b.ns + ", " +
                             b.dispatch_key + ", m) with m.impl(\"op\", TORCH_BOX(&kernel)); " +
                             defs_note(b.ns, g));
        } else if (b.kind == CodeBlock::Kind::LibraryDef) {
          std::string text = shown(f) + ": " + b.label() + " becomes STABLE_TORCH_LIBRARY(" + b.ns +
                             ", m) in this one change: a namespace has one def block, and loading "
                             "a STABLE_TORCH_LIBRARY and a legacy TORCH_LIBRARY of one namespace kills the process";
          if (t == 1)
            text += "; or the block stays in a legacy module for good: the stable impls of the earlier steps register "
                    "for its ops, and new ops can go in a STABLE_TORCH_LIBRARY_FRAGMENT(" + b.ns + ", m)";
          s.builds.push_back(text);
        } else {
          s.builds.push_back(shown(f) + ": " + b.label() + " becomes STABLE_TORCH_LIBRARY_FRAGMENT(" + b.ns +
                             ", m); fragments of one namespace may mix legacy and stable");
        }
      }
    if (t == 2) {
      s.keep_legacy_module = s.counts.blocked > 0;
      std::vector<std::string> modules;
      for (size_t f : groups_[g])
        for (const auto& b : blocks(files_[f]))
          if (b.kind == CodeBlock::Kind::PybindModule) modules.push_back(shown(f));
      s.builds.push_back(join(modules) + ": PYBIND11_MODULE needs torch/extension.h, which is not stable: " +
                         std::string(s.keep_legacy_module
                                         ? "keep it as a separate non-stable extension module built next to the "
                                           "stable one (its blocked uses have no stable equivalent)"
                                         : "replace its bindings by ops registered with STABLE_TORCH_LIBRARY that "
                                           "Python calls as torch.ops, or keep it as a separate non-stable module"));
    }
    if (position_[g] == 0)
      s.builds.push_back("a source whose legacy includes are all gone may be compiled with TORCH_TARGET_VERSION "
                         "(per-source flags, or a separate stable extension module); a source that still includes "
                         "a legacy header may not: ATen/core/TensorBase.h stops with #error under it");

    // Blockers inside the step: one line per blocker, API and line.
    std::vector<std::pair<std::string, size_t>> blocked;
    for (size_t f : groups_[g])
      for (const ApiUse* u : uses_in_[files_[f]]) {
        if (u->disposition != Disposition::Blocked) continue;
        std::string line = (u->blocker.empty() ? std::string("no-stable-equivalent") : u->blocker) + ": " + u->api +
                           " at " + shown(f) + ":" + std::to_string(u->location.line);
        auto same = std::find_if(blocked.begin(), blocked.end(), [&](const auto& b) { return b.first == line; });
        if (same != blocked.end()) ++same->second;
        else blocked.emplace_back(std::move(line), 1);
      }
    for (size_t i = 0; i < blocked.size() && i < 10; ++i)
      s.blockers.push_back(blocked[i].first + (blocked[i].second > 1 ? " (" + std::to_string(blocked[i].second) + " uses)" : ""));
    if (blocked.size() > 10) s.blockers.push_back("and " + std::to_string(blocked.size() - 10) + " more");

    for (size_t p : after_[g]) s.after.push_back(ids_[p]);
    std::sort(s.after.begin(), s.after.end(), [&](const std::string& a, const std::string& b) {
      return position_of(a) < position_of(b);
    });
    return s;
  }

  size_t position_of(const std::string& id) const {
    for (size_t g = 0; g < ids_.size(); ++g)
      if (ids_[g] == id) return position_[g];
    return 0;
  }

  // Where the defs of `ns` are while group g's impls move.
  std::string defs_note(const std::string& ns, size_t g) const {
    for (const auto& [path, list] : in_.blocks)
      for (const auto& b : list) {
        if (b.kind != CodeBlock::Kind::LibraryDef || b.ns != ns) continue;
        if (b.stable) return "the defs of " + ns + " are stable already (" + shown(path) + ")";
        auto it = index_.find(path);
        if (it != index_.end() && group_of_[it->second] == g) return "its defs move in the same step";
        return "the defs of " + ns + " may stay in the legacy " + b.label() + " of " + shown(path) +
               " meanwhile: a stable impl registers for an op a legacy TORCH_LIBRARY defines";
      }
    return "the defs of " + ns + " are not in the files analysed";
  }

  std::vector<LibraryPlan> libraries(const std::vector<PlanStep>&) const {
    std::map<std::string, LibraryPlan> by_ns;
    for (const auto& [path, list] : in_.blocks)
      for (const auto& b : list) {
        if (!b.is_library()) continue;
        LibraryPlan& lp = by_ns[b.ns];
        lp.ns = b.ns;
        LibraryBlockRef ref{shown(path), b.begin_line, b.dispatch_key, b.stable, {}};
        if (auto it = index_.find(path); it != index_.end()) ref.step = ids_[group_of_[it->second]];
        (b.kind == CodeBlock::Kind::LibraryImpl ? lp.impls : lp.defs).push_back(ref);
      }
    std::vector<LibraryPlan> out;
    for (auto& [ns, lp] : by_ns) {
      std::set<std::string> legacy_steps, impl_steps, def_steps;
      bool legacy_defs = false;
      for (const auto& d : lp.defs)
        if (!d.stable) {
          legacy_defs = true;
          if (!d.step.empty()) def_steps.insert(d.step), legacy_steps.insert(d.step);
        }
      for (const auto& i : lp.impls)
        if (!i.stable && !i.step.empty()) impl_steps.insert(i.step), legacy_steps.insert(i.step);
      auto name = [&](const std::string& id) { return "step " + std::to_string(position_of(id) + 1) + " (" + id + ")"; };
      auto names = [&](const std::set<std::string>& ids) {
        std::vector<std::string> v(ids.begin(), ids.end());
        std::sort(v.begin(), v.end(), [&](const auto& a, const auto& b) { return position_of(a) < position_of(b); });
        for (auto& x : v) x = name(x);
        return join(v);
      };
      if (legacy_steps.empty())
        lp.plan = "stable already: every block of " + ns + " is STABLE_TORCH_LIBRARY*";
      else if (legacy_steps.size() == 1)
        lp.plan = "the whole namespace moves in " + name(*legacy_steps.begin());
      else if (legacy_defs && !def_steps.empty())
        lp.plan = "the defs stay in the legacy TORCH_LIBRARY while the impls move (" + names(impl_steps) +
                  "); the defs move last, in " + names(def_steps) + ", or stay in a legacy module";
      else
        lp.plan = "the impls move step by step (" + names(impl_steps) + "); the defs are " +
                  (legacy_defs ? "legacy" : "stable") + " and each legacy or stable impl block registers for them";
      out.push_back(std::move(lp));
    }
    return out;
  }
};

}  // namespace

StepPlan plan_steps(const StepInputs& in) { return Planner(in).run(); }

}  // namespace torchabi::migration
