#include "inputs/project/cmake_file_api.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/input_error.h"
#include "common/text.h"
#include "common/version.h"
#include "inputs/project/cmake_reply.h"
#include "inputs/project/cmake_stand_ins.h"
#include "inputs/project/continued_scope.h"
#include "inputs/project/environment/build_environment.h"
#include "inputs/project/environment/cmake_prerequisites.h"
#include "inputs/project/environment/cmake_version_floor.h"
#include "inputs/project/environment/fetch_content_placeholders.h"
#include "inputs/project/environment/newer_cmake.h"
#include "inputs/project/environment/standin_torch_package.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/timed_child.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

std::string last_cmake_error(const std::string& output) {
  std::istringstream in(output);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (size_t i = lines.size(); i-- > 0;) {
    if (!lines[i].starts_with("CMake Error")) continue;
    // The message follows on indented lines, up to a blank one.
    std::string text = lines[i];
    for (size_t j = i + 1; j < lines.size() && !lines[j].empty() && lines[j][0] == ' '; ++j) {
      const size_t b = lines[j].find_first_not_of(' ');
      text += " " + lines[j].substr(b);
    }
    if (text.size() > 300) text = text.substr(0, 297) + "...";
    return text;
  }
  // No CMake Error line: the last non-empty line says most.
  for (size_t i = lines.size(); i-- > 0;)
    if (lines[i].find_first_not_of(" \t\r") != std::string::npos) return lines[i];
  return "no output";
}

namespace {

using text::join;


// The copy's paths read as the user's.
struct PathMapper {
  std::string copy_root, project_root;
  std::string operator()(const std::string& p) const {
    if (!text::path_is_under(p, copy_root)) return p;
    return project_root + p.substr(copy_root.size());
  }
};

}  // namespace

