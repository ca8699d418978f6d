#include "inputs/project/setup_run.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/input_error.h"
#include "common/json_io.h"
#include "common/text.h"
#include "inputs/cuda_installation.h"
#include "inputs/project/environment/build_environment.h"
#include "inputs/project/environment/lent_setuptools.h"
#include "inputs/project/environment/ci_build_environments.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/record_cmake_drive_py.h"  // generated from record_cmake_drive.py
#include "inputs/project/record_setup_py.h"  // generated from record_setup.py
#include "inputs/project/script_copy.h"
#include "inputs/rules_source.h"
#include "inputs/project/timed_child.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::array<const char*, 3> kPlatforms = {"linux", "darwin", "win32"};

struct RecordedExtension {
  std::string name;
  std::string kind;  // "CppExtension", "CUDAExtension" or "Extension"
  std::vector<std::string> sources, include_dirs, undef_macros, cxx_args, nvcc_args;
  std::vector<std::pair<std::string, std::optional<std::string>>> define_macros;
  bool py_limited_api = false;
  std::string file;
  int line = 0;
};

// What one run of the recorder wrote, with the copy's paths mapped back to
// the project's.
struct Recording {
  std::string platform, python, python_include, cuda_home;
  bool real_torch = false;
  std::string torch_version, cpp_extension;
  std::vector<std::string> torch_include_paths;
  bool build_extension = false;  // cmdclass build_ext is torch's BuildExtension
  std::string build_ext;         // the class otherwise ("" for none)
  std::vector<StatedRequirement> requirements;
  std::vector<RecordedExtension> extensions;
  // What the run was given that a build machine has (stand-in modules,
  // placeholder files, submodules), and the error the script raised after
  // constructing extensions ("" when it finished).
  std::vector<std::pair<std::string, std::string>> given;
  std::string partial;
  std::optional<CMakeDrive> cmake;  // the build_ext runs CMake: its configure
  bool cuda = true;  // run with CUDA available
  std::vector<std::string> environment_unset;  // variables its own code read, unset
};

using text::last_line;
using text::replace_all;

std::string read_file(const fs::path& p) { return text::read_file_or_empty(p); }

using text::join;

