// Which Python runs a project's build script (environment/project_interpreter.h)
// and the PEP 440 specifiers it is chosen by (python_specifier.h). The
// interpreters are fake: shell scripts that print a version, in a temporary
// PATH, pyenv root, uv directory and conda installation.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "inputs/project/environment/project_interpreter.h"
#include "inputs/project/environment/python_specifier.h"
#include "inputs/project/project_copy.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

Pep440Version v(const std::string& text) {
  auto parsed = parse_pep440_version(text);
  EXPECT_TRUE(parsed) << text;
  return parsed.value_or(Pep440Version{});
}

bool allows(const std::string& spec, const std::string& version) {
  auto s = parse_version_specifier(spec);
  EXPECT_TRUE(s.specifier) << spec << ": " << s.error;
  return s.specifier && s.specifier->allows(v(version));
}

TEST(PythonSpecifier, VersionsInEverySpellingPep440Normalizes) {
  EXPECT_EQ(v("3.12").str(), "3.12");
  EXPECT_EQ(v("v3.12.1").str(), "3.12.1");
  EXPECT_EQ(v(" 3.13.0rc1 ").str(), "3.13.0rc1");
  EXPECT_EQ(v("3.13.0-RC1").str(), "3.13.0rc1");
  EXPECT_EQ(v("3.13.0c1").str(), "3.13.0rc1");
  EXPECT_EQ(v("1.0alpha2").str(), "1.0a2");
  EXPECT_EQ(v("1.0.post2").str(), "1.0.post2");
  EXPECT_EQ(v("1.0-1").str(), "1.0.post1");
  EXPECT_EQ(v("1.0.dev3").str(), "1.0.dev3");
  EXPECT_EQ(v("2!1.0").str(), "2!1.0");
  EXPECT_EQ(v("3.12.1+local.7").str(), "3.12.1");
  for (const char* bad : {"", "abc", "3..1", "3.12-", "3.12+", "3.12 1", ">=3.12", "3.x"})
    EXPECT_FALSE(parse_pep440_version(bad)) << bad;
}

TEST(PythonSpecifier, OrderedAsPackagingOrdersThem) {
  const char* ascending[] = {"1.0.dev0", "1.0a1", "1.0a2.dev1", "1.0a2", "1.0b1", "1.0rc1", "1.0", "1.0.post1.dev0",
                             "1.0.post1", "1.1", "3.9", "3.10", "3.10.1", "1!0.1"};
  for (size_t i = 0; i + 1 < std::size(ascending); ++i)
    EXPECT_LT(compare_versions(v(ascending[i]), v(ascending[i + 1])), 0) << ascending[i] << " < " << ascending[i + 1];
  EXPECT_EQ(compare_versions(v("3.12"), v("3.12.0")), 0);
  EXPECT_EQ(compare_versions(v("3.12.0+abc"), v("3.12")), 0);
}

TEST(PythonSpecifier, ComparisonsRangesAndWildcards) {
  EXPECT_TRUE(allows(">=3.12", "3.12.0"));
  EXPECT_TRUE(allows(">=3.12", "3.13.1"));
  EXPECT_FALSE(allows(">=3.12", "3.11.7"));
  EXPECT_TRUE(allows(">=3.8, <3.12", "3.11.7"));
  EXPECT_FALSE(allows(">=3.8,<3.12", "3.12.0"));
  EXPECT_TRUE(allows("<=3.12", "3.12.0"));
  EXPECT_FALSE(allows("<=3.12", "3.12.1"));
  EXPECT_TRUE(allows(">3.12", "3.12.1"));
  EXPECT_FALSE(allows(">3.12", "3.12.0"));
  EXPECT_TRUE(allows("==3.12.*", "3.12.9"));
  EXPECT_TRUE(allows("==3.12.*", "3.12"));
  EXPECT_FALSE(allows("==3.12.*", "3.13.0"));
  EXPECT_FALSE(allows("==3.1.*", "3.12.0"));  // a prefix of numbers, not of text
  EXPECT_TRUE(allows("!=3.11.*", "3.12.0"));
  EXPECT_FALSE(allows(">=3.9,!=3.11.*", "3.11.2"));
  EXPECT_TRUE(allows("==3.12", "3.12.0"));
  EXPECT_FALSE(allows("==3.12", "3.12.1"));
  EXPECT_TRUE(allows("!=3.12.1", "3.12.2"));
  EXPECT_TRUE(allows("===3.12.1", "3.12.1"));
  EXPECT_FALSE(allows("===3.12", "3.12.0"));  // arbitrary equality compares text
}

