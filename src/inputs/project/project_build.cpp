#include "inputs/project/project_build.h"

#include "common/input_error.h"
#include "common/text.h"
#include "inputs/project/cmake_file_api.h"
#include "inputs/project/environment/project_interpreter.h"
#include "inputs/project/source_sweep.h"
#include "inputs/project/jit_load.h"
#include "inputs/project/jit_run.h"
#include "inputs/project/stable_branch_macros.h"
#include "inputs/project/torch_headers_fallback.h"
#include "inputs/project/legacy_by_design.h"
#include "inputs/project/pyproject_toml.h"
#include "inputs/project/setup_run.h"
#include "inputs/project/stated_requirements.h"

#include <algorithm>
#include <cctype>
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

using text::join;

}  // namespace

std::string BuildConfiguration::label() const {
  std::string what = backend.empty() ? compiler : backend + (compiler == "nvcc" ? ", nvcc" : "");
  return unit + " (" + what + (platform.empty() || platform == "linux" ? std::string() : ", " + platform) + ")";
}

void add_to_configuration(ProjectBuild& b, const BuildConfiguration& proto, const CompileCommand& c) {
  std::vector<std::string> args(c.arguments.begin(), c.arguments.end() - 2);  // without -c SOURCE
  for (auto& conf : b.configurations) {
    if (conf.unit == proto.unit && conf.compiler == proto.compiler && conf.backend == proto.backend &&
        conf.platform == proto.platform && conf.arguments == args && conf.directory == c.directory) {
      if (std::find(conf.sources.begin(), conf.sources.end(), c.file) == conf.sources.end()) conf.sources.push_back(c.file);
      return;
    }
  }
  BuildConfiguration conf = proto;
  conf.arguments = std::move(args);
  conf.directory = c.directory;
  conf.sources = {c.file};
  b.configurations.push_back(std::move(conf));
}

void fill_compile_db(ProjectBuild& b, const std::string& platform) {
  mark_legacy_by_design(b, platform);
  b.db.path = b.build_file;
  b.db.commands.clear();
  b.db.left_out.clear();
  // A legacy configuration's file that a stable one compiles too (a binding
  // with #if defined(CUDA_KERNEL) ... #else legacy code) is compiled for
  // reference: its #else branch is then code another build compiles on
  // purpose, not an inactive branch to warn about.
  std::set<std::string> stable_sources;
  for (const auto& conf : b.configurations)
    if (conf.platform == platform && conf.stable_expected) stable_sources.insert(conf.sources.begin(), conf.sources.end());
  std::set<std::string> absent;
  for (const auto& conf : b.configurations) {
    if (conf.platform != platform) continue;
    for (const auto& src : conf.sources) {
      if (!conf.stable_expected && !stable_sources.count(src)) {
        if (std::find(b.db.left_out.begin(), b.db.left_out.end(), src) == b.db.left_out.end())
          b.db.left_out.push_back(src);
        continue;
      }
      // A source the build writes (a generated placeholder, autogen output)
      // or that is missing is the build's business, not a reason to stop:
      // the others are linted, and the report says which was not.
      if (std::error_code ec; !fs::is_regular_file(fs::path(conf.directory) / src, ec)) {
        if (absent.insert(src).second)
          b.notes.push_back({conf.file, conf.line,
                             "source " + src + " of " + conf.label() +
                                 " is not in the project (the build generates it, or it is missing): not linted"});
        continue;
      }
      CompileCommand c;
      c.file = src;
      c.directory = conf.directory;
      c.arguments = conf.arguments;
      c.arguments.push_back("-c");
      c.arguments.push_back(src);
      c.label = conf.label();
      c.reference_only = !conf.stable_expected;
      b.db.commands.push_back(std::move(c));
    }
  }
}

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

// The directory, with a trailing separator: its parent_path() is then the
// directory itself, where read_project_build looks for pyproject.toml.
static std::string jit_dir(const std::string& dir) { return (fs::path(dir) / "").string(); }

std::optional<std::string> find_build_description(const std::string& dir) {
  for (const char* name : {"build.toml", "setup.py", "pyproject.toml", "CMakeLists.txt"}) {
    const fs::path file = fs::path(dir) / name;
    std::error_code ec;
    // A dangling link is still the project's file: reading it fails with its name.
    if (!fs::exists(file, ec) && !fs::is_symlink(file, ec)) continue;
    // Most pyproject.toml files only name a backend: they count when they
    // describe the compilation (or when nothing else does, to say so).
    if (std::string(name) == "pyproject.toml" && fs::exists(fs::path(dir) / "CMakeLists.txt", ec)) {
      try {
        if (!read_pyproject(file.string()).scikit_build) continue;
      } catch (const std::exception&) {
        // Unreadable: reading it again later reports it with its name.
      }
    }
    // A pyproject.toml that declares nothing (a ComfyUI node's registry
    // entry) gives way to the cpp_extension.load() calls of the modules.
    if (std::string(name) == "pyproject.toml") {
      try {
        const PyProject p = read_pyproject(file.string());
        if (!p.scikit_build && p.extensions.empty() && !find_jit_load_files(dir).empty()) return jit_dir(dir);
      } catch (const std::exception&) {
      }
    }
    return file.string();
  }
  // Only Python modules that build extensions just-in-time: the directory.
  if (!find_jit_load_files(dir).empty()) return jit_dir(dir);
  return std::nullopt;
}

