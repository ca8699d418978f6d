#include "inputs/project/jit_run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/input_error.h"
#include "common/json_io.h"
#include "common/text.h"
#include "inputs/project/environment/build_environment.h"
#include "inputs/project/environment/sandbox.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/record_jit_loads_py.h"  // generated from record_jit_loads.py
#include "inputs/project/record_cmake_drive_py.h"  // generated from record_cmake_drive.py
#include "inputs/project/record_setup_py.h"      // generated from record_setup.py
#include "inputs/project/script_copy.h"
#include "inputs/project/timed_child.h"
#include "inputs/rules_source.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;
using nlohmann::json;

namespace jit_run_detail {  // named: the library is built as one unity file

std::string mapped(std::string s, const std::string& from, const std::string& to) { return text::replace_all(std::move(s), from, to); }

std::vector<std::string> strings(const json& v, const std::string& from, const std::string& to) {
  std::vector<std::string> out;
  if (v.is_array())
    for (const auto& s : v)
      if (s.is_string()) out.push_back(mapped(s.get<std::string>(), from, to));
  return out;
}

bool is_cuda_source(const std::string& p) { return p.ends_with(".cu") || p.ends_with(".cuh"); }

}  // namespace jit_run_detail

JitRunResult run_jit_loads(const std::string& dir, const std::vector<std::string>& py_files, const TorchLocation& torch,
                           const ProjectOptions& options) {
  using namespace jit_run_detail;
  JitRunResult result;
  const fs::path project = fs::absolute(dir).lexically_normal();
  try {
    ScratchDir scratch("jit");
    if (!scratch.ok()) throw InputError(fs::temp_directory_path().string(), "cannot create a temporary directory");
    const fs::path tmp = fs::canonical(scratch.path());
    std::ofstream(tmp / "record_setup.py", std::ios::binary) << generated::kRecordSetupPy;
    std::ofstream(tmp / "record_jit_loads.py", std::ios::binary) << generated::kRecordJitLoadsPy;
    std::ofstream(tmp / "record_cmake_drive.py", std::ios::binary) << generated::kRecordCmakeDrivePy;
    std::ofstream(tmp / "torch_surface.json", std::ios::binary)
        << RulesSource::current().read("project/torch_surface.json").value_or("{}");
    std::vector<fs::path> scripts(py_files.begin(), py_files.end());
    const ScriptCopyPlan plan = plan_script_copy(project, scripts);
    if (!plan.note.empty()) result.notes.push_back({project.string(), 0, plan.note});
    BuildEnvironment env = make_build_environment({tmp.string(), plan.top.string(), options.python, torch.include_dirs,
                                                   options.unconfined});
    const fs::path copy = make_script_copy(plan, tmp / "linux");
    const fs::path out = tmp / "loads.json";
    std::vector<std::string> argv = {env.python, (tmp / "record_jit_loads.py").string(), "--out", out.string(),
                                     "--cuda-home", (tmp / "cuda").string(), "--cuda-version", kStandInCudaVersion,
                                     "--torch-surface", (tmp / "torch_surface.json").string()};
    if (const std::string release = torch_headers_version(torch.include_dirs); !release.empty())
      argv.insert(argv.end(), {"--torch-version", release});
    if (!torch.include_dirs.empty()) argv.insert(argv.end(), {"--torch-include", torch.include_dirs.front()});
    if (plan.top != plan.project) argv.insert(argv.end(), {"--tree", script_copy_top(plan, tmp / "linux").string()});
    argv.push_back(copy.string());
    for (const auto& f : py_files) argv.push_back((copy / fs::absolute(f).lexically_normal().lexically_relative(project)).string());
    if (env.confined) hand_over_writable(env.confinement);
    const ChildResult r = run_timed(argv, copy.string(), options.timeout_seconds, env.confined ? &env.confinement : nullptr);
    if (r.sandbox_unavailable) {
      result.failure = "the modules cannot be confined here, so they were not imported; --run-build=unconfined imports them";
      return result;
    }
    if (!r.started || r.timed_out || r.exit_code != 0) {
      result.failure = r.timed_out ? "importing them did not finish within " + std::to_string(options.timeout_seconds) + " s"
                                   : mapped(text::last_line(r.output), script_copy_top(plan, tmp / "linux").string(),
                                            plan.top.string());
      if (result.failure.empty()) result.failure = options.python + " exited with status " + std::to_string(r.exit_code);
      return result;
    }
    const json j = json_io::parse(text::read_file_or_empty(out));
    const std::string from = script_copy_top(plan, tmp / "linux").string(), to = plan.top.string();
    for (const auto& l : j.value("loads", json::array())) {
      JitLoad load;
      load.function = "load";
      load.recorded = true;
      load.file = mapped(l.value("file", ""), from, to);
      load.ext.name = l.value("name", "");
      load.ext.line = l.value("line", 0);
      load.ext.sources = strings(l["sources"], from, to);
      load.ext.include_dirs = strings(l["extra_include_paths"], from, to);
      load.ext.cxx_args = strings(l["extra_cflags"], from, to);
      load.ext.nvcc_args = strings(l["extra_cuda_cflags"], from, to);
      load.with_cuda_given = l["with_cuda"].is_boolean();
      load.ext.cuda = load.with_cuda_given ? l["with_cuda"].get<bool>()
                                           : std::any_of(load.ext.sources.begin(), load.ext.sources.end(), is_cuda_source);
      load.standalone = l.value("is_standalone", false);
      if (load.file.empty()) continue;  // called from outside the project
      result.loads.push_back(std::move(load));
    }
    for (const auto& f : j.value("failures", json::array()))
      if (f.is_string()) {
        result.raised.push_back(mapped(f.get<std::string>(), from, to));
        result.notes.push_back({project.string(), 0,
                                "importing a module that builds with cpp_extension.load() raised (" +
                                    result.raised.back() +
                                    "): the load() calls it made before are analysed, later ones are not"});
      }
    // One fact per kind: the JSON report keys facts by name.
    std::map<std::string, std::string> given;
    for (const auto& g : j.value("given", json::array()))
      if (g.is_array() && g.size() == 2 && g[0].is_string() && g[1].is_string()) {
        std::string& all = given[g[0].get<std::string>()];
        all += (all.empty() ? "" : "; ") + mapped(g[1].get<std::string>(), from, to);
      }
    for (const auto& [what, details] : given) result.facts.emplace_back("given to the imported modules: " + what, details);
    result.how = env.how;
    result.ran = true;
  } catch (const InputError& e) {
    result.failure = e.line();
  } catch (const std::exception& e) {
    result.failure = e.what();
  }
  return result;
}

}  // namespace torchabi::inputs