TEST(PythonSpecifier, CompatibleReleaseDropsTheLastNumber) {
  EXPECT_TRUE(allows("~=3.10", "3.13.1"));
  EXPECT_FALSE(allows("~=3.10", "3.9.18"));
  EXPECT_FALSE(allows("~=3.10", "4.0"));
  EXPECT_TRUE(allows("~=3.10.2", "3.10.5"));
  EXPECT_FALSE(allows("~=3.10.2", "3.10.1"));
  EXPECT_FALSE(allows("~=3.10.2", "3.11.0"));
}

TEST(PythonSpecifier, PreReleasesOnlyWhenAClauseNamesOne) {
  EXPECT_FALSE(allows(">=3.12", "3.14.0rc1"));
  EXPECT_FALSE(allows("<3.13", "3.13.0rc1"));
  EXPECT_TRUE(allows(">=3.13.0rc1", "3.13.0rc2"));
  EXPECT_TRUE(allows(">=3.13.0rc1", "3.13.0"));
  EXPECT_FALSE(allows(">3.12", "3.12.post1"));
}

TEST(PythonSpecifier, WhatIsNotASpecifierSaysWhy) {
  for (const char* bad : {"", "3.12", ">=", ">=3.12,", ",>=3.12", ">=3.*", "~=3", "===", "=>3.12", ">=3.12.0rc1.*",
                          "^3.12"}) {
    auto s = parse_version_specifier(bad);
    EXPECT_FALSE(s.specifier) << bad;
    EXPECT_FALSE(s.error.empty()) << bad;
  }
  EXPECT_NE(parse_version_specifier("3.12").error.find("no operator"), std::string::npos);
  EXPECT_NE(parse_version_specifier("~=3").error.find("two numbers"), std::string::npos);
}

// A temporary tree of fake interpreters: each a script that prints its version.
struct FakeMachine {
  ScratchDir dir{"interpreters"};
  fs::path root() const { return fs::path(dir.path()); }
  std::string add(const fs::path& rel, const std::string& version_line) {
    const fs::path file = root() / rel;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "#!/bin/sh\necho '" << version_line << "'\n";
    fs::permissions(file, fs::perms::owner_all);
    return file.string();
  }
  // One that tells its version and imports nothing (pyenv's 3.12 without setuptools).
  std::string add_bare(const fs::path& rel, const std::string& version_line) {
    const fs::path file = root() / rel;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "#!/bin/sh\n[ \"$1\" = --version ] && { echo '" << version_line << "'; exit 0; }\nexit 1\n";
    fs::permissions(file, fs::perms::owner_all);
    return file.string();
  }
  InterpreterSearch search() const {
    InterpreterSearch s;
    s.path_dirs = {(root() / "bin").string(), (root() / "pyenv" / "shims").string()};
    s.pyenv_roots = {(root() / "pyenv").string()};
    s.uv_roots = {(root() / "uv").string()};
    s.conda_roots = {(root() / "conda").string()};
    return s;
  }
  FakeMachine() {
    add("bin/python3", "Python 3.11.2");
    add("bin/python3.12", "Python 3.12.4");
    add("pyenv/versions/3.13.1/bin/python3", "Python 3.13.1");
    add("pyenv/shims/python3.14", "Python 3.14.0");  // a shim: skipped
    add("uv/cpython-3.10.16-linux-x86_64-gnu/bin/python3", "Python 3.10.16");
    add("conda/envs/work/bin/python3", "Python 3.12.9");
  }
};

PythonDemand demand_of(const std::string& requires_python) {
  PythonDemand d;
  auto s = parse_version_specifier(requires_python);
  EXPECT_TRUE(s.specifier) << s.error;
  d.requires_python = s.specifier;
  d.requires_file = "/p/pyproject.toml";
  d.requires_line = 4;
  return d;
}

TEST(ProjectInterpreter, TheVersionIsWhatTheInterpreterSays) {
  FakeMachine m;
  EXPECT_EQ(interpreter_version((m.root() / "bin/python3.12").string(), "")->str(), "3.12.4");
  const std::string rc = m.add("rc/python3", "Python 3.13.0rc1");
  EXPECT_EQ(interpreter_version(rc, "")->str(), "3.13.0rc1");
  EXPECT_FALSE(interpreter_version((m.root() / "nowhere/python3").string(), ""));
  EXPECT_FALSE(interpreter_version(m.add("junk/python3", "hello"), ""));
}