CompileCommand kernel_builder_command(const BuildToml& b, const KernelComponent& comp, const std::string& source,
                                      const std::string& dir, const std::string& stable_abi,
                                      const TorchLocation& torch) {
  const bool cu = source.ends_with(".cu");
  CompileCommand c;
  c.file = source;
  c.directory = dir;
  c.arguments.push_back(cu ? "nvcc" : "c++");
  // The generated project names the op namespace after the kernel (plus a
  // build hash torchabi cannot know) and links every component to torch.
  std::string python_name = b.name;
  std::replace(python_name.begin(), python_name.end(), '-', '_');
  if (!python_name.empty()) c.arguments.push_back("-DTORCH_EXTENSION_NAME=_" + python_name);
  if (const std::string v = target_version_macro(stable_abi); !v.empty())
    c.arguments.push_back("-DTORCH_TARGET_VERSION=" + v);
  for (const auto& i : comp.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& i : torch.include_dirs) c.arguments.insert(c.arguments.end(), {"-isystem", i});
  if (!torch.std_flag.empty()) c.arguments.push_back(torch.std_flag);
  const auto& extra = cu ? comp.cuda_flags : comp.cxx_flags;
  c.arguments.insert(c.arguments.end(), extra.begin(), extra.end());
  if (!cu) c.arguments.push_back("-fPIC");
  c.arguments.push_back("-c");
  c.arguments.push_back(source);
  return c;
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
  // CXX_STANDARD is the C++ compiler's; a .cu file gets CUDA_STANDARD's, or nvcc's default.
  if (const std::string& standard = cu ? t.cuda_standard : t.cxx_standard; !standard.empty())
    c.arguments.push_back("-std=" + std::string(t.cxx_extensions && !cu ? "gnu++" : "c++") + standard);
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
                             join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2), " "));
      BuildConfiguration proto;
      proto.unit = label;
      proto.compiler = src.ends_with(".cu") ? "nvcc" : "cxx";
      proto.platform = "linux";
      proto.method = "CMakeLists.txt read, not configured";
      proto.file = t.file;
      proto.line = t.line;
      add_to_configuration(b, proto, c);
    }
  }
  if (torch_used) b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs, " ") : torch.how);
  if (!project.unknown_conditions.empty()) {
    // What a configure would have set decides branches here: the flags read
    // may lack what those branches add (vLLM's USE_CUDA under
    // `if(VLLM_GPU_LANG STREQUAL "CUDA")`, itself set when CUDA_FOUND).
    std::vector<std::string> names(project.unknown_conditions.begin(),
                                   project.unknown_conditions.begin() + std::min<size_t>(6, project.unknown_conditions.size()));
    std::string listed = join(names, ", ");
    if (project.unknown_conditions.size() > names.size())
      listed += " and " + std::to_string(project.unknown_conditions.size() - names.size()) + " more";
    const std::string why = "if() conditions on values only a configure sets (" + listed +
                            ") were taken as false when CMakeLists.txt was read";
    for (auto& c : b.configurations) c.unresolved += (c.unresolved.empty() ? "" : "; ") + why;
    b.notes.push_back({file, 0, why + ": the flags under those branches are unknown; configure it (--run-build) or give them with -D"});
  }
  return b;
}


// The release TORCH_TARGET_VERSION names for a component: its backend's, else
// the one for every backend; the binding, built for every backend, gets the
// oldest of them (what the sources must compile at).
std::string stable_abi_for(const BuildToml& b, const KernelComponent& c) {
  if (auto it = b.stable_abi.find(c.backend); !c.backend.empty() && it != b.stable_abi.end()) return it->second;
  if (auto it = b.stable_abi.find("*"); it != b.stable_abi.end()) return it->second;
  if (!c.backend.empty()) return "";
  std::string oldest;
  for (const auto& [backend, release] : b.stable_abi) {
    const std::string v = target_version_macro(release);
    if (!v.empty() && (oldest.empty() || v < target_version_macro(oldest))) oldest = release;
  }
  return oldest;
}

