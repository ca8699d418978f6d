// `torchabi check DIR` after the project was built: without
// compile_commands.json, the build's own build.ninja — the one torch's
// BuildExtension leaves in build/temp.*/ (fixtures/projects/setuptools_built),
// or a CMake -G Ninja build directory's — gives the commands linted, and the
// report names it. A compile database still wins.
#include <cstdlib>
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::read_all;
using lint::replace_all;
using lint::write_file;

const std::string kTemp = "build/temp.linux-x86_64-cpython-311";

// The fixture, moved to a fresh directory as its build.ninja was written
// elsewhere (/home/dev/...): its paths follow, and torch's headers are the
// stand-ins.
std::string built_copy() {
  const std::string dir = make_temp_dir() + "/setuptools_built";
  fs::copy(source_dir() + "/fixtures/projects/setuptools_built", dir, fs::copy_options::recursive);
  std::string ninja = read_all(dir + "/" + kTemp + "/build.ninja");
  replace_all(ninja, "/home/dev/.venv/lib/python3.11/site-packages/torch/include", lint::stand_ins());
  replace_all(ninja, "/home/dev/setuptools_built", dir);
  write_file(dir, kTemp + "/build.ninja", ninja);
  return dir;
}

const nlohmann::json* subject_of_kind(const nlohmann::json& j, const std::string& kind) {
  for (const auto& s : j["subjects"])
    if (s["kind"] == kind) return &s;
  return nullptr;
}

std::set<std::string> units(const nlohmann::json& j) {
  std::set<std::string> out;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") out.insert(fs::path(s["path"].get<std::string>()).filename().string());
  return out;
}

RunResult check_json(const std::string& dir) {
  return run_torchabi({"check", "--format", "json", "--cache-dir", make_temp_dir(), dir});
}

const Found kReshapeAfterTarget{"version-api-after-target", "ops.cpp", 13};

TEST(BuildNinja, SetuptoolsBuildIsLintedWithTheNinjaFilesFlags) {
  const std::string dir = built_copy();
  const std::string ninja = dir + "/" + kTemp + "/build.ninja";
  // build.ninja says 2.10 (setup.py alone says 2.9): reshape is within the target.
  auto r = check_json(dir);
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  EXPECT_FALSE(findings(j).count(kReshapeAfterTarget)) << j.dump(1);
  EXPECT_EQ(units(j), (std::set<std::string>{"ops.cpp", "norm.cpp"})) << j.dump(1);
  EXPECT_EQ(project_subject(j), nullptr) << "the real build must win over setup.py";
  const auto* from = subject_of_kind(j, "build-commands");
  ASSERT_NE(from, nullptr) << j.dump(1);
  EXPECT_EQ(from->at("path"), ninja);
  EXPECT_EQ(from->at("facts").at("compile commands"), "2");
  EXPECT_NE(from->at("facts").at("commands from").get<std::string>().find("BuildExtension"), std::string::npos);
  EXPECT_FALSE(from->at("facts").contains("not linted"));

  // The same build made for 2.9: the finding appears, so the flags linted are build.ninja's.
  std::string text = read_all(ninja);
  replace_all(text, "0x020a000000000000", "0x0209000000000000");
  write_file(dir, kTemp + "/build.ninja", text);
  auto old = check_json(dir);
  ASSERT_EQ(old.exit_code, 1) << old.err;
  EXPECT_TRUE(findings(old.json()).count(kReshapeAfterTarget)) << old.out;

  // A compile database wins over build.ninja (here one for 2.10).
  write_file(dir, "build/compile_commands.json",
             "[{\"directory\": \"" + dir + "\", \"file\": \"csrc/ops.cpp\", \"command\": \"c++ -I" + dir +
                 "/include -I" + lint::stand_ins() + " -DTORCH_TARGET_VERSION=0x020a000000000000 -std=c++17 -c "
                 "csrc/ops.cpp\"}]");
  auto db = check_json(dir);
  ASSERT_NE(db.exit_code, 2) << db.err;
  EXPECT_FALSE(findings(db.json()).count(kReshapeAfterTarget)) << db.out;
  EXPECT_EQ(subject_of_kind(db.json(), "build-commands"), nullptr) << db.out;
  EXPECT_EQ(units(db.json()), std::set<std::string>{"ops.cpp"});
}