Recording parse_recording(const std::string& text, const std::string& copy_root, const std::string& project_dir,
                          const std::string& setup_py) {
  const json j = json_io::parse(text);
  // The copy's own paths, then those that reach above it (`base_dir/../csrc`
  // where the repository was not copied around it): its parent directory
  // is the scratch run's, standing for the project's parent.
  const std::string above_copy = fs::path(copy_root).parent_path().string() + "/";
  const std::string above_project = fs::path(project_dir).parent_path().string() + "/";
  auto map_back = [&](const std::string& s) {
    return replace_all(replace_all(s, copy_root, project_dir), above_copy, above_project);
  };
  auto path = [&](const json& v) { return v.is_string() ? map_back(v.get<std::string>()) : std::string(); };
  auto paths = [&](const json& v) {
    std::vector<std::string> out;
    if (v.is_array())
      for (const auto& s : v) out.push_back(path(s));
    return out;
  };
  Recording r;
  r.platform = j.value("platform", "");
  r.python = j.value("python", "");
  r.python_include = j.value("python_include", "");
  r.cuda_home = j["cuda_home"].is_string() ? j["cuda_home"].get<std::string>() : std::string();  // null: CUDA unavailable
  if (const json& t = j["torch"]; t.is_object()) {
    r.real_torch = true;
    r.torch_version = t.value("version", "");
    r.cpp_extension = t.value("cpp_extension", "");
    r.torch_include_paths = paths(t["include_paths"]);
  }
  for (const auto& g : j.value("given", json::array()))
    if (g.is_array() && g.size() == 2 && g[0].is_string() && g[1].is_string())
      r.given.emplace_back(g[0].get<std::string>(), map_back(g[1].get<std::string>()));
  if (const json& p = j["partial"]; p.is_string()) r.partial = map_back(p.get<std::string>());
  r.cuda = j.value("cuda", true);
  for (const auto& v : j.value("environment_unset", json::array()))
    if (v.is_string()) r.environment_unset.push_back(v.get<std::string>());
  // Present only when the script's build_ext runs CMake (record_cmake_drive.py).
  if (const auto it = j.find("cmake_configure"); it != j.end() && it->is_object()) {
    const json& c = *it;
    CMakeDrive d;
    d.source_dir = c.value("source", ".");
    d.build_ext = c.value("build_ext", "");
    // Values naming the recorder's scratch tree (output directories, its
    // stand-in nvcc) have no meaning outside it: the configure has its own.
    const std::string scratch = fs::path(copy_root).parent_path().parent_path().string();
    for (const auto& v : c.value("defines", json::array()))
      if (v.is_string() && v.get<std::string>().find(scratch) == std::string::npos) d.defines.push_back(v.get<std::string>());
    r.cmake = std::move(d);
  }
  const json& build_ext = j["build_ext"];
  r.build_ext = build_ext.is_string() ? build_ext.get<std::string>() : "";
  r.build_extension = r.build_ext == "BuildExtension";
  for (const auto& q : j["requirements"]) {
    std::string file = path(q["file"]);
    r.requirements.push_back({q.value("text", ""), file.empty() ? setup_py : file, q.value("line", 0)});
  }
  for (const auto& e : j["extensions"]) {
    RecordedExtension x;
    x.name = e.value("name", "");
    x.kind = e.value("kind", "Extension");
    x.sources = paths(e["sources"]);
    x.include_dirs = paths(e["include_dirs"]);
    x.undef_macros = paths(e["undef_macros"]);
    for (const auto& m : e["define_macros"]) {
      std::optional<std::string> value;
      if (m.size() > 1 && m[1].is_string()) value = m[1].get<std::string>();
      x.define_macros.emplace_back(m[0].get<std::string>(), value);
    }
    // BuildExtension gives a list to both compilers, a dict by compiler.
    if (const json& args = e["extra_compile_args"]; args.is_object()) {
      if (args.contains("cxx")) x.cxx_args = paths(args["cxx"]);
      if (args.contains("nvcc")) x.nvcc_args = paths(args["nvcc"]);
    } else {
      x.cxx_args = x.nvcc_args = paths(args);
    }
    x.py_limited_api = e.value("py_limited_api", false);
    x.file = path(e["file"]);
    if (x.file.empty()) x.file = setup_py;
    x.line = e.value("line", 0);
    r.extensions.push_back(std::move(x));
  }
  return r;
}

// The headers an extension of `r` compiles with besides its own: with the
// real cpp_extension, its torch paths are already in the extension (the
// ones torchabi was told to use replace them); with the stand-in, torch's
// from `torch` for CppExtension/CUDAExtension. Python's always, as
// setuptools' build_ext adds it.
std::vector<std::string> added_includes(const Recording& r, const RecordedExtension& e, const TorchLocation& torch) {
  std::vector<std::string> out;
  if (!r.real_torch && e.kind != "Extension")
    for (const auto& i : torch.include_dirs)
      if (i != r.python_include) out.push_back(i);
  if (!r.python_include.empty()) out.push_back(r.python_include);
  return out;
}

std::vector<std::string> own_includes(const Recording& r, const RecordedExtension& e, const TorchLocation& torch) {
  std::vector<std::string> out;
  bool replaced = false;
  for (const auto& i : e.include_dirs) {
    // The stand-in CUDA toolkit's: nothing a real build would find there.
    if (!r.cuda_home.empty() && (i == r.cuda_home || i.starts_with(r.cuda_home + "/"))) continue;
    const bool torchs = std::find(r.torch_include_paths.begin(), r.torch_include_paths.end(), i) != r.torch_include_paths.end();
    if (!torchs || !torch.found()) {
      out.push_back(i);
      continue;
    }
    if (replaced) continue;
    replaced = true;
    for (const auto& t : torch.include_dirs)
      if (t != r.python_include) out.push_back(t);
  }
  return out;
}