ProjectBuild read_kernel_builder_build(const std::string& file, const TorchLocation& torch,
                                       const std::vector<std::string>& defines) {
  BuildToml spec = read_build_toml(file);
  const std::string dir = fs::path(file).parent_path().string();
  ProjectBuild b;
  b.build_file = file;
  b.db.path = file;
  b.notes = spec.notes;
  b.facts.emplace_back("build description", file + " (kernel-builder, read)");
  b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs, " ") : torch.how);
  if (spec.stable_abi.empty()) b.facts.emplace_back("stable ABI", "[torch] stable-abi not set: no TORCH_TARGET_VERSION");
  for (const auto& [backend, release] : spec.stable_abi)
    b.facts.emplace_back("stable ABI" + (backend == "*" ? std::string() : " (" + backend + ")"),
                         release + " -> TORCH_TARGET_VERSION=" + target_version_macro(release));
  // kernel-builder compiles the binding once per backend, with that
  // backend's *_KERNEL macro; [torch] stable-abi names the backends held to
  // the stable ABI (none named: every backend is linted as before).
  std::vector<std::string> backends = spec.backends;
  if (backends.empty()) backends = {"cuda"};
  std::vector<std::string> legacy;
  auto stable_backend = [&](const std::string& backend) {
    return spec.stable_abi.empty() || spec.stable_abi.count("*") || spec.stable_abi.count(backend);
  };
  for (const auto& backend : backends)
    if (!stable_backend(backend)) legacy.push_back(backend);
  std::string legacy_list;
  for (const auto& l : legacy) legacy_list += (legacy_list.empty() ? "" : ", ") + l;
  if (!legacy.empty())
    b.facts.emplace_back("not stable", legacy_list + ": [torch] stable-abi does not list " +
                                           (legacy.size() == 1 ? "it" : "them") +
                                           ", so that code is legacy by design and not held to the stable ABI");
  for (const auto& comp : spec.components) {
    const std::string label = comp.name == "torch" ? std::string("torch binding") : "kernel " + comp.name;
    // Only what gcc/clang and nvcc compile here: Metal, ROCm and XPU
    // kernels need their own compilers and headers.
    if (!comp.backend.empty() && comp.backend != "cuda" && comp.backend != "cpu") {
      b.facts.emplace_back(label, comp.backend + " component at line " + std::to_string(comp.line) + ": not linted");
      continue;
    }
    b.facts.emplace_back(label, (comp.backend.empty() ? std::string("every backend") : comp.backend) + ", line " +
                                    std::to_string(comp.line) + ", " + std::to_string(comp.sources.size()) + " sources");
    const std::vector<std::string> comp_backends =
        comp.backend.empty() ? backends : std::vector<std::string>{comp.backend};
    for (const auto& backend : comp_backends) {
      KernelComponent as_built = comp;
      as_built.backend = backend;
      const std::string release = stable_abi_for(spec, as_built);
      std::string macro = backend;
      std::transform(macro.begin(), macro.end(), macro.begin(), [](unsigned char ch) { return std::toupper(ch); });
      std::set<std::string> shown;
      for (const auto& src : comp.sources) {
        CompileCommand c = kernel_builder_command(spec, comp, src, dir, release, torch);
        c.arguments.insert(c.arguments.begin() + 1, "-D" + macro + "_KERNEL");
        // kernel-builder's generated CMake (its preamble) defines USE_CUDA for
        // every file of a CUDA build.
        if (backend == "cuda") c.arguments.insert(c.arguments.begin() + 2, "-DUSE_CUDA=1");
        for (const auto& d : defines) c.arguments.insert(c.arguments.end() - 2, "-D" + d);
        if (shown.insert(c.arguments[0]).second && stable_backend(backend))
          b.facts.emplace_back(label + " (" + backend + ") " + c.arguments[0] + " flags",
                               join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2), " "));
        BuildConfiguration proto;
        proto.unit = label;
        proto.compiler = src.ends_with(".cu") ? "nvcc" : "cxx";
        proto.backend = backend;
        proto.platform = "linux";
        proto.method = "build.toml read as kernel-builder's per-backend rules";
        proto.file = file;
        proto.line = comp.line;
        proto.stable_expected = stable_backend(backend);
        add_to_configuration(b, proto, c);
      }
    }
  }
  return b;
}

// A setuptools extension without torch's BuildExtension: its own flags only.
CompileCommand plain_setuptools_command(const ExtensionSpec& ext, const std::string& source, const std::string& dir) {
  CompileCommand c;
  c.file = source;
  c.directory = dir;
  c.arguments.push_back("c++");
  for (const auto& i : ext.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& [name, value] : ext.define_macros) c.arguments.push_back("-D" + name + (value ? "=" + *value : ""));
  c.arguments.insert(c.arguments.end(), ext.cxx_args.begin(), ext.cxx_args.end());
  c.arguments.push_back("-fPIC");
  c.arguments.push_back("-c");
  c.arguments.push_back(source);
  return c;
}

