// The commands project mode makes for a setup.py: those BuildExtension would
// run, with the defaults read from the torch install's cpp_extension.py.
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "inputs/project/project_build.h"
#include "real_torch.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;
using test::real_torch_include;
using test::real_torch_missing_reason;
using test::real_torch_root;

const std::string kSample = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects/setuptools_cuda";

TorchLocation standin_torch() {
  TorchLocation t;
  t.include_dirs = {"/t/include", "/t/include/torch/csrc/api/include", "/py/include"};
  t.std_flag = "-std=c++20";
  t.limited_api = "0x030A0000";
  t.how = "stand-in";
  return t;
}

TEST(ProjectBuild, CommandsAreThoseBuildExtensionRuns) {
  ProjectBuild b = read_project_build(kSample + "/setup.py", standin_torch());
  ASSERT_EQ(b.db.commands.size(), 2u);
  const CompileCommand& cxx = b.db.commands[0];
  EXPECT_EQ(cxx.file, kSample + "/csrc/ops.cpp");
  EXPECT_EQ(cxx.directory, kSample);
  EXPECT_EQ(cxx.arguments,
            (std::vector<std::string>{"c++", "-I" + kSample + "/include", "-I/t/include",
                                      "-I/t/include/torch/csrc/api/include", "-I/py/include", "-DSAMPLE_WITH_CUDA",
                                      "-DSAMPLE_ABI_LEVEL=3", "-O3", "-DTORCH_TARGET_VERSION=0x0209000000000000",
                                      "-DSAMPLE_FAST_PATH=1", "-DTORCH_API_INCLUDE_EXTENSION_H",
                                      "-DPy_LIMITED_API=0x030A0000", "-DTORCH_EXTENSION_NAME=_C", "-std=c++20", "-fPIC",
                                      "-c", kSample + "/csrc/ops.cpp"}));
  const CompileCommand& cu = b.db.commands[1];
  EXPECT_EQ(cu.arguments.front(), "nvcc");
  EXPECT_NE(std::find(cu.arguments.begin(), cu.arguments.end(), "--use_fast_math"), cu.arguments.end());
  // The facts name the build file, the headers and each compiler's flags.
  std::map<std::string, std::string> facts(b.facts.begin(), b.facts.end());
  EXPECT_EQ(facts.at("torch headers"), "stand-in: /t/include /t/include/torch/csrc/api/include /py/include");
  EXPECT_NE(facts.at("extension sample_cuda._C c++ flags").find("-DTORCH_TARGET_VERSION=0x0209000000000000"),
            std::string::npos);
  EXPECT_TRUE(facts.count("extension sample_cuda._C nvcc flags"));
}

TEST(ProjectBuild, TheUsersStandardWinsOverTorchsDefault) {
  ExtensionSpec e;
  e.name = "x";
  e.cxx_args = {"-std=c++17"};
  CompileCommand c = setuptools_command(e, "/p/a.cpp", "/p", standin_torch());
  EXPECT_EQ(std::count_if(c.arguments.begin(), c.arguments.end(), [](const std::string& a) { return a.starts_with("-std="); }), 1);
  EXPECT_EQ(std::find(c.arguments.begin(), c.arguments.end(), "-DPy_LIMITED_API=0x030A0000"), c.arguments.end());
}

// MSLK's CMake names a placeholder it writes into the build tree when a
// library has no sources of its own: a source that is not there is a note,
// and the others are linted (it used to stop the whole check).
TEST(ProjectBuild, ASourceTheBuildGeneratesIsANoteNotTheEnd) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-generated-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "CMakeLists.txt") << "add_library(ops SHARED ops.cpp ${CMAKE_CURRENT_BINARY_DIR}/gen_placeholder.cpp)\n";
  std::ofstream(dir / "ops.cpp") << "int ops() { return 0; }\n";
  ProjectBuild b = read_project_build((dir / "CMakeLists.txt").string(), standin_torch());
  ASSERT_EQ(b.db.commands.size(), 1u);
  EXPECT_EQ(b.db.commands[0].file, (dir / "ops.cpp").string());
  bool noted = false;
  for (const auto& n : b.notes)
    noted |= n.message.find("gen_placeholder.cpp of target ops") != std::string::npos &&
             n.message.find("not in the project") != std::string::npos;
  EXPECT_TRUE(noted);
  fs::remove_all(dir);
}