CompileCommand command_for(const Recording& r, const RecordedExtension& e, const std::string& source,
                           const std::string& dir, const TorchLocation& torch) {
  ExtensionSpec spec;
  spec.name = e.name;
  spec.cuda = e.kind == "CUDAExtension";
  spec.line = e.line;
  spec.sources = e.sources;
  spec.include_dirs = own_includes(r, e, torch);
  spec.define_macros = e.define_macros;
  // build_ext passes undef_macros right after define_macros.
  for (const auto& u : e.undef_macros) spec.cxx_args.push_back("-U" + u);
  spec.nvcc_args = spec.cxx_args;
  spec.cxx_args.insert(spec.cxx_args.end(), e.cxx_args.begin(), e.cxx_args.end());
  spec.nvcc_args.insert(spec.nvcc_args.end(), e.nvcc_args.begin(), e.nvcc_args.end());
  spec.py_limited_api = e.py_limited_api;
  TorchLocation loc;
  loc.include_dirs = added_includes(r, e, torch);
  // CUDAExtension adds CUDA_HOME/include for every source (include_paths("cuda")):
  // host sources include <cuda_runtime.h> too. The stand-in toolkit has no
  // headers; this machine's installation stands for it (.cu files get it
  // from the CUDA parse itself).
  if (spec.cuda && !r.cuda_home.empty() && !source.ends_with(".cu") && !host_cuda_include_dir().empty())
    loc.include_dirs.insert(loc.include_dirs.end() - (r.python_include.empty() ? 0 : 1), host_cuda_include_dir());
  loc.std_flag = torch.std_flag;
  loc.limited_api = torch.limited_api;
  if (r.real_torch && (loc.std_flag.empty() || loc.limited_api.empty())) {
    // The defaults of the torch whose headers are used win; the installed
    // cpp_extension's fill in what they lack.
    TorchLocation installed;
    read_cpp_extension_defaults(r.cpp_extension, installed);
    if (loc.std_flag.empty()) loc.std_flag = installed.std_flag;
    if (loc.limited_api.empty()) loc.limited_api = installed.limited_api;
  }
  if (r.build_extension) return setuptools_command(spec, source, dir, loc);
  // setuptools' own build_ext: the extension's flags and Python's headers.
  CompileCommand c;
  c.file = source;
  c.directory = dir;
  c.arguments.push_back("c++");
  for (const auto& i : spec.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& i : loc.include_dirs) c.arguments.push_back("-I" + i);
  for (const auto& [name, value] : spec.define_macros) c.arguments.push_back("-D" + name + (value ? "=" + *value : ""));
  c.arguments.insert(c.arguments.end(), spec.cxx_args.begin(), spec.cxx_args.end());
  c.arguments.insert(c.arguments.end(), {"-fPIC", "-c", source});
  return c;
}

std::string method_of(const Recording& r) {
  return "setup.py run in CPython " + r.python + " (" +
         (r.real_torch ? "torch " + r.torch_version + "'s cpp_extension" : std::string("stand-in cpp_extension")) + ")";
}

std::string unit_of(const RecordedExtension& e) { return "extension " + (e.name.empty() ? std::string("(unnamed)") : e.name); }

// Adds the configurations of one platform's recording (one per extension and
// compiler: every source of a compiler gets the same flags).
void add_configurations(ProjectBuild& b, const Recording& r, const std::string& dir, const TorchLocation& torch,
                        const std::vector<std::string>& defines, std::set<std::string>& missing) {
  for (const auto& e : r.extensions) {
    std::map<std::string, size_t> by_compiler;
    for (const auto& src : e.sources) {
      std::error_code ec;
      if (!fs::is_regular_file(src, ec)) {
        if (missing.insert(src).second)
          b.notes.push_back({e.file, e.line,
                             "source " + src + " of " + unit_of(e) +
                                 " is not in the project (setup.py writes it when it runs, or it is missing): not linted"});
        continue;
      }
      const std::string compiler = src.ends_with(".cu") && r.build_extension ? "nvcc" : "cxx";
      if (auto it = by_compiler.find(compiler); it != by_compiler.end()) {
        b.configurations[it->second].sources.push_back(src);
        continue;
      }
      CompileCommand c = command_for(r, e, src, dir, torch);
      for (const auto& d : defines) c.arguments.insert(c.arguments.end() - 2, "-D" + d);
      BuildConfiguration conf;
      conf.unit = unit_of(e);
      conf.compiler = compiler;
      conf.platform = r.platform;
      conf.method = method_of(r);
      conf.file = e.file;
      conf.line = e.line;
      conf.sources = {src};
      conf.arguments.assign(c.arguments.begin(), c.arguments.end() - 2);
      conf.directory = dir;
      by_compiler[compiler] = b.configurations.size();
      b.configurations.push_back(std::move(conf));
    }
  }
}

