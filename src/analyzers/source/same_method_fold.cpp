#include "analyzers/source/same_method_fold.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace torchabi::source {

namespace {

constexpr const char* kRule = "source-unstable-api";

// The class a same-method call keeps its spelling on ("torch::stable::Tensor"
// for a call replaced by "torch::stable::Tensor::dim"), or "" when `f` is not
// such a call.
std::string same_method_class(const findings::Finding& f, const Replacements& reps) {
  if (f.rule != kRule || f.location.symbol.empty()) return {};
  auto m = reps.find(f.location.symbol);
  if (!m || !m->replacement || m->entry->style != ReplacementStyle::SameMethod) return {};
  if (std::find(f.notes.begin(), f.notes.end(), kTemplateArgumentsNote) != f.notes.end()) return {};
  auto p = m->replacement->rfind("::");
  return p == std::string::npos ? std::string() : m->replacement->substr(0, p);
}

// The stable type a finding of a legacy type is replaced by, or "".
std::string type_replacement(const findings::Finding& f, const Replacements& reps) {
  if (f.rule != kRule || f.location.symbol.empty()) return {};
  auto m = reps.find(f.location.symbol);
  if (!m || !m->replacement || m->entry->kind != "type") return {};
  return *m->replacement;
}

bool earlier(const findings::Location& a, const findings::Location& b) {
  return std::tie(a.line, a.column) < std::tie(b.line, b.column);
}

std::string method_name(const std::string& symbol) {
  auto p = symbol.rfind("::");
  return (p == std::string::npos ? symbol : symbol.substr(p + 2)) + "()";
}

// "dim() at 12:5, 14:3; size() at 13:7 (in other.cpp)": grouped by method,
// in the order the methods first appear.
std::string describe(const std::vector<findings::Location>& calls, const std::string& host_file) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> at;
  for (const auto& l : calls) {
    const std::string m = method_name(l.symbol);
    if (!at.count(m)) order.push_back(m);
    std::string pos = std::to_string(l.line) + ":" + std::to_string(l.column);
    if (l.file != host_file) pos += " in " + std::filesystem::path(l.file).filename().string();
    at[m].push_back(pos);
  }
  std::string out;
  for (const auto& m : order) {
    if (!out.empty()) out += "; ";
    out += m + " at ";
    for (size_t i = 0; i < at[m].size(); ++i) out += (i ? ", " : "") + at[m][i];
  }
  return out;
}

}  // namespace

size_t fold_same_method_calls(findings::Report& report, const Replacements& reps) {
  auto& fs = report.findings;
  // For each stable class, the type finding to fold into: per file, and the
  // first in the report as the fallback for calls in files without one.
  std::map<std::pair<std::string, std::string>, size_t> host_in_file;
  std::map<std::string, size_t> any_host;
  for (size_t i = 0; i < fs.size(); ++i) {
    const std::string cls = type_replacement(fs[i], reps);
    if (cls.empty()) continue;
    auto key = std::make_pair(cls, fs[i].location.file);
    auto it = host_in_file.find(key);
    if (it == host_in_file.end() || earlier(fs[i].location, fs[it->second].location)) host_in_file[key] = i;
    any_host.emplace(cls, i);
  }
  std::map<size_t, std::vector<findings::Location>> folded;
  std::vector<bool> drop(fs.size(), false);
  for (size_t i = 0; i < fs.size(); ++i) {
    const std::string cls = same_method_class(fs[i], reps);
    if (cls.empty()) continue;
    size_t host;
    if (auto it = host_in_file.find({cls, fs[i].location.file}); it != host_in_file.end()) host = it->second;
    else if (auto any = any_host.find(cls); any != any_host.end()) host = any->second;
    else continue;
    folded[host].push_back(fs[i].location);
    drop[i] = true;
  }
  for (auto& [host, calls] : folded) {
    std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
      return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
    });
    const std::string cls = type_replacement(fs[host], reps);
    const size_t n = calls.size();
    fs[host].notes.push_back("also covers " + std::to_string(n) + (n == 1 ? " method call" : " method calls") +
                             " written the same way on " + cls + " (no change needed once the type is " + cls +
                             "): " + describe(calls, fs[host].location.file));
  }
  size_t kept = 0;
  for (size_t i = 0; i < fs.size(); ++i)
    if (!drop[i]) {
      if (kept != i) fs[kept] = std::move(fs[i]);
      ++kept;
    }
  const size_t removed = fs.size() - kept;
  fs.resize(kept);
  return removed;
}

}  // namespace torchabi::source
