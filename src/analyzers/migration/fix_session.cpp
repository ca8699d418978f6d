#include "analyzers/migration/fix_session.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "analyzers/migration/header_rewrite.h"
#include "analyzers/migration/stable_ops/stable_ops.h"
#include "common/input_error.h"

namespace torchabi::migration {

namespace {

using FixKey = std::tuple<std::string, uint32_t, uint32_t, std::string>;
FixKey key(const findings::FixIt& f) { return {normal_path(f.file), f.begin_offset, f.end_offset, f.replacement}; }

FixApplier make_applier(const FixSessionInputs& in) {
  FixApplier a(in.include_unsafe);
  for (const auto& [file, ranges] : in.protected_ranges)
    for (const auto& r : ranges) a.protect(file, r);
  return a;
}

// The stable_ops.h of each directory whose files call its helpers: the helpers
// the applied fixes call plus those an earlier run wrote there (a header of
// the user's that happens to have the name is left alone, and the fixes that
// need it are reported instead).
void add_stable_ops_headers(const FixSessionInputs& in, const std::set<FixKey>& applied, RewritePlan& plan) {
  if (!in.stable_ops) return;
  std::map<std::string, std::set<std::string>> keys_by_dir;
  std::map<std::string, const findings::FixIt*> a_fix_in;
  for (const auto& u : in.uses)
    if (!u.stable_op.empty() && u.fix && applied.count(key(*u.fix))) {
      const std::string dir = std::filesystem::path(normal_path(u.fix->file)).parent_path().string();
      keys_by_dir[dir].insert(u.stable_op);
      a_fix_in.emplace(dir, &*u.fix);
    }
  for (auto& [dir, keys] : keys_by_dir) {
    const std::string path = (std::filesystem::path(dir) / stable_ops::kHeaderName).string();
    std::string before;
    if (std::filesystem::exists(path)) {
      try {
        before = read_source_file(path);
      } catch (const InputError&) {
        plan.rejected.push_back({*a_fix_in[dir], "cannot read " + path});
        continue;
      }
      auto earlier = stable_ops::Generator::keys_of(before);
      if (!earlier) {
        plan.rejected.push_back({*a_fix_in[dir], path + " exists and was not written by torchabi: the helpers "
                                                        "its rewrites call were not written"});
        continue;
      }
      keys.insert(earlier->begin(), earlier->end());
    }
    std::string after = in.stable_ops->header(keys);
    if (after == before) continue;
    plan.files.push_back({path, std::move(before), std::move(after), {}, {}});
  }
  std::sort(plan.files.begin(), plan.files.end(),
            [](const FileRewrite& a, const FileRewrite& b) { return a.path < b.path; });
}

}  // namespace

RewritePlan plan_fixes(const FixSessionInputs& in) {
  // Pass 1: lint's fix-its (those on include lines are replaced by the header rewrite).
  FixApplier first = make_applier(in);
  for (const auto& u : in.uses)
    if (u.fix && !u.is_include) first.add(*u.fix);
  RewritePlan one = first.plan();

  std::set<FixKey> applied;
  std::map<std::string, FileRewrite*> by_file;
  for (auto& f : one.files) {
    by_file[normal_path(f.path)] = &f;
    for (const auto& fx : f.applied) applied.insert(key(fx));
  }

  // Which files still use legacy APIs after pass 1, and which files include them.
  std::set<std::string> remaining;
  std::map<std::string, std::string> shown;      // normal path -> path as lint reported it
  std::map<std::string, std::vector<LegacyInclude>> legacy_lines;
  std::map<std::string, std::vector<std::string>> needed;  // headers of the replacements that went in
  std::set<std::pair<std::string, std::string>> rewritten;  // (file, api) with a fix that went in
  for (const auto& u : in.uses)
    if (!u.is_include && u.fix && applied.count(key(*u.fix))) rewritten.emplace(normal_path(u.location.file), u.api);
  auto resolved_by_follow = [&](const ApiUse& u, const std::string& file) {
    for (const auto& t : u.follows)
      if (rewritten.count({file, t})) return true;
    return false;
  };
  for (const auto& u : in.uses) {
    const std::string n = normal_path(u.location.file);
    shown.emplace(n, u.location.file);
    if (u.is_include) legacy_lines[n].push_back({u.location.line, u.api});
    else if (u.fix && applied.count(key(*u.fix))) {
      if (!u.header.empty()) needed[normal_path(u.fix->file)].push_back(u.header);
    } else if (!resolved_by_follow(u, n)) {
      remaining.insert(n);
    }
  }
  std::map<std::string, std::set<std::string>> included_by;
  for (const auto& [from, tos] : in.includes)
    for (const auto& to : tos) included_by[to].insert(from);
  auto still_needed = [&](const std::string& file) {
    std::set<std::string> seen{file};
    std::vector<std::string> stack{file};
    while (!stack.empty()) {
      std::string cur = stack.back();
      stack.pop_back();
      if (remaining.count(cur)) return true;
      for (const auto& up : included_by[cur])
        if (seen.insert(up).second) stack.push_back(up);
    }
    return false;
  };

  // Pass 2: the accepted fixes again, plus the header rewrite of every file
  // that changed or includes a legacy header.
  FixApplier second = make_applier(in);
  std::set<std::string> files;
  for (const auto& [n, _] : by_file) files.insert(n);
  for (const auto& [n, _] : legacy_lines) files.insert(n);
  for (const auto& n : files) {
    HeaderRewriteInput h;
    h.file = shown.count(n) ? shown[n] : by_file[n]->path;
    auto it = by_file.find(n);
    if (it != by_file.end()) {
      h.text = it->second->before;
      for (const auto& fx : it->second->edits) second.add(fx);
      h.file = it->second->path;
      h.needed = needed[n];
    } else {
      try {
        h.text = read_source_file(h.file);
      } catch (const InputError&) {
        continue;  // lint already reported what it could not read
      }
    }
    auto ll = legacy_lines.find(n);
    if (ll != legacy_lines.end()) h.legacy = ll->second;
    h.legacy_still_needed = still_needed(n);
    for (auto& fx : header_fixes(h)) second.add(fx);
  }
  RewritePlan two = second.plan();
  // Pass 2 re-applied pass 1's edits, composed (fix_nesting.h): report the
  // fix-its they came from, nested ones included.
  for (auto& f : two.files) {
    auto it = by_file.find(normal_path(f.path));
    if (it == by_file.end()) continue;
    std::set<FixKey> edits;
    for (const auto& e : it->second->edits) edits.insert(key(e));
    std::vector<findings::FixIt> given = it->second->applied;
    for (auto& fx : f.applied)
      if (!edits.count(key(fx))) given.push_back(std::move(fx));
    f.applied = std::move(given);
  }
  add_stable_ops_headers(in, applied, two);
  two.already_applied += one.already_applied;
  two.rejected.insert(two.rejected.begin(), one.rejected.begin(), one.rejected.end());
  return two;
}

}  // namespace torchabi::migration