ProjectBuild setuptools_build(const std::string& file, const std::vector<ExtensionSpec>& extensions,
                              std::vector<ProjectNote> notes, bool build_extension, const TorchLocation& torch,
                              const std::vector<std::string>& defines) {
  const std::string dir = fs::path(file).parent_path().string();
  ProjectBuild b;
  b.build_file = file;
  b.db.path = file;
  b.notes = std::move(notes);
  b.facts.emplace_back("build description", file + (file.ends_with(".py") ? " (read, not run)" : " (read)"));
  if (build_extension)
    b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs, " ") : torch.how);
  else
    b.facts.emplace_back("build_ext", "setuptools' own (not torch's BuildExtension): no torch flags are added");
  for (const auto& ext : extensions) {
    const std::string label = "extension " + (ext.name.empty() ? std::string("(unnamed)") : ext.name);
    b.facts.emplace_back(label, std::string(!build_extension ? "Extension" : ext.cuda ? "CUDAExtension" : "CppExtension") +
                                    " at line " + std::to_string(ext.line) + ", " + std::to_string(ext.sources.size()) +
                                    " sources");
    // Each compiler's flags once, in full: what every source it compiles gets.
    std::set<std::string> shown;
    for (const auto& src : ext.sources) {
      CompileCommand c = build_extension ? setuptools_command(ext, src, dir, torch) : plain_setuptools_command(ext, src, dir);
      for (const auto& d : defines) c.arguments.insert(c.arguments.end() - 2, "-D" + d);
      if (shown.insert(c.arguments[0]).second)
        b.facts.emplace_back(label + " " + c.arguments[0] + " flags",
                             join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end() - 2), " "));
      BuildConfiguration proto;
      proto.unit = label;
      proto.compiler = src.ends_with(".cu") ? "nvcc" : "cxx";
      proto.platform = "linux";
      proto.method = file.ends_with(".py") ? "setup.py read, not run" : "pyproject.toml read";
      proto.file = file;
      proto.line = ext.line;
      proto.unresolved = src.ends_with(".cu") ? ext.unresolved_nvcc : ext.unresolved_cxx;
      add_to_configuration(b, proto, c);
    }
  }
  return b;
}

ProjectBuild read_pyproject_build(const std::string& file, const TorchLocation& torch,
                                  const std::vector<std::string>& defines) {
  PyProject spec = read_pyproject(file);
  if (spec.scikit_build) {
    // scikit-build-core configures CMakeLists.txt with its cmake.define
    // values; the user's -D, given later on the command line, wins.
    std::vector<std::string> all = spec.cmake_defines;
    all.insert(all.end(), defines.begin(), defines.end());
    const std::string lists = (fs::path(spec.cmake_source_dir) / "CMakeLists.txt").string();
    std::error_code ec;
    if (!fs::exists(lists, ec)) throw InputError(file, "builds with scikit-build-core but " + lists + " does not exist");
    ProjectBuild b = read_cmake_build(lists, torch, all);
    b.notes.insert(b.notes.begin(), spec.notes.begin(), spec.notes.end());
    b.facts.insert(b.facts.begin(),
                   {"pyproject.toml", "scikit-build-core: CMakeLists.txt read" +
                                          (spec.cmake_defines.empty() ? std::string() : " with -D " + join(spec.cmake_defines, " "))});
    return b;
  }
  if (spec.extensions.empty())
    throw InputError(file, "declares no extension (no [[tool.setuptools.ext-modules]], no scikit-build-core), and "
                           "there is no setup.py, build.toml or CMakeLists.txt next to it");
  return setuptools_build(file, spec.extensions, spec.notes, spec.build_extension, torch, defines);
}

}  // namespace

namespace {

ProjectBuild read_statically(const std::string& build_file, const TorchLocation& torch,
                             const std::vector<std::string>& defines, const std::string& python) {
  const fs::path setup(build_file);
  // A directory (find_build_description): its modules' cpp_extension.load() calls.
  if (std::error_code ec; fs::is_directory(setup, ec)) return read_jit_load_build(build_file, {}, torch, defines, nullptr, python);
  if (setup.filename() == "CMakeLists.txt") return read_cmake_build(build_file, torch, defines);
  if (setup.filename() == "build.toml") return read_kernel_builder_build(build_file, torch, defines);
  if (setup.filename() == "pyproject.toml") return read_pyproject_build(build_file, torch, defines);
  SetupPy spec = read_setup_py(setup.string(), python);
  std::error_code ec;
  if (spec.extensions.empty() && fs::is_regular_file(setup.parent_path() / "CMakeLists.txt", ec)) {
    ProjectBuild b = read_cmake_build((setup.parent_path() / "CMakeLists.txt").string(), torch, defines);
    b.facts.insert(b.facts.begin(), {"setup.py", "declares no CppExtension or CUDAExtension: CMakeLists.txt was read"});
    return b;
  }
  if (spec.extensions.empty()) {
    // The package builds its extensions just-in-time instead.
    if (auto jit = find_jit_load_files(setup.parent_path().string()); !jit.empty()) {
      ProjectBuild b = read_jit_load_build(setup.parent_path().string(), jit, torch, defines, nullptr, python);
      b.notes.insert(b.notes.begin(), spec.notes.begin(), spec.notes.end());
      b.facts.insert(b.facts.begin(),
                     {"setup.py", "declares no CppExtension or CUDAExtension: cpp_extension.load() calls were read"});
      return b;
    }
  }
  ProjectBuild b = setuptools_build(setup.string(), spec.extensions, std::move(spec.notes), /*build_extension=*/true,
                                    torch, defines);
  // What the reading took as given, as the run of setup.py would (CUDA available).
  if (!spec.given.empty()) b.facts.emplace_back("setup.py read assuming", join(spec.given, "; "));
  return b;
}

}  // namespace