TEST(ProjectInterpreter, EveryPlaceIsSearchedAndShimsAreNot) {
  FakeMachine m;
  std::map<std::string, std::string> found;  // version -> origin
  for (const auto& i : find_interpreters(m.search(), "")) found[i.version ? i.version->str() : "?"] = i.origin;
  EXPECT_EQ(found, (std::map<std::string, std::string>{
                       {"3.11.2", "PATH"}, {"3.12.4", "PATH"}, {"3.13.1", "pyenv"}, {"3.10.16", "uv"}, {"3.12.9", "conda"}}));
}

TEST(ProjectInterpreter, OneEntryPerExecutableFile) {
  FakeMachine m;
  fs::create_symlink(m.root() / "bin/python3.12", m.root() / "bin/python3.99");
  size_t twelve = 0;
  for (const auto& i : find_interpreters(m.search(), "")) twelve += i.version && i.version->str() == "3.12.4";
  EXPECT_EQ(twelve, 1u);
}

// The environment's places, PATH's directories in order (each one whole).
TEST(ProjectInterpreter, TheSearchReadsTheEnvironment) {
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  const std::string saved_home = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("PATH", "/opt/a-long-directory-name/bin:/usr/bin::/bin", 1);
  ::setenv("HOME", "/home/someone", 1);
  ::setenv("PYENV_ROOT", "/srv/pyenv", 1);
  const InterpreterSearch s = InterpreterSearch::from_environment();
  ::setenv("PATH", saved_path.c_str(), 1);
  ::setenv("HOME", saved_home.c_str(), 1);
  ::unsetenv("PYENV_ROOT");
  EXPECT_EQ(s.path_dirs, (std::vector<std::string>{"/opt/a-long-directory-name/bin", "/usr/bin", "/bin"}));
  EXPECT_EQ(s.pyenv_roots, (std::vector<std::string>{"/srv/pyenv", "/home/someone/.pyenv"}));
  EXPECT_NE(std::find(s.uv_roots.begin(), s.uv_roots.end(), "/home/someone/.local/share/uv/python"), s.uv_roots.end());
  EXPECT_NE(std::find(s.conda_roots.begin(), s.conda_roots.end(), "/home/someone/miniconda3"), s.conda_roots.end());
}

TEST(ProjectInterpreter, TheUsersWhenTheProjectDemandsNothingOrItSatisfies) {
  FakeMachine m;
  const std::string user = (m.root() / "bin/python3").string();
  InterpreterChoice c = choose_interpreter(PythonDemand{}, user, false, m.search(), "");
  EXPECT_EQ(c.python, user);
  EXPECT_TRUE(c.satisfies);
  EXPECT_NE(c.fact.find("states no requires-python"), std::string::npos) << c.fact;
  c = choose_interpreter(demand_of(">=3.8"), user, true, m.search(), "");
  EXPECT_EQ(c.python, user);
  EXPECT_EQ(c.version->str(), "3.11.2");
  EXPECT_EQ(c.fact, user + " (3.11.2, --python): satisfies requires-python '>=3.8' (pyproject.toml:4)");
  EXPECT_TRUE(c.found.empty());  // nothing else was asked
}

TEST(ProjectInterpreter, TheNewestThatSatisfiesWhenTheUsersDoesNot) {
  FakeMachine m;
  const std::string user = (m.root() / "bin/python3").string();
  InterpreterChoice c = choose_interpreter(demand_of(">=3.12"), user, false, m.search(), "");
  EXPECT_TRUE(c.satisfies);
  EXPECT_EQ(c.python, (m.root() / "pyenv/versions/3.13.1/bin/python3").string());
  EXPECT_NE(c.fact.find("(3.13.1, pyenv): the newest interpreter found that satisfies requires-python '>=3.12'"),
            std::string::npos)
      << c.fact;
  EXPECT_NE(c.fact.find(user + " (3.11.2) does not"), std::string::npos) << c.fact;
  c = choose_interpreter(demand_of(">=3.12,<3.13"), user, false, m.search(), "");
  EXPECT_EQ(c.python, (m.root() / "conda/envs/work/bin/python3").string());
  EXPECT_EQ(c.version->str(), "3.12.9");
  c = choose_interpreter(demand_of("<3.11"), user, false, m.search(), "");
  EXPECT_EQ(c.python, (m.root() / "uv/cpython-3.10.16-linux-x86_64-gnu/bin/python3").string());
}

