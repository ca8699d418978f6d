#include "inputs/project/source_sweep.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "inputs/project/torch_include_kind.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

bool is_source(const fs::path& p) {
  static const std::set<std::string> kExt = {".cpp", ".cc", ".cxx", ".c++", ".cu", ".mm"};
  return kExt.count(p.extension().string()) > 0;
}

bool is_header(const fs::path& p) {
  static const std::set<std::string> kExt = {".h", ".hpp", ".hh", ".cuh", ".hxx", ".inl"};
  return kExt.count(p.extension().string()) > 0;
}

// Not the project's own code, or not code at all.
bool skipped_dir(const std::string& name) {
  static const std::set<std::string> kNames = {"build", "dist", "venv", "env", "site-packages", "node_modules",
                                               "third_party", "third-party", "3rdparty", "external", "externals",
                                               "__pycache__", "submodules", "vendor"};
  return name.starts_with(".") || kNames.count(name) > 0 || name.ends_with(".egg-info");
}

struct Walk {
  std::vector<std::string> sources;       // every C++/CUDA source
  std::vector<std::string> header_dirs;   // directories holding headers
  std::vector<std::string> headers;       // the headers themselves
};

Walk walk(const fs::path& dir) {
  Walk w;
  std::set<std::string> dirs;
  std::error_code ec;
  size_t seen = 0;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++seen > 20 * kMaxSweptFiles) break;
    std::error_code e2;
    if (it->is_symlink(e2)) {
      if (it->is_directory(e2)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(e2)) {
      if (skipped_dir(it->path().filename().string())) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(e2)) continue;
    if (is_source(it->path()) && w.sources.size() < kMaxSweptFiles) w.sources.push_back(it->path().lexically_normal().string());
    else if (is_header(it->path())) {
      dirs.insert(it->path().parent_path().lexically_normal().string());
      if (w.headers.size() < 4 * kMaxSweptFiles) w.headers.push_back(it->path().lexically_normal().string());
    }
  }
  std::sort(w.sources.begin(), w.sources.end());
  w.header_dirs.assign(dirs.begin(), dirs.end());
  return w;
}

}  // namespace

bool has_sources(const std::string& dir) { return !walk(fs::absolute(dir).lexically_normal()).sources.empty(); }

std::vector<std::string> project_headers(const std::string& dir) { return walk(fs::absolute(dir).lexically_normal()).headers; }

ProjectBuild sweep_sources(const std::string& dir, const TorchLocation& torch, const std::vector<std::string>& defines,
                           const std::string& why) {
  const fs::path root = fs::absolute(dir).lexically_normal();
  const Walk w = walk(root);
  ProjectBuild b;
  b.build_file = root.string();
  b.db.path = root.string();
  // Only what is meant to be stable is held to the stable ABI: a repository
  // that ports part of its code keeps legacy files its build does not ship as
  // stable, and without the build there is no telling which those are.
  std::vector<std::string> cxx, nvcc;
  size_t legacy = 0;
  TorchIncludeGraph graph(w.headers);
  for (const auto& s : w.sources) {
    const TorchIncludeKind kind = graph.kind(s);
    legacy += kind == TorchIncludeKind::Legacy;
    if (kind == TorchIncludeKind::Stable) (s.ends_with(".cu") ? nvcc : cxx).push_back(s);
  }
  // The project's own headers: its root and every directory that holds
  // some, the way a build's include_dirs usually name them.
  std::vector<std::string> flags = {"-I" + root.string()};
  for (const auto& d : w.header_dirs)
    if (d != root.string() && flags.size() < 64) flags.push_back("-I" + d);
  for (const auto& i : torch.include_dirs) flags.push_back("-I" + i);
  for (const auto& d : defines) flags.push_back("-D" + d);
  flags.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  flags.push_back(torch.std_flag.empty() ? "-std=c++17" : torch.std_flag);
  auto add = [&](const std::string& compiler, const std::vector<std::string>& sources) {
    if (sources.empty()) return;
    BuildConfiguration c;
    // "/x/proj/" (from "proj/." or "."): the directory's name, not "".
    c.unit = "sources of " + (root.has_filename() ? root : root.parent_path()).filename().string();
    c.compiler = compiler;
    c.platform = "linux";
    c.method = "sources swept: the build was not understood";
    c.file = root.string();
    c.sources = sources;
    c.arguments.push_back(compiler == "nvcc" ? "nvcc" : "c++");
    c.arguments.insert(c.arguments.end(), flags.begin(), flags.end());
    if (compiler != "nvcc") c.arguments.push_back("-fPIC");
    c.directory = root.string();
    b.configurations.push_back(std::move(c));
  };
  add("cxx", cxx);
  add("nvcc", nvcc);
  b.facts.emplace_back("build description",
                       "not understood (" + why + "): " + std::to_string(cxx.size() + nvcc.size()) + " of " +
                           std::to_string(w.sources.size()) +
                           " C++/CUDA sources include only stable PyTorch headers (themselves or through the project's headers) and are linted with the flags that "
                           "could be determined (include directories, torch headers, -D), not the build's; " +
                           std::to_string(legacy) + " that include ATen/c10 headers are not held to the stable ABI");
  b.notes.push_back({root.string(), 0,
                     "the build was not understood (" + why +
                         "): sources were linted without the build's flags (TORCH_TARGET_VERSION, USE_CUDA and "
                         "other macros it sets are unknown, so findings that depend on them are not reported); "
                         "give the real build with a compile database (build the project, then check: "
                         "compile_commands.json or build/temp.*/build.ninja), or the values with -D NAME=VALUE"});
  fill_compile_db(b, "linux");
  return b;
}

}  // namespace torchabi::inputs