namespace {

// The CMakeLists.txt a configure starts from when `build_file` builds with
// CMake (itself, a setup.py that declares no extension, scikit-build-core),
// with the cache values the build description adds before the user's.
struct CMakeEntry {
  std::string lists;
  std::vector<std::string> defines;
  bool scikit_build = false;  // the frontend gives the interpreter too
  std::string copy_root;
  std::vector<ProjectNote> notes;
  std::vector<std::pair<std::string, std::string>> facts;
};

// The CMake project a setup.py's build_ext configures, with the -D values it
// passes (record_cmake_drive.py); the user's -D, later, win.
std::optional<CMakeEntry> driven_cmake_entry(const std::string& setup_py, const CMakeDrive& drive,
                                             const std::vector<std::string>& defines) {
  const fs::path dir = fs::path(setup_py).parent_path();
  CMakeEntry e;
  e.lists = (dir / drive.source_dir / "CMakeLists.txt").lexically_normal().string();
  std::error_code ec;
  if (!fs::is_regular_file(e.lists, ec)) return std::nullopt;
  // The CMake project may reach up into the setup.py's directory.
  if (!fs::equivalent(fs::path(e.lists).parent_path(), dir, ec)) e.copy_root = dir.string();
  e.defines = drive.defines;
  e.defines.insert(e.defines.end(), defines.begin(), defines.end());
  e.facts.emplace_back("setup.py", "its build_ext (" + drive.build_ext + ") runs CMake: " +
                                       fs::relative(e.lists, dir, ec).string() + " was configured with the -D values "
                                       "it passes" + (drive.defines.empty() ? std::string() : " (" + join(drive.defines, " ") + ")"));
  return e;
}

std::optional<CMakeEntry> cmake_entry(const std::string& build_file, const std::vector<std::string>& defines,
                                      const std::string& python) {
  const fs::path file(build_file);
  const fs::path next_to = file.parent_path() / "CMakeLists.txt";
  std::error_code ec;
  CMakeEntry e;
  if (file.filename() == "CMakeLists.txt") {
    e.lists = build_file;
  } else if (file.filename() == "setup.py") {
    if (!fs::is_regular_file(next_to, ec) || !read_setup_py(build_file, python).extensions.empty()) return std::nullopt;
    e.lists = next_to.string();
    e.facts.emplace_back("setup.py", "declares no CppExtension or CUDAExtension: CMakeLists.txt was configured");
  } else if (file.filename() == "pyproject.toml") {
    PyProject spec = read_pyproject(build_file);
    if (!spec.scikit_build) return std::nullopt;
    e.lists = (fs::path(spec.cmake_source_dir) / "CMakeLists.txt").string();
    if (!fs::exists(e.lists, ec)) return std::nullopt;  // the static reader says so
    // The source dir may reach up into the pyproject's directory: copy that.
    const std::string root = file.parent_path().string();
    if (e.lists.starts_with(root + "/")) e.copy_root = root;
    // What scikit-build-core seeds the cache with (builder.py), then its
    // cmake.define; the user's -D, later, wins.
    std::string name = spec.project_name.empty() ? file.parent_path().filename().string() : spec.project_name;
    std::replace(name.begin(), name.end(), '-', '_');
    const std::string version = spec.project_version.empty() ? "0.0.0" : spec.project_version;
    e.defines = {"SKBUILD=2", "SKBUILD_STATE=wheel", "SKBUILD_PROJECT_NAME=" + name, "SKBUILD_PROJECT_VERSION=" + version,
                 "SKBUILD_PROJECT_VERSION_FULL=" + version};
    e.defines.insert(e.defines.end(), spec.cmake_defines.begin(), spec.cmake_defines.end());
    e.scikit_build = true;
    e.notes = spec.notes;
    e.facts.emplace_back("pyproject.toml", "scikit-build-core: CMakeLists.txt configured" +
                                               (spec.cmake_defines.empty() ? std::string()
                                                                           : " with -D " + join(spec.cmake_defines, " ")));
  } else {
    return std::nullopt;
  }
  e.defines.insert(e.defines.end(), defines.begin(), defines.end());
  return e;
}

// A project built with cpp_extension.load() (a directory of modules, or a
// setup.py that declares no extension and has no CMakeLists.txt): its
// modules imported with load() recorded. nullopt: not such a project, or
// the import could not run (a note says why when the static reading follows).
std::optional<ProjectBuild> import_jit_modules(const std::string& build_file, const TorchLocation& torch,
                                               const ProjectOptions& options, bool setup_declared_nothing) {
  const fs::path file(build_file);
  std::error_code ec;
  std::string dir;
  if (fs::is_directory(file, ec)) {
    dir = build_file;
  } else if (file.filename() == "setup.py" && !fs::is_regular_file(file.parent_path() / "CMakeLists.txt", ec) &&
             (setup_declared_nothing || read_setup_py(build_file, options.python).extensions.empty())) {
    // Run, it declared nothing (its extensions wait for TORCHMATCH_BUILD_*=1,
    // and the package builds them just-in-time by default): what its reading
    // finds in branches not taken is not the default build.
    dir = file.parent_path().string();
  } else {
    return std::nullopt;
  }
  const std::vector<std::string> files = find_jit_load_files(dir);
  if (files.empty()) return std::nullopt;
  JitRunResult run = run_jit_loads(dir, files, torch, options);
  if (!run.ran || run.loads.empty()) {
    // No call made on import (load() in functions nobody calls at import):
    // the reading's own notes say what it could not resolve.
    ProjectBuild b = read_jit_load_build(dir, files, torch, options.defines, nullptr, options.python);
    if (!run.ran) {
      b.notes.insert(b.notes.begin(), {dir, 0, "the modules that call cpp_extension.load() could not be imported (" +
                                                   run.failure + "): their calls were read instead"});
      b.gaps.push_back({"project-analysis-partial", dir, 0,
                        "the modules that call cpp_extension.load() could not be imported (" + run.failure +
                            "), so their calls were read without running them"});
    }
    // A module that raised on import made no call: say so; the reading
    // follows, with a note for each value it could not resolve.
    for (const auto& raised : run.raised) {
      b.notes.insert(b.notes.begin(), {dir, 0, "importing a module that builds with cpp_extension.load() raised (" +
                                                   raised + ") before any load() call: the calls were read instead"});
      b.gaps.push_back({"project-analysis-partial", dir, 0,
                        "importing a module that builds with cpp_extension.load() raised (" + raised +
                            "), so its calls were read without running them"});
    }
    return b;
  }
  ProjectBuild b = read_jit_load_build(dir, files, torch, options.defines, &run.loads, options.python);
  b.notes.insert(b.notes.end(), run.notes.begin(), run.notes.end());
  b.facts.insert(b.facts.end(), run.facts.begin(), run.facts.end());
  b.facts.emplace_back("build environment", "the modules were imported " + run.how);
  if (file.filename() == "setup.py")
    b.facts.insert(b.facts.begin(), {"setup.py", "declares no CppExtension or CUDAExtension: cpp_extension.load() calls were recorded"});
  return b;
}

// Modules of the project that build more extensions with cpp_extension.load()
// beside what its build description declares: not part of that build, so
// not analysed with it; said, with how to analyse them.
void note_jit_loads_beside(ProjectBuild& b, const std::string& build_file, const std::string& python) {
  const fs::path dir = fs::path(build_file).parent_path();
  std::set<std::string> built;
  for (const auto& c : b.configurations) built.insert(c.sources.begin(), c.sources.end());
  // A load() that is the fallback of the built extension (`except
  // ImportError: load(... same sources ...)`) builds nothing more.
  auto builds_more = [&](const std::string& file) {
    try {
      const JitLoads read = read_jit_loads(file, dir.string(), "", python);
      if (read.loads.empty() || !read.notes.empty()) return true;
      for (const auto& l : read.loads)
        for (const auto& src : l.ext.sources)
          if (!built.count(src)) return true;
      return false;
    } catch (const std::exception&) {
      return true;
    }
  };
  std::vector<std::string> files;
  for (const auto& f : find_jit_load_files(dir.string()))
    if (builds_more(f)) files.push_back(f);
  if (files.empty()) return;
  std::vector<std::string> shown;
  std::set<std::string> dirs;
  for (const auto& f : files) {
    const fs::path rel = fs::path(f).lexically_relative(dir);
    if (shown.size() < 3) shown.push_back(rel.generic_string());
    dirs.insert(rel.has_parent_path() ? rel.parent_path().generic_string() + "/" : "./");
  }
  if (files.size() > shown.size()) shown.push_back("and " + std::to_string(files.size() - shown.size()) + " more");
  b.notes.push_back({build_file, 0,
                     "modules of the project also build extensions with cpp_extension.load() (" + join(shown, ", ") +
                         "): they are not part of this build and were not analysed; `torchabi check " +
                         (dirs.size() == 1 ? *dirs.begin() : std::string("DIR/")) + "` analyses them"});
}

}  // namespace

