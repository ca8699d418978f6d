#include "inputs/project/project_build.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

bool has_std(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a.starts_with("-std=") || a.starts_with("--std")) return true;
  return false;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

CompileCommand setuptools_command(const ExtensionSpec& ext, const std::string& source, const std::string& dir,
                                  const TorchLocation& torch) {
  const bool cu = source.ends_with(".cu");
  CompileCommand c;
  c.file = source;
  c.directory = dir;
  // As BuildExtension on Linux: include_dirs (the extension's, then torch's
  // and Python's), define_macros, the compiler's extra arguments, then the
  // flags it adds itself; its default -std only when none was given.
  c.arguments.push_back(cu ? "nvcc" : "c++");
  for (const auto& i : ext.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& i : torch.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& [name, value] : ext.define_macros) c.arguments.push_back("-D" + name + (value ? "=" + *value : ""));
  const auto& extra = cu ? ext.nvcc_args : ext.cxx_args;
  c.arguments.insert(c.arguments.end(), extra.begin(), extra.end());
  c.arguments.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  if (ext.py_limited_api && !torch.limited_api.empty()) c.arguments.push_back("-DPy_LIMITED_API=" + torch.limited_api);
  if (!ext.name.empty()) c.arguments.push_back("-DTORCH_EXTENSION_NAME=" + ext.name.substr(ext.name.rfind('.') + 1));
  if (!has_std(extra) && !torch.std_flag.empty()) c.arguments.push_back(torch.std_flag);
  if (!cu) c.arguments.push_back("-fPIC");
  c.arguments.push_back("-c");
  c.arguments.push_back(source);
  return c;
}

std::optional<std::string> find_build_description(const std::string& dir) {
  for (const char* name : {"setup.py", "CMakeLists.txt"}) {
    const fs::path file = fs::path(dir) / name;
    std::error_code ec;
    // A dangling link is still the project's file: reading it fails with its name.
    if (fs::exists(file, ec) || fs::is_symlink(file, ec)) return file.string();
  }
  return std::nullopt;
}

CompileCommand cmake_command(const CMakeTarget& t, const std::string& source, const TorchLocation& torch) {
  const bool cu = source.ends_with(".cu");
  CompileCommand c;
  c.file = source;
  c.directory = t.directory;
  c.arguments.push_back(cu ? "nvcc" : "c++");
  // CMake defines <target>_EXPORTS when compiling a shared library or module.
  if (t.type == "SHARED" || t.type == "MODULE") c.arguments.push_back("-D" + t.name + "_EXPORTS");
  for (const auto& d : t.definitions) c.arguments.push_back("-D" + d);
  auto add_include = [&](const std::string& dir, bool system) {
    if (dir == kTorchIncludes) {
      for (const auto& i : torch.include_dirs) c.arguments.insert(c.arguments.end(), {"-isystem", i});
      return;
    }
    if (system) c.arguments.insert(c.arguments.end(), {"-isystem", dir});
    else c.arguments.push_back("-I" + dir);
  };
  for (const auto& i : t.include_dirs) add_include(i, false);
  for (const auto& i : t.system_include_dirs) add_include(i, true);
  if (t.links_torch) add_include(kTorchIncludes, true);
  if (!t.cxx_standard.empty()) c.arguments.push_back("-std=" + std::string(t.cxx_extensions && !cu ? "gnu++" : "c++") + t.cxx_standard);
  c.arguments.insert(c.arguments.end(), t.options.begin(), t.options.end());
  c.arguments.push_back("-c");
  c.arguments.push_back(source);
  return c;
}

namespace {

ProjectBuild read_cmake_build(const std::string& file, const TorchLocation& torch,
                              const std::vector<std::string>& defines) {
  std::map<std::string, std::string> cache;
  for (const auto& d : defines) {
    const size_t eq = d.find('=');
    cache[d.substr(0, eq)] = eq == std::string::npos ? "ON" : d.substr(eq + 1);
  }
  CMakeProject project = read_cmake_lists(file, cache);
  ProjectBuild b;
  b.build_file = file;
  b.db.path = file;
  b.notes = project.notes;
  b.facts.emplace_back("build description", file + " (read, not configured)");
  bool torch_used = false;
  for (const auto& t : project.targets) {
    torch_used |= t.links_torch ||
                  std::find(t.include_dirs.begin(), t.include_dirs.end(), std::string(kTorchIncludes)) != t.include_dirs.end();
    if (t.sources.empty()) continue;
    const std::string label = "target " + t.name;
    b.facts.emplace_back(label, fs::path(t.file).filename().string() + " line " + std::to_string(t.line) + ", " +
                                    std::to_string(t.sources.size()) + " sources");
    std::set<std::string> shown;
    for (const auto& src : t.sources) {
      CompileCommand c = cmake_command(t, src, torch);
      if (shown.insert(c.arguments[0]).second)
        b.facts.emplace_back(label + " " + c.arguments[0] + " flags",
                             join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2)));
      b.db.commands.push_back(std::move(c));
    }
  }
  if (torch_used) b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs) : torch.how);
  return b;
}

}  // namespace

ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const std::vector<std::string>& defines) {
  const fs::path setup(build_file);
  const std::string dir = setup.parent_path().string();
  if (setup.filename() == "CMakeLists.txt") return read_cmake_build(build_file, torch, defines);
  SetupPy spec = read_setup_py(setup.string());
  std::error_code ec;
  if (spec.extensions.empty() && fs::is_regular_file(setup.parent_path() / "CMakeLists.txt", ec)) {
    ProjectBuild b = read_cmake_build((setup.parent_path() / "CMakeLists.txt").string(), torch, defines);
    b.facts.insert(b.facts.begin(), {"setup.py", "declares no CppExtension or CUDAExtension: CMakeLists.txt was read"});
    return b;
  }
  ProjectBuild b;
  b.build_file = setup.string();
  b.db.path = setup.string();
  b.notes = spec.notes;
  b.facts.emplace_back("build description", setup.string() + " (read, not run)");
  b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs) : torch.how);
  for (const auto& ext : spec.extensions) {
    const std::string label = "extension " + (ext.name.empty() ? std::string("(unnamed)") : ext.name);
    b.facts.emplace_back(label, std::string(ext.cuda ? "CUDAExtension" : "CppExtension") + " at line " +
                                    std::to_string(ext.line) + ", " + std::to_string(ext.sources.size()) + " sources");
    // Each compiler's flags once, in full: what every source it compiles gets.
    std::set<std::string> shown;
    for (const auto& src : ext.sources) {
      CompileCommand c = setuptools_command(ext, src, dir, torch);
      for (const auto& d : defines) c.arguments.insert(c.arguments.end() - 2, "-D" + d);
      if (shown.insert(c.arguments[0]).second)
        b.facts.emplace_back(label + " " + c.arguments[0] + " flags",
                             join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2)));
      b.db.commands.push_back(std::move(c));
    }
  }
  return b;
}

}  // namespace torchabi::inputs