FileApiResult configure_with_file_api(const std::string& cmake_lists, const TorchLocation& torch,
                                      const FileApiOptions& options) {
  FileApiResult r;
  const fs::path lists = fs::absolute(cmake_lists).lexically_normal();
  const fs::path project_root =
      fs::absolute(options.copy_root.empty() ? lists.parent_path() : fs::path(options.copy_root)).lexically_normal();
  const fs::path source_rel = lists.parent_path().lexically_relative(project_root);
  ScratchDir scratch("cmake");
  if (!scratch.ok()) {
    r.failure = "cannot create a temporary directory";
    return r;
  }
  const fs::path base(scratch.path());
  const fs::path copy = base / "src", torch_dir = base / "torch";
  // The second configure (past missing prerequisites) gets a build tree of
  // its own: both are handed to the sandbox before either runs.
  fs::path build = base / "build";
  const fs::path build_continued = base / "build-continued";
  CudaStandIn cuda;
  CMakeTool tool;
  std::string machine;  // tool's version
  PrerequisitesScript prerequisites;
  FetchContentPlaceholders fetched;
  std::vector<LoweredFloor> lowered;
  try {
    fs::create_directories(copy);
    copy_project_tree(project_root.string(), copy.string());
    // The machine's CMake, or a newer one where the project asks for it
    // (newer_cmake.h). A floor still above it would stop the configure at its
    // first line: it is lowered in the copy.
    tool = cmake_for(options.cmake, highest_cmake_floor(copy.string()));
    machine = tool.version;
    if (!tool.chosen.empty()) r.facts.emplace_back("cmake", tool.path + " " + tool.version + " (" + tool.chosen + ")");
    lowered = lower_cmake_floor(copy.string(), machine);
    std::string given;
    for (const auto& l : lowered)
      given += (given.empty() ? "" : "; ") + std::string("cmake_minimum_required(VERSION ") + l.asked + ") of " +
               fs::relative(l.file, copy).string() + " lowered to the machine's " + machine + " in the scratch copy";
    if (!given.empty()) r.facts.emplace_back("given to cmake", given);
    // A stateless query: the file's presence asks for the codemodel.
    for (const fs::path& b : {build, build_continued}) {
      fs::create_directories(b / ".cmake/api/v1/query");
      std::ofstream(b / ".cmake/api/v1/query/codemodel-v2");
    }
    fs::create_directories(base / "prerequisites");
    prerequisites = write_prerequisites_script((base / "prerequisites").string(), machine);
    fetched = write_fetch_content_placeholders(copy.string(), (base / "fetch-content").string());
    if (!fetched.names.empty())
      r.facts.emplace_back("given to cmake: FetchContent", text::join(fetched.names, ", ") +
                                                 " (downloaded by a real configure; no network here): empty "
                                                 "placeholders, so what they add is unknown");
    fs::create_directories(torch_dir);
    write_torch_config(torch_dir.string(), torch, torch_headers_version(torch.include_dirs));
    cuda = write_cuda_stand_in((base / "cuda-stand-in").string(), options.machine_cuda);
  } catch (const std::exception& e) {
    r.failure = std::string("cannot prepare the scratch copy: ") + e.what();
    return r;
  }
  std::vector<std::string> python_defines;  // known once the environment has resolved the interpreter
  auto argv_for = [&](const fs::path& build_dir, const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {tool.path, "-C", cuda.init_cache, "-S", (copy / source_rel).lexically_normal().string(),
                                     "-B", build_dir.string(), "-G", "Unix Makefiles", "-Wno-dev",
                                     "-DTorch_DIR=" + torch_dir.string()};
    argv.insert(argv.end(), fetched.cmake_args.begin(), fetched.cmake_args.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), python_defines.begin(), python_defines.end());
    for (const auto& d : options.defines) argv.push_back("-D" + (d.find('=') == std::string::npos ? d + "=ON" : d));
    return argv;
  };
  std::vector<std::string> visible = torch.include_dirs;
  if (cuda.real_toolkit) visible.push_back(cuda.toolkit_root);
  if (!tool.prefix.empty()) visible.push_back(tool.prefix);
  BuildEnvironment env;
  StandInTorchPackage standin_torch;
  try {
    env = make_build_environment({fs::canonical(base).string(), project_root.string(), options.python, visible,
                                  options.unconfined});
    if (env.confined) {
      // The torch the configure's own Python imports (vLLM's run_python).
      standin_torch = write_standin_torch_package((base / "python-stand-in").string(), torch, cuda.toolkit_root,
                                                  cuda.version);
      std::string& path = env.confinement.env["PYTHONPATH"];
      path = standin_torch.pythonpath + (path.empty() ? "" : ":" + path);
      hand_over_writable(env.confinement);
    }
  } catch (const std::exception& e) {
    r.failure = std::string("cannot prepare the scratch copy: ") + e.what();
    return r;
  }
  if (options.python_cache_entries && !env.python.empty())
    for (const char* name : {"Python_EXECUTABLE", "Python3_EXECUTABLE", "PYTHON_EXECUTABLE"})
      python_defines.push_back("-D" + std::string(name) + "=" + env.python);
  const Confinement* confinement = env.confined ? &env.confinement : nullptr;
  const auto started = std::chrono::steady_clock::now();
  ChildResult run = run_timed(argv_for(build, {}), build.string(), options.timeout_seconds, confinement);
  const int first_seconds =
      static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count());
  // Stopped by what a build machine has and this one lacks: once more, past it.
  std::vector<ContinuedPast> continued;
  std::string first_error;
  if (run.started && !run.timed_out && !run.sandbox_unavailable && run.exit_code != 0 && !prerequisites.log.empty()) {
    // Past the first error it does what the first one did, and more: but a
    // project's own download-and-retry loop (no network here) must not
    // double the wait for an answer.
    const int limit = std::min(options.timeout_seconds, std::max(30, 3 * first_seconds));
    ChildResult again = run_timed(argv_for(build_continued, prerequisites.cmake_args), build_continued.string(), limit,
                                  confinement);
    continued = read_continued(prerequisites.log);
    if (again.started && !again.timed_out && again.exit_code == 0 && !continued.empty()) {
      first_error = last_cmake_error(run.output);
      run = std::move(again);
      build = build_continued;
    } else {
      continued.clear();
    }
  }
  if (run.sandbox_unavailable) {
    r.failure = "it cannot be confined here (" + run.output.substr(run.output.find("sandbox unavailable: ") + 21) +
                "), so it was not configured; --run-build=unconfined runs it anyway";
    while (!r.failure.empty() && (r.failure.back() == '\n')) r.failure.pop_back();
    return r;
  }
  if (!run.started) {
    r.failure = tool.path + " cannot be run";
    return r;
  }
  if (run.timed_out) {
    r.failure = "cmake did not finish within " + std::to_string(options.timeout_seconds) + " s";
    return r;
  }
  if (run.exit_code != 0) {
    r.failure = "configure failed: " + last_cmake_error(run.output);
    // The likelier cause, in the same line: the project asked for a newer CMake.
    if (!lowered.empty())
      r.failure += "; the project asks for CMake " + lowered.front().asked + " and this machine has " +
                   machine + " (install a newer cmake, e.g. `pip install cmake` or scripts/fetch-cmake.sh, for its real configure)";
    return r;
  }
  if (std::error_code ec; !standin_torch.used_marker.empty() && fs::exists(standin_torch.used_marker, ec))
    r.facts.emplace_back("given to cmake's Python",
                         "the stand-in torch of the headers' release (the interpreter has none as new): its "
                         "cmake_prefix_path leads to the stand-in TorchConfig, its cpp_extension is torch's");
  const PathMapper map{copy.string(), project_root.string()};
  ReplyPaths paths;
  paths.build_dir = build.string();
  paths.to_project = map;
  paths.system_includes = torch_only_include_dirs(torch);
  CMakeReply reply;
  try {
    // The version is only known from the reply: the method names it.
    paths.method = "CMake File API";
    reply = read_cmake_reply(paths);
  } catch (const InputError& e) {
    r.failure = e.what();
    return r;
  }
  r.ok = true;
  r.cmake_version = reply.cmake_version;
  const std::string method = "CMake File API (cmake " + reply.cmake_version + ", stand-in TorchConfig)";
  bool cuda_used = false;
  for (auto& c : reply.configurations) {
    c.method = method;
    cuda_used |= c.compiler == "nvcc";
    // The stand-in toolkit's empty headers are no CUDA installation: drop them.
    if (!cuda.real_toolkit) {
      std::vector<std::string> kept;
      for (size_t i = 0; i < c.arguments.size(); ++i) {
        if (c.arguments[i] == "-isystem" && i + 1 < c.arguments.size() && text::path_is_under(c.arguments[i + 1], cuda.toolkit_root)) {
          ++i;
          continue;
        }
        if (c.arguments[i].starts_with("-I") && text::path_is_under(c.arguments[i].substr(2), cuda.toolkit_root)) continue;
        kept.push_back(c.arguments[i]);
      }
      c.arguments = std::move(kept);
    }
  }
  if (!continued.empty()) {
    // Which flags the missing packages would have added is unknown, for the
    // targets they can change (continued_scope.h); what a project skips
    // after its own FATAL_ERROR, for every target.
    std::vector<std::string> what;
    for (const auto& c : continued) what.push_back(describe(c));
    const std::string listed = join(what, "; ");
    for (auto& c : reply.configurations) {
      const std::string target = c.unit.starts_with("target ") ? c.unit.substr(7) : c.unit;
      std::vector<std::string> here;
      for (const auto* e : continued_affecting(continued, target)) here.push_back(describe(*e));
      if (here.empty()) continue;
      c.unresolved += (c.unresolved.empty() ? "" : "; ") +
                      std::string("what the prerequisites this machine lacks would add (") + join(here, "; ") + ")";
    }
    r.notes.push_back({lists.string(), 0,
                       "the configure stopped at a prerequisite this machine lacks (" + first_error +
                           "): configured again past it, as on a build machine that has it: " + listed});
    r.facts.emplace_back("continued past", listed);
  }
  r.configurations = std::move(reply.configurations);
  r.facts.emplace_back("build description",
                       lists.string() + " (configured by cmake " + reply.cmake_version +
                           " in a scratch copy, read through the CMake File API)");
  if (!options.defines.empty()) r.facts.emplace_back("cmake -D", join(options.defines, " "));
  r.facts.emplace_back("build environment", "cmake ran " + env.how);
  const std::string version = torch_headers_version(torch.include_dirs);
  r.facts.emplace_back("find_package(Torch)", "stand-in TorchConfig.cmake (Torch_VERSION " +
                                                  (version.empty() ? std::string("unknown: any asked for") : version) + "): " +
                                                  (torch.found() ? torch.how + ": " + join(torch_only_include_dirs(torch), " ")
                                                                 : torch.how));
  if (cuda_used)
    r.facts.emplace_back("CUDA compiler", "stand-in nvcc (CUDA " + cuda.version + ", not run), toolkit " +
                                              (cuda.real_toolkit ? cuda.toolkit_root : "stand-in (no CUDA installation)"));
  std::set<std::string> shown;
  for (const auto& c : r.configurations) {
    if (shown.insert(c.unit).second)
      r.facts.emplace_back(c.unit, fs::path(c.file).filename().string() + " line " + std::to_string(c.line));
    r.facts.emplace_back(c.unit + " " + c.arguments[0] + " flags",
                         join(std::vector<std::string>(c.arguments.begin() + 1, c.arguments.end()), " "));
  }
  std::set<std::string> generated(reply.generated_includes.begin(), reply.generated_includes.end());
  for (const auto& g : generated)
    r.notes.push_back({lists.string(), 0,
                       "include directory " + g.substr(build.string().size()) +
                           " of the build tree exists only in a build: headers generated there are missing"});
  return r;
}

}  // namespace torchabi::inputs