namespace {

ProjectBuild read_build_description(const std::string& build_file, const TorchLocation& torch,
                                    const ProjectOptions& options) {
  std::optional<ProjectNote> fallback;
  std::optional<ProjectNote> setup_note;
  std::optional<CMakeDrive> drive;  // setup.py's build_ext runs CMake: what it configures
  bool setup_failed = false;  // raised, hung or could not start (not: declared nothing)
  std::string setup_failure;  // why, when it failed
  bool declared_nothing = false;  // ran, and constructed no extension with sources
  if (options.run_build && fs::path(build_file).filename() == "setup.py") {
    // setup.py runs under our recorder; when it cannot, the static reader
    // takes over, and one that declares nothing (it drives CMake) gives way
    // to the configure below.
    SetupRunResult run = run_setup_py(build_file, torch, options);
    if (run.build) {
      ProjectBuild& b = *run.build;
      const auto stated = pyproject_torch_requirements((fs::path(build_file).parent_path() / "pyproject.toml").string());
      b.requirements.insert(b.requirements.end(), stated.begin(), stated.end());
      add_torch_headers_where_missing(b, torch);
      fill_compile_db(b, options.platform);
      note_jit_loads_beside(b, build_file, options.python);
      return std::move(b);
    }
    setup_failed = !run.no_extensions;
    setup_failure = run.failure;
    declared_nothing = run.no_extensions;
    drive = run.cmake;
    setup_note = ProjectNote{build_file, 0,
                             run.no_extensions
                                 ? "setup.py declares no extension with sources when run (it drives another build): "
                                   "read statically instead"
                                 : "setup.py could not be run (" + run.failure + "): read statically instead"};
  }
  if (options.run_build) {
    std::optional<CMakeEntry> entry = cmake_entry(build_file, options.defines, options.python);
    if (drive) entry = driven_cmake_entry(build_file, *drive, options.defines);
    if (entry) {
      FileApiOptions api;
      api.defines = entry->defines;
      api.timeout_seconds = options.timeout_seconds;
      api.copy_root = entry->copy_root;
      api.unconfined = options.unconfined;
      if (drive || entry->scikit_build) api.python = options.python;
      api.python_cache_entries = entry->scikit_build;
      FileApiResult run = configure_with_file_api(entry->lists, torch, api);
      if (run.ok) {
        ProjectBuild b;
        b.build_file = entry->lists;
        b.configurations = std::move(run.configurations);
        b.notes = std::move(entry->notes);
        b.notes.insert(b.notes.end(), run.notes.begin(), run.notes.end());
        b.facts = std::move(entry->facts);
        b.facts.insert(b.facts.end(), run.facts.begin(), run.facts.end());
        // A setup.py that failed may have meant more than its CMake project.
        if (setup_failed) {
          b.notes.insert(b.notes.begin(), *setup_note);
          b.gaps.push_back({"project-analysis-partial", build_file, 0,
                            "setup.py could not be run with " + options.python + " (" + setup_failure + ") and its static reading found no "
                            "CppExtension or CUDAExtension, so " + fs::path(entry->lists).filename().string() +
                            " was configured instead: another build description than the one setup.py packages"});
        }
        // The configure ran on this machine; its answer is the one to lint.
        for (auto& c : b.configurations) c.platform = options.platform;
        const auto stated = pyproject_torch_requirements((fs::path(build_file).parent_path() / "pyproject.toml").string());
        b.requirements.insert(b.requirements.end(), stated.begin(), stated.end());
        add_torch_headers_where_missing(b, torch);
        fill_compile_db(b, options.platform);
        note_jit_loads_beside(b, build_file, options.python);
        return b;
      }
      fallback = ProjectNote{entry->lists, 0,
                             "CMakeLists.txt could not be configured (" + run.failure + "): read statically instead"};
    }
  }
  std::optional<ProjectBuild> imported;
  if (options.run_build) imported = import_jit_modules(build_file, torch, options, declared_nothing);
  // A setup.py that declared nothing, with the package's load() calls
  // recorded instead: nothing was left unread (the facts say which build).
  if (imported && declared_nothing) setup_note.reset();
  ProjectBuild b = imported ? std::move(*imported) : read_statically(build_file, torch, options.defines, options.python);
  if (setup_note) b.notes.insert(b.notes.begin(), *setup_note);
  if (setup_failed)
    b.gaps.push_back({"project-analysis-partial", build_file, 0,
                      "setup.py could not be run with " + options.python + " (" + setup_failure + "), so " +
                          (imported ? std::string("the cpp_extension.load() calls of the project's modules were "
                                                  "analysed instead of the build it packages")
                                    : "it was read without running it: what only running gives (computed sources "
                                      "and flags, extensions chosen at run time) is missing")});
  if (fallback) {
    b.notes.insert(b.notes.begin(), *fallback);
    b.facts.insert(b.facts.begin(), {"CMake File API", fallback->message});
    b.gaps.push_back({"project-analysis-partial", fallback->file, 0,
                      fallback->message + ": what only CMake computes (generator expressions, execute_process, "
                                          "find_package results) is missing"});
  }
  // What the files say holds on every platform: lint it as the one asked for.
  for (auto& c : b.configurations) c.platform = options.platform;
  const auto stated = pyproject_torch_requirements((fs::path(build_file).parent_path() / "pyproject.toml").string());
  b.requirements.insert(b.requirements.end(), stated.begin(), stated.end());
  add_torch_headers_where_missing(b, torch);
  fill_compile_db(b, options.platform);
  return b;
}

}  // namespace

