// pyproject.toml read as data: scikit-build-core's CMake cache variables and
// setuptools' declarative ext-modules.
#include <filesystem>

#include <gtest/gtest.h>

#include "temp_tree.h"

#include "common/input_error.h"
#include "inputs/project/project_build.h"
#include "inputs/project/pyproject_toml.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

using TempDir = test::TempTree;

TEST(PyProject, ScikitBuildDefinesAreCacheVariables) {
  TempDir d;
  const std::string file = d.write("pyproject.toml",
                                   "[build-system]\nrequires = [\"scikit-build-core\"]\n"
                                   "build-backend = \"scikit_build_core.build\"\n"
                                   "[tool.scikit-build]\ncmake.source-dir = \"native\"\n"
                                   "cmake.args = [\"-DFROM_ARGS=1\", \"-GNinja\"]\n"
                                   "[tool.scikit-build.cmake.define]\nWITH_CUDA = true\nNAME = \"x\"\n"
                                   "ARCHS = [\"80\", \"90\"]\nFROM_ENV = { env = \"MY_FLAG\", default = \"off\" }\n");
  PyProject p = read_pyproject(file);
  EXPECT_TRUE(p.scikit_build);
  EXPECT_EQ(p.cmake_source_dir, (d.path / "native").string());
  EXPECT_EQ(p.cmake_defines, (std::vector<std::string>{"ARCHS=80;90", "FROM_ENV=off", "NAME=x", "WITH_CUDA=ON",
                                                       "FROM_ARGS=1"}));
  ASSERT_EQ(p.notes.size(), 1u);  // the environment decides FROM_ENV
  EXPECT_EQ(p.notes[0].line, 11);
  EXPECT_NE(p.notes[0].message.find("MY_FLAG"), std::string::npos);
}

TEST(PyProject, ScikitBuildProjectsReadTheirCMakeListsWithTheDefinesAndTheUsersWin) {
  TempDir d;
  d.write("CMakeLists.txt",
          "project(p CXX)\nadd_library(p MODULE a.cpp)\n"
          "if(WITH_FAST)\n  target_compile_definitions(p PRIVATE FAST=${LEVEL})\nendif()\n");
  const std::string file = d.write("pyproject.toml", "[tool.scikit-build.cmake.define]\nWITH_FAST = true\nLEVEL = \"1\"\n");
  d.write("a.cpp", "");  // sources that are not there are notes, not commands
  EXPECT_EQ(find_build_description(d.path.string()), file);
  TorchLocation torch;
  ProjectBuild b = read_project_build(file, torch);
  ASSERT_EQ(b.db.commands.size(), 1u);
  const auto& args = b.db.commands[0].arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-DFAST=1"), args.end());
  ProjectBuild mine = read_project_build(file, torch, {"LEVEL=2"});
  const auto& margs = mine.db.commands[0].arguments;
  EXPECT_NE(std::find(margs.begin(), margs.end(), "-DFAST=2"), margs.end());
}

TEST(PyProject, APyprojectThatOnlyNamesABackendGivesWayToCMakeLists) {
  TempDir d;
  d.write("pyproject.toml", "[build-system]\nrequires = [\"setuptools\"]\n");
  d.write("CMakeLists.txt", "project(p)\n");
  EXPECT_EQ(find_build_description(d.path.string()), (d.path / "CMakeLists.txt").string());
}

TEST(PyProject, SetuptoolsExtModulesWithTorchsBuildExtension) {
  TempDir d;
  const std::string file = d.write(
      "pyproject.toml",
      "[tool.setuptools.cmdclass]\nbuild_ext = \"torch.utils.cpp_extension.BuildExtension\"\n"
      "[[tool.setuptools.ext-modules]]\nname = \"pkg._C\"\nsources = [\"csrc/a.cpp\", \"csrc/b.cu\"]\n"
      "include-dirs = [\"include\"]\ndefine-macros = [[\"WITH_X\", \"1\"], [\"BARE\"]]\n"
      "extra-compile-args = [\"-O2\"]\npy-limited-api = true\n");
  d.write("csrc/a.cpp", "");
  d.write("csrc/b.cu", "");
  PyProject p = read_pyproject(file);
  EXPECT_TRUE(p.build_extension);
  ASSERT_EQ(p.extensions.size(), 1u);
  const ExtensionSpec& e = p.extensions[0];
  EXPECT_EQ(e.name, "pkg._C");
  EXPECT_TRUE(e.cuda);
  EXPECT_TRUE(e.py_limited_api);
  EXPECT_EQ(e.sources, (std::vector<std::string>{(d.path / "csrc/a.cpp").string(), (d.path / "csrc/b.cu").string()}));
  ASSERT_EQ(e.define_macros.size(), 2u);
  EXPECT_EQ(e.define_macros[1].first, "BARE");
  EXPECT_FALSE(e.define_macros[1].second);
  TorchLocation torch;
  torch.include_dirs = {"/t/include"};
  torch.limited_api = "0x030A0000";
  ProjectBuild b = read_project_build(file, torch);
  ASSERT_EQ(b.db.commands.size(), 2u);
  const auto& args = b.db.commands[0].arguments;
  for (const char* want : {"-I/t/include", "-DWITH_X=1", "-DBARE", "-O2", "-DTORCH_EXTENSION_NAME=_C", "-DPy_LIMITED_API=0x030A0000"})
    EXPECT_NE(std::find(args.begin(), args.end(), want), args.end()) << want;
}

TEST(PyProject, PlainSetuptoolsExtensionsGetNoTorchFlags) {
  TempDir d;
  const std::string file =
      d.write("pyproject.toml", "[[tool.setuptools.ext-modules]]\nname = \"plain\"\nsources = [\"a.cpp\"]\n");
  d.write("a.cpp", "");
  TorchLocation torch;
  torch.include_dirs = {"/t/include"};
  ProjectBuild b = read_project_build(file, torch);
  ASSERT_EQ(b.db.commands.size(), 1u);
  EXPECT_EQ(b.db.commands[0].arguments,
            (std::vector<std::string>{"c++", "-fPIC", "-c", (d.path / "a.cpp").string()}));
}

TEST(PyProject, NothingDeclaredOrBrokenIsAnInputErrorNamingIt) {
  TempDir d;
  const std::string none = d.write("a/pyproject.toml", "[project]\nname = \"x\"\n");
  TorchLocation torch;
  try {
    read_project_build(none, torch);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), none);
    EXPECT_NE(std::string(e.what()).find("declares no extension"), std::string::npos);
  }
  const std::string broken = d.write("b/pyproject.toml", "[tool.scikit-build\n");
  EXPECT_THROW(read_pyproject(broken), InputError);
  const std::string lost = d.write("c/pyproject.toml", "[tool.scikit-build]\ncmake.source-dir = \"nowhere\"\n");
  EXPECT_THROW(read_project_build(lost, torch), InputError);
}

}  // namespace
}  // namespace torchabi::inputs