// Facts: how the script ran, each extension and its flags on linux, and
// every flag or source by which another platform differs from linux.
void add_facts(ProjectBuild& b, const Recording& on_linux, const TorchLocation& torch) {
  b.facts.emplace_back("build description", method_of(on_linux));
  if (on_linux.real_torch)
    b.facts.emplace_back("cpp_extension", "torch " + on_linux.torch_version + "'s (" + on_linux.cpp_extension +
                                              "): its include paths are " +
                                              (torch.found() ? "replaced by the torch headers below" : "used"));
  if (on_linux.real_torch && !torch.found())
    b.facts.emplace_back("torch headers", "torch " + on_linux.torch_version + "'s cpp_extension: " +
                                              join(on_linux.torch_include_paths, " "));
  else
    b.facts.emplace_back("torch headers", torch.found() ? torch.how + ": " + join(torch.include_dirs, " ") : torch.how);
  if (!on_linux.build_extension)
    b.facts.emplace_back("build_ext", (on_linux.build_ext.empty() ? std::string("setuptools' own") : on_linux.build_ext) +
                                          " (not torch's BuildExtension): no torch flags are added");
  for (const auto& e : on_linux.extensions)
    b.facts.emplace_back(unit_of(e), e.kind + " at " + fs::path(e.file).filename().string() + " line " +
                                         std::to_string(e.line) + ", " + std::to_string(e.sources.size()) + " sources");
  auto find = [&](const std::string& platform, const std::string& unit, const std::string& compiler) {
    for (const auto& c : b.configurations)
      if (c.platform == platform && c.unit == unit && c.compiler == compiler) return &c;
    return static_cast<const BuildConfiguration*>(nullptr);
  };
  for (const auto& c : b.configurations)
    if (c.platform == "linux")
      b.facts.emplace_back(c.unit + " " + c.arguments[0] + " flags",
                           join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end()), " "));
  auto difference = [](std::vector<std::string> a, std::vector<std::string> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
  };
  for (const char* platform : kPlatforms) {
    if (std::string(platform) == "linux") continue;
    for (const auto& c : b.configurations) {
      if (c.platform != platform) continue;
      const std::string key = c.unit + " (" + c.compiler + ") on " + platform;
      const BuildConfiguration* base = find("linux", c.unit, c.compiler);
      if (!base) {
        b.facts.emplace_back(key, "compiled there only: " + std::to_string(c.sources.size()) + " sources");
        continue;
      }
      // One entry per flag, in one fact per configuration: the JSON report
      // keys facts by name.
      const std::vector<std::string> ours(c.arguments.begin() + 1, c.arguments.end());
      const std::vector<std::string> theirs(base->arguments.begin() + 1, base->arguments.end());
      std::vector<std::string> entries;
      for (const auto& f : difference(ours, theirs)) entries.push_back("adds " + f);
      for (const auto& f : difference(theirs, ours)) entries.push_back("drops " + f);
      for (const auto& s : difference(c.sources, base->sources)) entries.push_back("also compiles " + s);
      for (const auto& s : difference(base->sources, c.sources)) entries.push_back("does not compile " + s);
      std::string value;
      for (const auto& e : entries) value += (value.empty() ? "" : "; ") + e;
      if (!value.empty()) b.facts.emplace_back(key, value);
    }
    for (const auto& c : b.configurations)
      if (c.platform == "linux" && !find(platform, c.unit, c.compiler))
        b.facts.emplace_back(c.unit + " (" + c.compiler + ") on " + platform, "not compiled there");
  }
}

struct PlatformRun {
  std::string platform;
  fs::path copy_root, out;
  fs::path copy_top;  // what maps back to plan.top (copy_root, or the repository around it)
  std::vector<std::string> argv;
  ChildResult result;
};