// The project's sources that include stable PyTorch headers (what a sweep
// would lint) and that the partial analysis does not: the part of the build
// that may be missing, named so that a gate does not pass on a third of it.
static void note_sources_not_linted(ProjectBuild& b, const std::string& dir, const TorchLocation& torch,
                             const std::vector<std::string>& defines) {
  auto key = [](const std::string& directory, const std::string& file) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::path(directory) / file, ec);
    return ec ? (fs::path(directory) / file).lexically_normal().string() : p.string();
  };
  std::set<std::string> linted;
  for (const auto& c : b.db.commands) linted.insert(key(c.directory, c.file));
  const ProjectBuild swept = sweep_sources(dir, torch, defines, "");
  std::vector<std::string> missed;
  for (const auto& c : swept.db.commands)
    if (!linted.count(key(c.directory, c.file))) {
      std::error_code ec;
      const fs::path rel = fs::path(key(c.directory, c.file)).lexically_relative(fs::weakly_canonical(dir, ec));
      missed.push_back(rel.empty() ? c.file : rel.generic_string());
    }
  if (missed.empty()) return;
  std::sort(missed.begin(), missed.end());
  const size_t n = missed.size();
  if (n > 5) {
    missed.resize(4);
    missed.push_back("and " + std::to_string(n - 4) + " more");
  }
  b.gaps.push_back({"project-analysis-partial", b.build_file, 0,
                    std::to_string(n) + " source" + (n == 1 ? "" : "s") + " of the project that include" +
                        (n == 1 ? "s" : "") + " stable PyTorch headers " + (n == 1 ? "is" : "are") +
                        " not in the configuration analysed, so not linted (" + join(missed, ", ") + ")"});
}

ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const ProjectOptions& options) {
  // The interpreter the project asks for, when a script of it runs.
  ProjectOptions run_options = options;
  std::optional<InterpreterChoice> choice;
  std::optional<PythonDemand> demand;
  const std::string dir = fs::path(build_file).parent_path().string();
  if (options.run_build && fs::path(build_file).filename() != "CMakeLists.txt" &&
      fs::path(build_file).filename() != "build.toml") {
    demand = read_python_demand(dir);
    // setup.py needs setuptools; the modules that call load(), torch (its stand-in otherwise).
    const bool setup_py = fs::path(build_file).filename() == "setup.py";
    choice = choose_interpreter(*demand, options.python, options.python_given, InterpreterSearch::from_environment(),
                                dir, setup_py ? "setuptools" : "");
    run_options.python = choice->python;
  }
  ProjectBuild b = read_build_description(build_file, torch, run_options);
  note_stable_code_behind_undefined_macros(b, options.platform);
  if (choice) {
    b.facts.insert(b.facts.begin(), {"python", choice->fact});
    for (const auto& why : demand->unreadable) b.notes.push_back({build_file, 0, why});
  }
  if (!b.gaps.empty()) note_sources_not_linted(b, dir, torch, options.defines);
  if (choice && !choice->satisfies) {
    const std::string ran = choice->python + (choice->version ? " " + choice->version->str() : std::string());
    const std::string file = !demand->requires_file.empty() ? demand->requires_file : demand->pin_file;
    const int line = !demand->requires_file.empty() ? demand->requires_line : 0;
    if (!b.gaps.empty())
      b.gaps.insert(b.gaps.begin(), {"project-python-unavailable", file, line,
                                     "the project needs Python " + demand->describe() +
                                         ", and no interpreter on this machine satisfies it: its build script could "
                                         "not run with " + ran + ", so the analysis is partial"});
    else
      b.notes.push_back({file, line,
                         "the project needs Python " + demand->describe() + ", and no interpreter on this machine "
                         "satisfies it: its build script ran with " + ran + ", whose branches on the Python version "
                         "may differ from the build's",
                         "project-python-unavailable",
                         "Install a Python the project supports (`pyenv install`, `uv python install`) or pass one with "
                         "--python, so that the build script runs as the project's build runs it"});
  }
  return b;
}

ProjectBuild read_project_build(const std::string& build_file, const TorchLocation& torch,
                                const std::vector<std::string>& defines) {
  ProjectOptions options;
  options.defines = defines;
  return read_project_build(build_file, torch, options);
}

}  // namespace torchabi::inputs
