#include "analyzers/migration/include_graph.h"

#include <deque>
#include <filesystem>
#include <set>
#include <system_error>

#include "analyzers/migration/directive_scanner.h"
#include "analyzers/migration/fix_applier.h"
#include "common/input_error.h"

namespace torchabi::migration {

namespace fs = std::filesystem;

std::string normal_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  return p.lexically_normal().string();
}

std::string shown_path(const std::string& path) {
  std::error_code ec;
  std::string cwd = fs::current_path(ec).string();
  const std::string n = normal_path(path);
  if (cwd.empty() || cwd == "/") return n;
  cwd += "/";
  return n.starts_with(cwd) ? n.substr(cwd.size()) : n;
}

static std::string resolve(const IncludeDirective& inc, const fs::path& from_dir, const IncludeScanOptions& opts) {
  std::error_code ec;
  auto try_dir = [&](const fs::path& dir) -> std::string {
    fs::path candidate = (dir / inc.target).lexically_normal();
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    return {};
  };
  if (!inc.angled)
    if (auto hit = try_dir(from_dir); !hit.empty()) return hit;
  for (const auto& d : opts.include_dirs)
    if (auto hit = try_dir(fs::path(normal_path(d))); !hit.empty()) return hit;
  return {};
}

IncludeGraph scan_include_graph(const std::vector<std::string>& files, const IncludeScanOptions& opts) {
  IncludeGraph graph;
  std::deque<std::string> todo;
  std::set<std::string> seen;
  for (const auto& f : files) {
    std::string n = normal_path(f);
    if (seen.insert(n).second) todo.push_back(n);
  }
  while (!todo.empty()) {
    const std::string file = todo.front();
    todo.pop_front();
    std::string text;
    try {
      text = read_source_file(file);
    } catch (const InputError&) {
      continue;
    }
    auto& edges = graph[file];
    const fs::path dir = fs::path(file).parent_path();
    for (const auto& inc : scan_directives(text).includes) {
      const std::string target = resolve(inc, dir, opts);
      if (target.empty() || (opts.is_project && !opts.is_project(target))) continue;
      edges.push_back(target);
      if (seen.insert(target).second) todo.push_back(target);
    }
  }
  return graph;
}

}  // namespace torchabi::migration
