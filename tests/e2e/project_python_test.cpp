// The Python the project declares runs its build script, and a partial
// analysis is not a pass (project-python-unavailable,
// project-analysis-partial). The fixture requires-python_312 says
// requires-python >=3.12 and its setup.py imports typing.override (3.12+);
// its CMakeLists.txt, for editors only, lists 2 of the build's 3 sources.
// Interpreters are looked for in a PATH, HOME and PYENV_ROOT of the test's
// own, where a fake python3.12 (the machine's python3, reporting 3.12 and
// given typing.override) stands for an installed 3.12.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "cli_harness.h"
#include "lint_fixtures.h"
#include "project_findings.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;

std::string fixture() { return source_dir() + "/fixtures/projects/requires_python_312"; }

// The machine's python3 at a fixed path: the one the fake 3.12 starts.
const char* kSystemPython = "/usr/bin/python3";

// A machine of the test's own: PATH without pyenv's shims, an empty HOME and
// pyenv root, no conda or uv; `extra_path` first on PATH.
std::vector<std::string> machine_env(const std::string& home, const std::string& extra_path = "") {
  return {"env",
          "-u", "CONDA_PREFIX", "-u", "CONDA_EXE", "-u", "UV_PYTHON_INSTALL_DIR", "-u", "XDG_DATA_HOME", "-u",
          "PYENV_VERSION", "-u", "VIRTUAL_ENV",
          "HOME=" + home, "PYENV_ROOT=" + home + "/pyenv",
          "PATH=" + (extra_path.empty() ? std::string() : extra_path + ":") + "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin"};
}

// An interpreter of 3.12 or newer where the test's machine looks.
bool machine_has_python312() {
  for (const char* dir : {"/usr/local/bin", "/usr/bin", "/bin"})
    for (int minor = 12; minor < 40; ++minor)
      if (fs::exists(std::string(dir) + "/python3." + std::to_string(minor))) return true;
  return false;
}

// bin/python3.12: says 3.12.9 when asked its version, else runs the
// machine's python3 with typing.override added (sitecustomize.py).
std::string fake_python312(const std::string& root) {
  const fs::path bin = fs::path(root) / "fakebin";
  fs::create_directories(bin / "site");
  std::ofstream(bin / "site" / "sitecustomize.py")
      << "import typing\nif not hasattr(typing, 'override'):\n    typing.override = lambda f: f\n";
  std::ofstream(bin / "python3.12") << "#!/bin/sh\n"
                                       "case \"$1\" in --version|-V) echo 'Python 3.12.9'; exit 0 ;; esac\n"
                                       "PYTHONPATH=\"$(dirname \"$0\")/site${PYTHONPATH:+:$PYTHONPATH}\" exec "
                                    << kSystemPython << " \"$@\"\n";
  fs::permissions(bin / "python3.12", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                          fs::perms::others_read | fs::perms::others_exec);
  return bin.string();
}

std::set<std::string> rules_of(const nlohmann::json& j) {
  std::set<std::string> out;
  for (const auto& f : j["findings"]) out.insert(f["rule"].get<std::string>());
  return out;
}

const nlohmann::json* finding(const nlohmann::json& j, const std::string& rule) {
  for (const auto& f : j["findings"])
    if (f["rule"] == rule) return &f;
  return nullptr;
}

std::vector<std::string> check_args(std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"check", "--format", "json", "--torch-include", lint::stand_ins()};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(fixture());
  return args;
}

#define SKIP_WITHOUT_SYSTEM_PYTHON()                                                    \
  do {                                                                                  \
    if (!fs::exists(kSystemPython)) GTEST_SKIP() << kSystemPython << " is not here"; \
  } while (0)

// (a) A matching interpreter exists: setup.py runs with it, every source of
// the build (scale.cu too) is linted, nothing is partial.
TEST(ProjectPython, TheDeclaredPythonRunsTheScriptAndEverySourceIsLinted) {
  SKIP_WITHOUT_SYSTEM_PYTHON();
  const std::string home = make_temp_dir();
  const std::string bin = fake_python312(home);
  auto r = run_torchabi_wrapped(machine_env(home, bin), check_args());
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = r.json();
  if (j.dump().find("cannot be confined here") != std::string::npos) GTEST_SKIP() << "no namespaces here";
  const auto* project = project_subject(j);
  ASSERT_TRUE(project) << j.dump(1);
  const auto& facts = project->at("facts");
  EXPECT_TRUE(facts.at("build description").get<std::string>().starts_with("setup.py run in CPython"))
      << facts.dump(1);
  const std::string python = facts.at("python").get<std::string>();
  EXPECT_TRUE(python.starts_with(bin + "/python3.12 (3.12.9, PATH): the newest interpreter found that satisfies "
                                       "requires-python '>=3.12' (pyproject.toml:"))
      << python;
  EXPECT_NE(facts.dump().find("extension needs312._C nvcc flags"), std::string::npos) << facts.dump(1);
  std::set<std::string> linted;  // every source of the build, the .cu too
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") linted.insert(fs::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(linted, (std::set<std::string>{"ops.cpp", "bind.cpp", "scale.cu"})) << j.dump(1);
  const std::set<std::string> rules = rules_of(j);
  EXPECT_FALSE(rules.count("project-analysis-partial")) << j.dump(1);
  EXPECT_FALSE(rules.count("project-python-unavailable")) << j.dump(1);
  EXPECT_EQ(r.exit_code, 0) << j.dump(1);
}