// `run` again in a fresh copy (tmp/PLATFORM-TAG), its arguments adjusted.
PlatformRun run_again(const PlatformRun& run, const std::string& tag, const fs::path& tmp, const ScriptCopyPlan& plan,
                      const fs::path& script, const BuildEnvironment& env, int timeout,
                      const std::function<void(std::vector<std::string>&)>& adjust) {
  PlatformRun again = run;
  again.copy_root = make_script_copy(plan, tmp / (run.platform + "-" + tag));
  again.copy_top = script_copy_top(plan, tmp / (run.platform + "-" + tag));
  again.out = tmp / (run.platform + "-" + tag + ".json");
  for (auto& a : again.argv) {
    if (a == run.out.string()) a = again.out.string();
    if (a == run.copy_top.string()) a = again.copy_top.string();
    if (a == (run.copy_root / script.filename()).string()) a = (again.copy_root / script.filename()).string();
  }
  adjust(again.argv);
  if (env.confined) hand_over_writable(env.confinement);
  again.result = run_timed(again.argv, again.copy_root.string(), timeout, env.confined ? &env.confinement : nullptr);
  return again;
}

bool has_sources(const Recording& r) {
  return std::any_of(r.extensions.begin(), r.extensions.end(),
                     [](const RecordedExtension& e) { return !e.sources.empty(); });
}

bool mentions_rocm(const std::string& script) {
  for (const char* word : {"version.hip", "IS_HIP_EXTENSION", "ROCM_HOME", "ROCM_VERSION"})
    if (script.find(word) != std::string::npos) return true;
  return false;
}

// Built for the stable ABI: a TORCH_TARGET_VERSION, or Python's limited API.
bool targets_stable(const Recording& r) {
  auto names_target = [](const std::vector<std::string>& args) {
    return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.find("TORCH_TARGET_VERSION") != std::string::npos; });
  };
  return std::any_of(r.extensions.begin(), r.extensions.end(), [&](const RecordedExtension& e) {
    return e.py_limited_api || names_target(e.cxx_args) || names_target(e.nvcc_args) ||
           std::any_of(e.define_macros.begin(), e.define_macros.end(),
                       [](const auto& m) { return m.first == "TORCH_TARGET_VERSION"; });
  });
}

// The CI build steps' values for the variables the script read unset, one
// per distinct set of values, in workflow order (at most three).
std::vector<CiBuildEnvironment> ci_values_for(const fs::path& project, const Recording& r) {
  std::vector<CiBuildEnvironment> out;
  if (r.environment_unset.empty()) return out;
  std::vector<CiBuildEnvironment> steps = ci_build_environments(project);
  if (const fs::path repo = enclosing_git_repository(project); !repo.empty() && repo != project) {
    std::vector<CiBuildEnvironment> more = ci_build_environments(repo);
    steps.insert(steps.end(), more.begin(), more.end());
  }
  for (CiBuildEnvironment e : steps) {
    std::map<std::string, std::string> read;
    for (const auto& name : r.environment_unset)
      if (auto it = e.env.find(name); it != e.env.end()) read[name] = it->second;
    if (read.empty()) continue;
    e.env = std::move(read);
    if (std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.env == e.env; })) out.push_back(e);
    if (out.size() == 3) break;
  }
  return out;
}

}  // namespace