TEST(ProjectInterpreter, OneThatImportsWhatTheScriptNeedsIsPreferred) {
  FakeMachine m;
  m.add_bare("pyenv/versions/3.14.2/bin/python3", "Python 3.14.2");
  const std::string user = (m.root() / "bin/python3").string();
  EXPECT_FALSE(interpreter_imports((m.root() / "pyenv/versions/3.14.2/bin/python3").string(), "setuptools", ""));
  EXPECT_TRUE(interpreter_imports((m.root() / "pyenv/versions/3.13.1/bin/python3").string(), "setuptools", ""));
  InterpreterChoice c = choose_interpreter(demand_of(">=3.12"), user, false, m.search(), "", "setuptools");
  EXPECT_EQ(c.version->str(), "3.13.1");
  EXPECT_EQ(c.fact.find("none of them"), std::string::npos) << c.fact;
  // Without the module asked for, the newest.
  EXPECT_EQ(choose_interpreter(demand_of(">=3.12"), user, false, m.search(), "").version->str(), "3.14.2");
  // When none imports it, the newest, and the fact says so.
  c = choose_interpreter(demand_of(">=3.14"), user, false, m.search(), "", "setuptools");
  EXPECT_EQ(c.version->str(), "3.14.2");
  EXPECT_NE(c.fact.find("(none of them imports setuptools)"), std::string::npos) << c.fact;
}

TEST(ProjectInterpreter, NoneSatisfiesKeepsTheUsersAndSaysWhatWasFound) {
  FakeMachine m;
  const std::string user = (m.root() / "bin/python3").string();
  InterpreterChoice c = choose_interpreter(demand_of(">=3.15"), user, false, m.search(), "");
  EXPECT_FALSE(c.satisfies);
  EXPECT_EQ(c.python, user);
  EXPECT_EQ(c.found.size(), 5u);
  EXPECT_NE(c.fact.find("the project needs requires-python '>=3.15' (pyproject.toml:4): no interpreter found "
                        "satisfies it (found 3.11.2 ("),
            std::string::npos)
      << c.fact;
}

TEST(ProjectInterpreter, AnInterpreterThatDoesNotRunIsNotChosen) {
  FakeMachine m;
  InterpreterChoice c = choose_interpreter(demand_of(">=3.12"), "/nonexistent/python3", true, m.search(), "");
  EXPECT_TRUE(c.satisfies);
  EXPECT_EQ(c.version->str(), "3.13.1");
  EXPECT_NE(c.fact.find("/nonexistent/python3 (no version, --python) does not"), std::string::npos) << c.fact;
}

TEST(ProjectInterpreter, RequiresPythonAndTheNearestPythonVersionFile) {
  ScratchDir d("demand");
  const fs::path project = fs::path(d.path()) / "repo" / "pkg";
  fs::create_directories(project);
  std::ofstream(project / "pyproject.toml") << "[project]\nname = 'x'\n\nrequires-python = \">=3.10\"\n";
  std::ofstream(fs::path(d.path()) / "repo" / ".python-version") << "# pinned by uv\ncpython-3.12.1\n";
  PythonDemand demand = read_python_demand(project.string());
  ASSERT_TRUE(demand.requires_python);
  EXPECT_EQ(demand.requires_line, 4);
  ASSERT_TRUE(demand.pin);
  EXPECT_EQ(demand.pin_text, "cpython-3.12.1");
  EXPECT_EQ(demand.describe(), "requires-python '>=3.10' (pyproject.toml:4) and .python-version 'cpython-3.12.1'");
  EXPECT_TRUE(demand.allows(v("3.12.8")));   // held to its major.minor
  EXPECT_FALSE(demand.allows(v("3.13.0")));  // the pin
  EXPECT_FALSE(demand.allows(v("3.9.1")));   // requires-python
}

TEST(ProjectInterpreter, WhatDemandsNothingIsNotADemand) {
  ScratchDir d("demand");
  const fs::path project(d.path());
  std::ofstream(project / ".python-version") << "system\n";
  std::ofstream(project / "pyproject.toml") << "[project]\nname = 'x'\nrequires-python = \"\"\n";
  PythonDemand demand = read_python_demand(project.string());
  EXPECT_FALSE(demand.any());
  EXPECT_TRUE(demand.unreadable.empty());
  std::ofstream(project / "pyproject.toml") << "[project]\nname = 'x'\nrequires-python = \"3.12\"\n";
  demand = read_python_demand(project.string());
  EXPECT_FALSE(demand.any());
  ASSERT_EQ(demand.unreadable.size(), 1u);
  EXPECT_NE(demand.unreadable[0].find("requires-python '3.12' cannot be read ('3.12' has no operator"),
            std::string::npos)
      << demand.unreadable[0];
}

}  // namespace
}  // namespace torchabi::inputs