// (b) None exists: exit 1, the Python the project needs named, and setup.py
// read without running it (every source still linted, scale.cu included).
TEST(ProjectPython, WithoutTheDeclaredPythonTheCheckFailsAndSaysWhatIsMissing) {
  SKIP_WITHOUT_SYSTEM_PYTHON();
  if (machine_has_python312()) GTEST_SKIP() << "this machine has a Python 3.12+ on its system PATH";
  const std::string home = make_temp_dir();
  auto r = run_torchabi_wrapped(machine_env(home), check_args());
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = r.json();
  const auto* unavailable = finding(j, "project-python-unavailable");
  ASSERT_TRUE(unavailable) << j.dump(1);
  EXPECT_EQ((*unavailable)["severity"], "error");
  EXPECT_EQ(fs::path((*unavailable)["location"]["file"].get<std::string>()).filename(), "pyproject.toml");
  const std::string message = (*unavailable)["message"];
  EXPECT_NE(message.find("the project needs Python requires-python '>=3.12'"), std::string::npos) << message;
  EXPECT_NE(message.find("could not run with python3"), std::string::npos) << message;
  const auto* partial = finding(j, "project-analysis-partial");
  ASSERT_TRUE(partial) << j.dump(1);
  EXPECT_EQ((*partial)["severity"], "error");
  EXPECT_EQ(fs::path((*partial)["location"]["file"].get<std::string>()).filename(), "setup.py");
  const std::string what = (*partial)["message"];
  EXPECT_NE(what.find("setup.py could not be run with python3 ("), std::string::npos) << what;
  EXPECT_NE(what.find("override"), std::string::npos) << what;  // the ImportError, as the script raised it
  // CPython's reader of setup.py (no run) sees both branches of `_HAS_CUDA`:
  // the .cu is linted too, so the one error left is that the script did not run.
  bool cuda_linted = false;
  for (const auto& s : j["subjects"])
    cuda_linted = cuda_linted || s.value("path", "").ends_with("csrc/scale.cu");
  EXPECT_TRUE(cuda_linted) << j["subjects"].dump(1);
  EXPECT_NE((*partial)["help"].get<std::string>().find("--allow-partial"), std::string::npos);
  const auto* project = project_subject(j);
  ASSERT_TRUE(project);
  EXPECT_NE(project->at("facts").at("python").get<std::string>().find("no interpreter found satisfies it"),
            std::string::npos)
      << project->at("facts").dump(1);
}

// (c) The user accepts partial analysis: the same findings, as notes, exit 0;
// with --allow-partial, or the config's allow-partial: true.
TEST(ProjectPython, AllowPartialMakesThemNotesAndExitZero) {
  SKIP_WITHOUT_SYSTEM_PYTHON();
  if (machine_has_python312()) GTEST_SKIP() << "this machine has a Python 3.12+ on its system PATH";
  const std::string home = make_temp_dir();
  auto r = run_torchabi_wrapped(machine_env(home), check_args({"--allow-partial"}));
  const auto j = r.json();
  EXPECT_EQ(r.exit_code, 0) << j.dump(1);
  for (const char* rule : {"project-python-unavailable", "project-analysis-partial"}) {
    const auto* f = finding(j, rule);
    ASSERT_TRUE(f) << rule << j.dump(1);
    EXPECT_EQ((*f)["severity"], "note") << rule;
  }
}

TEST(ProjectPython, AllowPartialInTheConfigToo) {
  SKIP_WITHOUT_SYSTEM_PYTHON();
  if (machine_has_python312()) GTEST_SKIP() << "this machine has a Python 3.12+ on its system PATH";
  const std::string home = make_temp_dir();
  const std::string config = make_temp_dir() + "/.torchabi.yaml";
  std::ofstream(config) << "allow-partial: maybe\n";
  auto bad = run_torchabi_wrapped(machine_env(home), check_args({"--config", config}));
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.err.find("'allow-partial' must be true or false"), std::string::npos) << bad.err;
  std::ofstream(config) << "allow-partial: true\n";
  auto c = run_torchabi_wrapped(machine_env(home), check_args({"--config", config}));
  EXPECT_EQ(c.exit_code, 0) << c.out;
  const auto j = c.json();
  const auto* f = finding(j, "project-analysis-partial");
  ASSERT_TRUE(f) << j.dump(1);
  EXPECT_EQ((*f)["severity"], "note");
}

// --no-run-build reads the files on purpose: not a fallback, not partial.
TEST(ProjectPython, ReadingOnPurposeIsNotPartial) {
  const std::string home = make_temp_dir();
  auto r = run_torchabi_wrapped(machine_env(home), check_args({"--no-run-build"}));
  ASSERT_NE(r.exit_code, 2) << r.err;
  const std::set<std::string> rules = rules_of(r.json());
  EXPECT_FALSE(rules.count("project-analysis-partial"));
  EXPECT_FALSE(rules.count("project-python-unavailable"));
}

// A script that fails with an interpreter that satisfies the project (or a
// project that demands none) is partial all the same; the Python is not blamed.
TEST(ProjectPython, AScriptThatRaisesIsPartialWhateverThePython) {
  const std::string dir = source_dir() + "/fixtures/projects/setup_run_raises";
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = r.json();
  const std::set<std::string> rules = rules_of(j);
  EXPECT_FALSE(rules.count("project-python-unavailable")) << j.dump(1);
  const auto* partial = finding(j, "project-analysis-partial");
  ASSERT_TRUE(partial) << j.dump(1);
  EXPECT_NE((*partial)["message"].get<std::string>().find("RuntimeError: nvcc 99.0 is required"), std::string::npos);
}

TEST(ProjectPython, BothRulesAreExplained) {
  for (const char* rule : {"project-python-unavailable", "project-analysis-partial"}) {
    auto r = run_torchabi({"explain", rule});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("--allow-partial"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace torchabi::e2e
