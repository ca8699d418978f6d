#include "inputs/project/torch_headers_fallback.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "common/text.h"
#include "inputs/project/cmake_stand_ins.h"
#include "inputs/project/source_sweep.h"
#include "inputs/project/torch_include_kind.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace torch_headers_fallback_detail {

bool holds_torch_headers(const std::string& dir) {
  std::error_code ec;
  return fs::is_directory(fs::path(dir) / "torch/csrc/stable", ec) ||
         fs::is_directory(fs::path(dir) / "torch/headeronly", ec);
}

// The include directories of a compile command (-I, -isystem, -iquote; joined or separate).
std::vector<std::string> include_dirs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 1; i < args.size(); ++i) {
    for (const char* flag : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      const std::string f = flag;
      if (args[i] == f && i + 1 < args.size()) {
        out.push_back(args[++i]);
        break;
      }
      if (args[i].size() > f.size() && args[i].starts_with(f)) {
        out.push_back(args[i].substr(f.size()));
        break;
      }
    }
  }
  return out;
}

}  // namespace torch_headers_fallback_detail

void add_torch_headers_where_missing(ProjectBuild& b, const TorchLocation& torch) {
  using namespace torch_headers_fallback_detail;
  const std::vector<std::string> torch_dirs = torch_only_include_dirs(torch);
  if (torch_dirs.empty()) return;
  std::vector<std::string> given;
  std::optional<TorchIncludeGraph> graph;  // built when a configuration lacks the headers
  for (auto& c : b.configurations) {
    const auto dirs = include_dirs(c.arguments);
    if (std::any_of(dirs.begin(), dirs.end(), holds_torch_headers)) continue;
    // Only where a source includes PyTorch (itself or through the project's headers).
    if (!graph) graph.emplace(project_headers(fs::path(b.build_file).parent_path().string()));
    const bool includes_torch = std::any_of(c.sources.begin(), c.sources.end(), [&](const std::string& s) {
      const std::string path = fs::path(s).is_absolute() ? s : (fs::path(c.directory) / s).string();
      return graph->kind(path) != TorchIncludeKind::None;
    });
    if (!includes_torch) continue;
    for (const auto& d : torch_dirs) {
      c.arguments.push_back("-isystem");
      c.arguments.push_back(d);
    }
    given.push_back(c.label());
  }
  if (!given.empty())
    b.facts.emplace_back("torch headers added",
                         text::join(given, ", ") +
                             ": the build's include directories hold no PyTorch headers (a download or a path only a "
                             "build machine has): the headers in use were added after them");
}

}  // namespace torchabi::inputs