// BuildExtension rewrites build.ninja for each extension: objects it no
// longer lists are another extension's, and the report says they were not linted.
TEST(BuildNinja, ObjectsOfOtherExtensionsAreReportedAsNotLinted) {
  const std::string dir = built_copy();
  for (const char* o : {"csrc/ops.o", "csrc/norm.o", "csrc/other/kernel.o"}) write_file(dir, kTemp + "/" + o, "");
  auto r = check_json(dir);
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = r.json();
  const auto* from = subject_of_kind(j, "build-commands");
  ASSERT_NE(from, nullptr) << r.out;
  EXPECT_NE(from->at("facts").value("not linted", "").find("1 more object here"), std::string::npos) << r.out;
}

// The same project before it was built: setup.py (run) says 2.9, so the
// difference above is the build's.
TEST(BuildNinja, WithoutTheBuildSetupPyIsReadInstead) {
  const std::string dir = built_copy();
  fs::remove_all(dir + "/build");
  auto r = run_torchabi({"check", "--format", "json", "--cache-dir", make_temp_dir(), "--torch-include",
                         lint::stand_ins(), dir});
  if (r.out.find("could not be run") != std::string::npos) GTEST_SKIP() << "python3 here cannot run setup.py";
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_TRUE(findings(j).count(kReshapeAfterTarget)) << j.dump(1);
  EXPECT_NE(project_subject(j), nullptr);
  EXPECT_EQ(subject_of_kind(j, "build-commands"), nullptr);
}

// `lint -p` takes the build directory BuildExtension wrote as it takes a CMake one.
TEST(BuildNinja, LintReadsABuildDirectoryWithOnlyBuildNinja) {
  const std::string dir = built_copy();
  auto r = lint::lint_json({"-p", dir + "/" + kTemp});
  ASSERT_NE(r.exit_code, 2) << r.err;
  EXPECT_EQ(units(r.json()), (std::set<std::string>{"ops.cpp", "norm.cpp"})) << r.out;
}

// A CMake build directory made with -G Ninja and no compile database.
TEST(BuildNinja, CMakeNinjaBuildDirectoryIsTheRealBuild) {
  if (std::system("cmake --version >/dev/null 2>&1 && ninja --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "cmake or ninja is not installed";
  const std::string dir = make_temp_dir() + "/cmake_ninja";
  fs::create_directories(dir);
  fs::copy(source_dir() + "/fixtures/projects/setuptools_built/csrc", dir + "/csrc", fs::copy_options::recursive);
  fs::copy(source_dir() + "/fixtures/projects/setuptools_built/include", dir + "/include", fs::copy_options::recursive);
  // 2.9 comes only from CMake's flags, so the finding proves they were read.
  write_file(dir, "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.18)\nproject(built_sample LANGUAGES CXX)\n"
             "add_library(built_sample SHARED csrc/ops.cpp)\n"
             "target_include_directories(built_sample PRIVATE include " + lint::stand_ins() + ")\n"
             "target_compile_definitions(built_sample PRIVATE TORCH_TARGET_VERSION=0x0209000000000000)\n"
             "set_target_properties(built_sample PROPERTIES CXX_STANDARD 17)\n");
  const std::string configure = "cmake -G Ninja -S '" + dir + "' -B '" + dir +
                                "/build' -DCMAKE_EXPORT_COMPILE_COMMANDS=OFF >/dev/null 2>&1";
  ASSERT_EQ(std::system(configure.c_str()), 0);
  ASSERT_FALSE(fs::exists(dir + "/build/compile_commands.json"));
  auto r = check_json(dir);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_TRUE(findings(j).count(kReshapeAfterTarget)) << j.dump(1);
  EXPECT_EQ(project_subject(j), nullptr) << "the build directory must win over CMakeLists.txt";
  const auto* from = subject_of_kind(j, "build-commands");
  ASSERT_NE(from, nullptr) << j.dump(1);
  EXPECT_EQ(from->at("path"), dir + "/build/build.ninja");
  EXPECT_EQ(from->at("facts").at("compile commands"), "1");
}

// A build.ninja torchabi cannot read is that input's error, named with its line.
TEST(BuildNinja, UnreadableBuildNinjaIsAnInputErrorNamingIt) {
  const std::string dir = make_temp_dir();
  write_file(dir, "csrc/a.cpp", "int f() { return 1; }\n");
  write_file(dir, kTemp + "/build.ninja", "cxx = c++\nrule compile\n  command = $cxx -c $in$!\n");
  auto r = run_torchabi({"check", dir});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find(dir + "/" + kTemp + "/build.ninja: line 3: bad $-escape"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace torchabi::e2e
