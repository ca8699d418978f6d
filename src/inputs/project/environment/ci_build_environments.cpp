#include "inputs/project/environment/ci_build_environments.h"

#include <algorithm>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "common/regex.h"

namespace torchabi::inputs {

namespace fs = std::filesystem;

namespace {

// A command that builds the package (not one that installs its dependencies).
bool builds_package(const std::string& line) {
  static const Regex kBuild(
      R"re(\b(pip3?|uv pip|python3?\s+-m\s+pip)\s+(wheel|install)\b[^#\n;&|]*(\s\.(\s|/|$)|\s\./|\s-e\s+\.|\s--no-build-isolation\b)|\buv\s+build\b|\bpython3?\s+-m\s+build\b|\bsetup\.py\s+(bdist_wheel|build_ext|build|install|develop)\b|\bcibuildwheel\b)re");
  return kBuild.contains(line);
}

bool literal(const std::string& value) { return value.find("${{") == std::string::npos; }

void add_map(const YAML::Node& node, std::map<std::string, std::string>& env) {
  if (!node || !node.IsMap()) return;
  for (const auto& kv : node) {
    if (!kv.second.IsScalar()) continue;
    const std::string value = kv.second.as<std::string>();
    if (literal(value)) env[kv.first.as<std::string>()] = value;
    else env.erase(kv.first.as<std::string>());  // CI decides: unknown, not the job's value
  }
}

// NAME=value words before a build command, and `export NAME=value` lines
// before it, in a step's script.
void add_script_assignments(const std::string& script, std::map<std::string, std::string>& env) {
  static const Regex kExport(R"re(^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)=(["']?)([^"'\s]*)\2\s*$)re");
  static const Regex kPrefix(R"re(^\s*([A-Za-z_][A-Za-z0-9_]*)=(["']?)([^"'\s]*)\2\s+)re");
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    if (const auto m = kExport.match(line)) {
      if (literal((*m)[3])) env[(*m)[1]] = (*m)[3];
      continue;
    }
    if (!builds_package(line)) continue;
    std::string rest = line;
    for (auto m = kPrefix.search(rest); m && m->position() == 0; m = kPrefix.search(rest)) {
      if (literal((*m)[3])) env[(*m)[1]] = (*m)[3];
      rest = rest.substr((*m)[0].size());
    }
    return;  // what the first build command sees
  }
}

std::string scalar(const YAML::Node& n) { return n && n.IsScalar() ? n.as<std::string>() : std::string(); }

}  // namespace

fs::path enclosing_git_repository(const fs::path& dir) {
  std::error_code ec;
  for (fs::path p = fs::absolute(dir).lexically_normal(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return p;
    if (p == p.root_path()) break;
  }
  return {};
}

std::vector<CiBuildEnvironment> ci_build_environments(const fs::path& repo) {
  std::vector<CiBuildEnvironment> out;
  const fs::path dir = repo / ".github" / "workflows";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yml" || e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    try {
      const YAML::Node root = YAML::LoadFile(file.string());
      std::map<std::string, std::string> workflow_env;
      add_map(root["env"], workflow_env);
      const YAML::Node jobs = root["jobs"];
      if (!jobs || !jobs.IsMap()) continue;
      for (const auto& job : jobs) {
        std::map<std::string, std::string> job_env = workflow_env;
        add_map(job.second["env"], job_env);
        const YAML::Node steps = job.second["steps"];
        if (!steps || !steps.IsSequence()) continue;
        for (const auto& step : steps) {
          const std::string run = scalar(step["run"]);
          std::istringstream lines(run);
          bool build = false;
          for (std::string line; std::getline(lines, line);) build = build || builds_package(line);
          if (!build) continue;
          CiBuildEnvironment e;
          e.file = fs::relative(file, repo, ec).string();
          e.job = job.first.as<std::string>();
          e.step = scalar(step["name"]);
          e.env = job_env;
          add_map(step["env"], e.env);
          add_script_assignments(run, e.env);
          out.push_back(std::move(e));
        }
      }
    } catch (const YAML::Exception&) {
      continue;
    }
  }
  return out;
}

std::string describe(const CiBuildEnvironment& e) {
  std::string s = e.file + ", job " + e.job + (e.step.empty() ? std::string() : ", step '" + e.step + "'") + ":";
  for (const auto& [k, v] : e.env) s += " " + k + "=" + v;
  return s;
}

}  // namespace torchabi::inputs