// CMAKE_CXX_STANDARD is the C++ compiler's: a .cu file read from
// CMakeLists.txt gets CUDA_STANDARD's -std, or none (nvcc's default).
TEST(ProjectBuild, ACudaSourceGetsTheCudaStandardNotTheCxxOne) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-cuda-std-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "a.cpp") << "int a;\n";
  std::ofstream(dir / "k.cu") << "int k;\n";
  auto std_flags = [&](const std::string& lists) {
    std::ofstream(dir / "CMakeLists.txt") << lists;
    std::map<std::string, std::string> out;
    for (const auto& c : read_project_build((dir / "CMakeLists.txt").string(), standin_torch()).db.commands)
      for (const auto& a : c.arguments)
        if (a.starts_with("-std=")) out[fs::path(c.file).filename().string()] = a;
    return out;
  };
  EXPECT_EQ(std_flags("project(p LANGUAGES CXX CUDA)\nset(CMAKE_CXX_STANDARD 20)\nadd_library(p MODULE a.cpp k.cu)\n"),
            (std::map<std::string, std::string>{{"a.cpp", "-std=gnu++20"}}));
  EXPECT_EQ(std_flags("project(p LANGUAGES CXX CUDA)\nset(CMAKE_CXX_STANDARD 20)\nadd_library(p MODULE a.cpp k.cu)\n"
                      "set_target_properties(p PROPERTIES CUDA_STANDARD 17)\n"),
            (std::map<std::string, std::string>{{"a.cpp", "-std=gnu++20"}, {"k.cu", "-std=c++17"}}));
  fs::remove_all(dir);
}

// A CMakeLists.txt read (not configured) whose branches test what only a
// configure sets: its flags are unresolved, so findings resting on them are
// notes, not "does not define USE_CUDA" errors.
TEST(ProjectBuild, ACMakeReadUnderUnknownConditionsHasUnresolvedFlags) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-unknown-if-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "CMakeLists.txt") << "add_library(ops SHARED ops.cpp)\n"
                                           "if(CUDA_FOUND)\n  target_compile_definitions(ops PRIVATE USE_CUDA)\nendif()\n";
  std::ofstream(dir / "ops.cpp") << "int ops() { return 0; }\n";
  ProjectBuild b = read_project_build((dir / "CMakeLists.txt").string(), standin_torch());  // read: run_build is off
  ASSERT_EQ(b.configurations.size(), 1u);
  EXPECT_NE(b.configurations[0].unresolved.find("(CUDA_FOUND) were taken as false"), std::string::npos)
      << b.configurations[0].unresolved;
  bool noted = false;
  for (const auto& n : b.notes) noted |= n.message.find("CUDA_FOUND") != std::string::npos;
  EXPECT_TRUE(noted);
  fs::remove_all(dir);
}

TEST(ProjectBuild, NoSetupPyNoBuildDescription) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-nosetup-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  EXPECT_FALSE(find_build_description(dir.string()));
  std::ofstream(dir / "setup.py") << "";
  EXPECT_EQ(find_build_description(dir.string()), (dir / "setup.py").string());
  fs::remove_all(dir);
}

TEST(CppExtensionDefaults, ReadFromTheFileNotAssumed) {
  const fs::path f = fs::temp_directory_path() / ("torchabi-cppext-" + std::to_string(::getpid()) + ".py");
  std::ofstream(f) << "min_supported_cpython = \"0x030B0000\"  # Python 3.11\n"
                      "# docs mention -std=c++17\n"
                      "cflags = ['-std=c++23']\ncuda = ['-std=c++23']\n";
  TorchLocation t;
  read_cpp_extension_defaults(f.string(), t);
  fs::remove(f);
  EXPECT_EQ(t.std_flag, "-std=c++23");
  EXPECT_EQ(t.limited_api, "0x030B0000");
}

// Debian's newest torch, unpacked by fetch-torch.sh: its defaults are read
// from its own cpp_extension.py (whatever a newer upload changes them to).
TEST(CppExtensionDefaults, TheRealInstallsDefaultsAppearInItsFile) {
  auto root = real_torch_root();
  if (!root) GTEST_SKIP() << real_torch_missing_reason();
  TorchLocation t = locate_torch(real_torch_include());
  ASSERT_TRUE(t.found());
  EXPECT_NE(t.how.find("cpp_extension.py"), std::string::npos) << t.how;
  ASSERT_FALSE(t.std_flag.empty());
  ASSERT_FALSE(t.limited_api.empty());
  std::ifstream in(*root + "/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("'" + t.std_flag + "'"), std::string::npos) << t.std_flag;
  EXPECT_NE(text.str().find(t.limited_api), std::string::npos) << t.limited_api;
}

}  // namespace
}  // namespace torchabi::inputs