SetupRunResult run_setup_py(const std::string& setup_py, const TorchLocation& torch, const ProjectOptions& options,
                            RecorderTorch which) {
  SetupRunResult result;
  const fs::path script = fs::absolute(setup_py).lexically_normal();
  const fs::path project = script.parent_path();
  try {
    ScratchDir scratch("setup");
    if (!scratch.ok()) throw InputError(fs::temp_directory_path().string(), "cannot create a temporary directory");
    // Canonical, so that paths the script computes from __file__ map back.
    const fs::path tmp = fs::canonical(scratch.path());
    const fs::path recorder = tmp / "record_setup.py";
    std::ofstream(recorder, std::ios::binary) << generated::kRecordSetupPy;
    std::ofstream(tmp / "record_cmake_drive.py", std::ios::binary) << generated::kRecordCmakeDrivePy;
    const ScriptCopyPlan plan = plan_script_copy(project, {script});
    BuildEnvironment env = make_build_environment({tmp.string(), plan.top.string(), options.python, torch.include_dirs,
                                                   options.unconfined});
    // The interpreter chosen for the project's Python (pyenv's, uv's) may
    // have no setuptools, which pip's build isolation would install.
    const std::optional<LentSetuptools> lent = lend_setuptools(env.python, {"python3", "/usr/bin/python3", "/usr/local/bin/python3"}, tmp.string());
    if (lent) apply_lent_setuptools(*lent, env.confinement);
    // The stand-in torch's names, from a real torch (scripts/gen-torch-surface.py).
    const fs::path surface = tmp / "torch_surface.json";
    std::ofstream(surface, std::ios::binary) << RulesSource::current().read("project/torch_surface.json").value_or("{}");
    const std::string headers_release = torch_headers_version(torch.include_dirs);
    std::vector<PlatformRun> runs;
    for (const char* platform : kPlatforms) {
      PlatformRun run;
      run.platform = platform;
      // One copy per platform: the runs are concurrent and may write.
      run.copy_root = make_script_copy(plan, tmp / platform);
      run.copy_top = script_copy_top(plan, tmp / platform);
      run.out = tmp / (run.platform + ".json");
      run.argv = {env.python, recorder.string(), "--platform", platform, "--out", run.out.string(),
                  "--cuda-home", (tmp / ("cuda-" + run.platform)).string(), "--cuda-version", kStandInCudaVersion,
                  "--torch-surface", surface.string()};
      if (!headers_release.empty()) run.argv.insert(run.argv.end(), {"--torch-version", headers_release});
      if (!torch.include_dirs.empty()) run.argv.insert(run.argv.end(), {"--torch-include", torch.include_dirs.front()});
      if (which == RecorderTorch::StandIn) run.argv.push_back("--no-torch");
      if (plan.top != plan.project) run.argv.insert(run.argv.end(), {"--tree", run.copy_top.string()});
      run.argv.push_back((run.copy_root / script.filename()).string());
      runs.push_back(std::move(run));
    }
    if (env.confined) hand_over_writable(env.confinement);
    {
      const Confinement* confine = env.confined ? &env.confinement : nullptr;
      std::vector<std::jthread> threads;
      for (auto& run : runs)
        threads.emplace_back([&run, &options, confine] {
          run.result = run_timed(run.argv, run.copy_root.string(), options.timeout_seconds, confine);
        });
    }
    ProjectBuild b;
    b.build_file = script.string();
    b.db.path = script.string();
    if (!plan.note.empty()) b.notes.push_back({script.string(), 0, plan.note});
    std::optional<Recording> on_linux;  // what the facts describe and compare with
    std::set<std::string> missing;
    // What one run recorded, or why it recorded nothing.
    auto outcome = [&](const PlatformRun& run, std::string& why) -> std::optional<Recording> {
      const ChildResult& r = run.result;
      if (!r.started) why = r.output.empty() ? options.python + " cannot be run" : last_line(r.output);
      else if (r.timed_out) why = "it did not finish within " + std::to_string(options.timeout_seconds) + " s";
      else if (r.exit_code != 0) {
        why = replace_all(last_line(r.output), run.copy_top.string(), plan.top.string());
        if (why.empty()) why = options.python + " exited with status " + std::to_string(r.exit_code);
      } else {
        try {
          return parse_recording(read_file(run.out), run.copy_top.string(), plan.top.string(), script.string());
        } catch (const std::exception& e) {
          why = std::string("the recorder's output cannot be read: ") + e.what();
        }
      }
      return std::nullopt;
    };
    // Switches from the environment (setup.py builds its stable extension
    // only under PKG_BUILD_STABLE_ABI=1): run with defaults, it may build
    // what its release does not. Again with the values its CI build steps
    // set for the variables it read unset; kept when that build targets the
    // stable ABI and the default one does not (ci_build_environments.h).
    std::optional<CiBuildEnvironment> ci_chosen;
    for (PlatformRun& run : runs) {
      if (run.platform != "linux" || run.result.sandbox_unavailable) continue;
      std::string why;
      const std::optional<Recording> plain = outcome(run, why);
      if (!plain) break;
      if (targets_stable(*plain)) break;
      int tried = 0;
      for (const CiBuildEnvironment& ci : ci_values_for(project, *plain)) {
        const std::string tag = "ci" + std::to_string(++tried);
        auto with_env = [&](std::vector<std::string>& argv) {
          for (const auto& [k, v] : ci.env) argv.insert(argv.end() - 1, {"--env", k + "=" + v});
        };
        PlatformRun probe = run_again(run, tag, tmp, plan, script, env, options.timeout_seconds, with_env);
        const std::optional<Recording> rec = outcome(probe, why);
        if (!rec || !targets_stable(*rec)) continue;
        ci_chosen = ci;
        for (PlatformRun& each : runs)
          each = each.platform == "linux" ? probe
                                          : run_again(each, tag, tmp, plan, script, env, options.timeout_seconds, with_env);
        break;
      }
      break;
    }
    // A script that builds only for ROCm (`if torch.version.hip is not None:`)
    // declares nothing with the stand-in CUDA torch: again as a ROCm build of
    // torch would run it, when it mentions ROCm at all.
    bool rocm = false;
    if (!ci_chosen && mentions_rocm(read_file(script)))
      for (PlatformRun& run : runs) {
        if (run.platform != "linux" || run.result.sandbox_unavailable) continue;
        std::string why;
        const std::optional<Recording> plain = outcome(run, why);
        if (plain && has_sources(*plain)) break;
        auto with_rocm = [&](const std::string& platform) {
          return [&tmp, platform](std::vector<std::string>& argv) {
            argv.insert(argv.end() - 1, {"--rocm", (tmp / ("rocm-" + platform)).string()});
          };
        };
        PlatformRun probe = run_again(run, "rocm", tmp, plan, script, env, options.timeout_seconds, with_rocm("linux"));
        const std::optional<Recording> rec = outcome(probe, why);
        if (!rec || !has_sources(*rec)) break;
        rocm = true;
        for (PlatformRun& each : runs)
          each = each.platform == "linux" ? probe
                                          : run_again(each, "rocm", tmp, plan, script, env, options.timeout_seconds,
                                                      with_rocm(each.platform));
        break;
      }
    // The adjustment a required platform's run was recorded with (another
    // CUDA release, GPU, CUDA unavailable): the other platforms get it too.
    using Adjust = std::function<void(std::vector<std::string>&)>;
    std::optional<std::pair<std::string, Adjust>> recorded_with;
    for (PlatformRun& run : runs) {
      const ChildResult& r = run.result;
      const bool required = run.platform == "linux" || run.platform == options.platform;
      if (r.sandbox_unavailable) {
        result.failure = "it cannot be confined here (" + last_line(r.output).substr(sizeof("sandbox unavailable: ") - 1) +
                         "), so it was not run; --run-build=unconfined runs it anyway";
        result.not_confinable = true;
        return result;
      }
      std::string why;
      std::optional<Recording> rec = outcome(run, why);
      if (!rec && required && !r.timed_out && r.started) {
        // The same run again in a fresh copy, with its arguments adjusted.
        auto rerun = [&](const std::string& tag, const std::function<void(std::vector<std::string>&)>& adjust) {
          return run_again(run, tag, tmp, plan, script, env, options.timeout_seconds, adjust);
        };
        // Scripts that branch on the CUDA release (a download for some, an
        // assert for others): again with the other releases CI builds use.
        for (const char* version : kOtherStandInCudaVersions) {
          const Adjust adjust = [version](std::vector<std::string>& argv) {
            for (size_t k = 0; k + 1 < argv.size(); ++k) {
              if (argv[k] == "--cuda-version") argv[k + 1] = version;
              if (argv[k] == "--cuda-home") argv[k + 1] += std::string("-") + version;
            }
          };
          const PlatformRun other = rerun("cuda-" + std::string(version), adjust);
          std::string other_why;
          rec = outcome(other, other_why);
          if (!rec) continue;
          recorded_with.emplace("cuda-" + std::string(version), adjust);
          b.notes.push_back({script.string(), 0,
                             "setup.py failed with CUDA " + std::string(kStandInCudaVersion) + " (" + why +
                                 "): its configuration with CUDA " + version + " was recorded instead"});
          break;
        }
        // Scripts that build for the GPU they find and refuse this one.
        for (const char* capability : kOtherStandInGpuCapabilities) {
          if (rec) break;
          const Adjust adjust = [capability](std::vector<std::string>& argv) {
            argv.insert(argv.end() - 1, {"--gpu-capability", capability});
          };
          const PlatformRun other = rerun("gpu-" + std::string(capability), adjust);
          std::string other_why;
          rec = outcome(other, other_why);
          if (rec) recorded_with.emplace("gpu-" + std::string(capability), adjust);
          if (rec)
            b.notes.push_back({script.string(), 0,
                               "setup.py failed with a GPU of compute capability " + std::string(kStandInGpuCapability) +
                                   " (" + why + "): its configuration for a GPU of compute capability " + capability +
                                   " was recorded instead"});
        }
        // Scripts that insist on a CUDA toolchain they can use (an nvcc that
        // compiles, a GPU) fail where CUDA looks available: their CPU
        // configuration is still a configuration the build ships.
        if (!rec) {
          const Adjust adjust = [](std::vector<std::string>& argv) { argv.insert(argv.end() - 1, "--no-cuda"); };
          const PlatformRun cpu = rerun("cpu", adjust);
          std::string cpu_why;
          rec = outcome(cpu, cpu_why);
          if (rec) recorded_with.emplace("cpu", adjust);
          if (!rec && cpu_why != why) why += "; with CUDA unavailable: " + cpu_why;
          if (rec)
            b.notes.push_back({script.string(), 0,
                               "setup.py failed with CUDA available (" + why +
                                   "): its configuration with CUDA unavailable was recorded instead, so CUDA sources "
                                   "and flags it adds only with CUDA are not analysed"});
        }
      }
      if (!rec && !required && recorded_with && !r.timed_out && r.started) {
        const PlatformRun again = run_again(run, recorded_with->first, tmp, plan, script, env, options.timeout_seconds,
                                            recorded_with->second);
        std::string again_why;
        rec = outcome(again, again_why);
      }
      if (!rec) {
        if (required) {
          result.failure = why;
          return result;
        }
        b.notes.push_back({script.string(), 0, "setup.py could not be run as on " + run.platform + " (" + why +
                                                   "): its " + run.platform + " branches are not compared"});
        continue;
      }
      if (!rec->partial.empty() && required)
        b.notes.push_back({script.string(), 0,
                           "setup.py raised after constructing " + std::to_string(rec->extensions.size()) +
                               " extension" + (rec->extensions.size() == 1 ? "" : "s") + " (" + rec->partial +
                               "): what it constructed is analysed; extensions it would have made later are not"});
      add_configurations(b, *rec, project.string(), torch, options.defines, missing);
      if (run.platform == "linux") on_linux = std::move(rec);
    }
    const bool any_sources = std::any_of(on_linux->extensions.begin(), on_linux->extensions.end(),
                                         [](const RecordedExtension& e) { return !e.sources.empty(); });
    if (!any_sources) {
      result.no_extensions = true;
      result.cmake = on_linux->cmake;
      result.failure = "it declares no extension with sources when run";
      return result;
    }
    b.requirements = on_linux->requirements;
    add_facts(b, *on_linux, torch);
    b.facts.emplace_back("build environment", "setup.py ran " + env.how);
    if (lent) b.facts.emplace_back("setuptools", lent->fact);
    if (rocm)
      b.facts.emplace_back("built for ROCm", "setup.py declares no extension with a CUDA or CPU torch; run as with a "
                                             "ROCm build of torch (torch.version.hip set, a stand-in ROCm " +
                                             std::string(kStandInRocmVersion) + "), it declares these");
    if (ci_chosen)
      b.facts.emplace_back("built as its CI builds it",
                           describe(*ci_chosen) + " (the build its defaults make does not target the stable ABI)");
    std::vector<std::string> defaulted;
    for (const auto& name : on_linux->environment_unset)
      if (!ci_chosen || !ci_chosen->env.count(name)) defaulted.push_back(name);
    if (!defaulted.empty())
      b.facts.emplace_back("environment read by setup.py, unset", join(defaulted, ", ") + ": its defaults were taken");
    // One fact per kind: the JSON report keys facts by name.
    std::map<std::string, std::string> given;
    for (const auto& [what, detail] : on_linux->given) given[what] += (given[what].empty() ? "" : "; ") + detail;
    for (const auto& [what, details] : given) b.facts.emplace_back("given to setup.py: " + what, details);
    result.build = std::move(b);
  } catch (const InputError& e) {
    result.failure = e.line();
  } catch (const std::exception& e) {
    result.failure = e.what();
  }
  return result;
}

}  // namespace torchabi::inputs
