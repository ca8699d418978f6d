// compile_commands.json reading (CMake, bear, ninja/setuptools) and the
// translation of real compile commands (g++, nvcc, response files) into
// libclang arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "inputs/compile_db_args.h"
#include "inputs/cuda_installation.h"
#include "inputs/openmp_headers.h"
#include "inputs/compile_db_reader.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

std::string temp_dir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("compile_db_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(ShellWords, QuotesAndEscapes) {
  EXPECT_EQ(split_shell_words(R"(c++ -DA="x y" '-DB="q"' -DC=a\ b  -c f.cpp)"),
            (std::vector<std::string>{"c++", "-DA=x y", "-DB=\"q\"", "-DC=a b", "-c", "f.cpp"}));
  EXPECT_EQ(split_shell_words("  "), std::vector<std::string>{});
  EXPECT_EQ(split_shell_words(R"(a "" b)"), (std::vector<std::string>{"a", "", "b"}));
}

TEST(CompileDb, CommandAndArgumentsFormsGiveTheSameArgv) {
  const std::string dir = temp_dir("forms");
  std::ofstream(dir + "/compile_commands.json") << R"([
    {"directory": "/src/build", "command": "c++ -I../inc -DX=1 -c ../a.cpp -o a.o", "file": "../a.cpp"},
    {"directory": "build", "arguments": ["g++", "-c", "b.cpp"], "file": "b.cpp"}
  ])";
  CompileDb db = load_compile_db(dir);
  ASSERT_EQ(db.commands.size(), 2u);
  EXPECT_EQ(db.commands[0].file, "/src/a.cpp");
  EXPECT_EQ(db.commands[0].arguments, (std::vector<std::string>{"c++", "-I../inc", "-DX=1", "-c", "../a.cpp", "-o", "a.o"}));
  // A relative directory is taken relative to the database's own directory.
  EXPECT_EQ(db.commands[1].directory, dir + "/build");
  EXPECT_EQ(db.commands[1].file, dir + "/build/b.cpp");
  EXPECT_NE(db.find("/src/a.cpp"), nullptr);
  EXPECT_EQ(db.find("/src/other.cpp"), nullptr);
}

TEST(CompileDb, EveryConfigurationOfAFileIsFoundOnce) {
  const std::string dir = temp_dir("configs");
  std::ofstream(dir + "/compile_commands.json") << R"([
    {"directory": "/src/build", "command": "c++ -DTORCH_TARGET_VERSION=0x020e000000000000 -c ../a.cpp -o a214.o", "file": "../a.cpp"},
    {"directory": "/src/build", "command": "c++ -DTORCH_TARGET_VERSION=0x0209000000000000 -c ../a.cpp -o a29.o", "file": "../a.cpp"},
    {"directory": "/src/build", "command": "c++ -DTORCH_TARGET_VERSION=0x0209000000000000 -c ../a.cpp -o again.o", "file": "../a.cpp"},
    {"directory": "/src/build", "command": "c++ -c ../b.cpp -o b.o", "file": "../b.cpp"}
  ])";
  const CompileDb db = load_compile_db(dir);
  const auto a = db.find_all("/src/a.cpp");
  ASSERT_EQ(a.size(), 2u);  // the third differs from the second only in its output
  EXPECT_TRUE(contains(a[0]->arguments, "-DTORCH_TARGET_VERSION=0x020e000000000000"));
  EXPECT_TRUE(contains(a[1]->arguments, "-DTORCH_TARGET_VERSION=0x0209000000000000"));
  EXPECT_EQ(db.find_all("/src/b.cpp").size(), 1u);
  EXPECT_TRUE(db.find_all("/src/c.cpp").empty());
}

TEST(CompileDb, MissingAndMalformedAreInputErrorsNamingTheFile) {
  const std::string dir = temp_dir("bad");
  try {
    load_compile_db(dir);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), dir);
    EXPECT_NE(std::string(e.what()).find("no compile_commands.json"), std::string::npos);
  }
  std::ofstream(dir + "/compile_commands.json") << "[{\"directory\": \"/x\"";
  try {
    load_compile_db(dir + "/compile_commands.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), dir + "/compile_commands.json");
    EXPECT_NE(std::string(e.what()).find("malformed"), std::string::npos);
  }
  std::ofstream(dir + "/compile_commands.json") << R"([{"directory": "/x", "file": "a.cpp"}])";
  EXPECT_THROW(load_compile_db(dir), InputError);
}

TEST(CompileArgs, GccCommandKeepsIncludesMacrosAndStandardAbsolutely) {
  CompileCommand c{"/p/src/a.cpp", "/p/build",
                   {"/usr/bin/g++", "-I../include", "-isystem", "third", "-DA=1", "-UB", "-std=gnu++17", "-O2",
                    "-MMD", "-MF", "a.d", "-c", "../src/a.cpp", "-o", "a.o"},
                   "",
                   false};
  ClangArgs a = translate_compile_command(c);
  EXPECT_EQ(a.language, "c++");
  EXPECT_TRUE(contains(a.args, "/p/include"));
  EXPECT_TRUE(contains(a.args, "/p/build/third"));
  EXPECT_TRUE(contains(a.args, "-DA=1"));
  EXPECT_TRUE(contains(a.args, "-UB"));
  EXPECT_TRUE(contains(a.args, "-std=gnu++17"));
  EXPECT_FALSE(contains(a.args, "a.o"));
  EXPECT_FALSE(contains(a.args, "a.d"));
  EXPECT_FALSE(contains(a.args, "../src/a.cpp"));
  EXPECT_EQ(a.include_dirs, (std::vector<std::string>{"/p/include", "/p/build/third"}));
  ASSERT_EQ(a.macros.size(), 2u);
  EXPECT_EQ(a.macros[0].name, "A");
  EXPECT_EQ(a.macros[0].value, std::optional<std::string>("1"));
  EXPECT_TRUE(a.macros[1].undef);
}

// g++ -fopenmp finds <omp.h> in GCC's include directory; clang is given it
// last, so its own headers still win. Without -fopenmp nothing is added.
TEST(CompileArgs, OpenMpCommandsFindOmpHWhereGccDoes) {
  if (gcc_openmp_include_dir().empty()) GTEST_SKIP() << "no GCC with omp.h on this machine";
  EXPECT_TRUE(std::filesystem::exists(gcc_openmp_include_dir() + "/omp.h"));
  CompileCommand with{"/p/a.cpp", "/p", {"g++", "-fopenmp", "-c", "a.cpp"}, "", false};
  ClangArgs a = translate_compile_command(with);
  auto it = std::find(a.args.begin(), a.args.end(), "-idirafter");
  ASSERT_NE(it, a.args.end());
  EXPECT_EQ(*(it + 1), gcc_openmp_include_dir());
  CompileCommand without{"/p/a.cpp", "/p", {"g++", "-O2", "-c", "a.cpp"}, "", false};
  EXPECT_FALSE(contains(translate_compile_command(without).args, gcc_openmp_include_dir()));
}

// A CPU build's torch headers lack what a CUDA build generates for c10/cuda:
// a stand-in comes last; headers that have it get nothing.
TEST(CompileArgs, TorchHeadersOfACpuBuildGetCudasGeneratedMacros) {
  for (const bool generated : {false, true}) {
    const std::string inc = temp_dir(generated ? "torch_cuda_build" : "torch_cpu_build");
    std::filesystem::create_directories(inc + "/c10/cuda/impl");
    std::ofstream(inc + "/c10/cuda/CUDAMacros.h") << "#include <c10/cuda/impl/cuda_cmake_macros.h>\n";
    if (generated) std::ofstream(inc + "/c10/cuda/impl/cuda_cmake_macros.h") << "#pragma once\n";
    CompileCommand c{"/p/a.cpp", "/p", {"g++", "-I" + inc, "-c", "a.cpp"}, "", false};
    const ClangArgs a = translate_compile_command(c);
    auto it = std::find(a.args.begin(), a.args.end(), "-idirafter");
    if (generated) {
      EXPECT_EQ(it, a.args.end());
      continue;
    }
    ASSERT_NE(it, a.args.end());
    std::ifstream in(*(it + 1) + "/c10/cuda/impl/cuda_cmake_macros.h");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("#define C10_CUDA_BUILD_SHARED_LIBS"), std::string::npos);
  }
}

TEST(CompileArgs, NvccCommandBecomesHostSideCudaParse) {
  CompileCommand c{"/p/k.cu", "/p",
                   split_shell_words("/usr/local/cuda/bin/nvcc -I/p/inc -DWITH_CUDA -c k.cu -o k.o "
                                     "--expt-relaxed-constexpr --compiler-options ''\"'\"'-fPIC'\"'\"'' -O3 "
                                     "-gencode arch=compute_80,code=sm_80 -Xcompiler -fopenmp,-Wall -std=c++17 "
                                     "--cuda-path=/nonexistent"),
                   "",
                   false};
  ClangArgs a = translate_compile_command(c);
  EXPECT_EQ(a.language, "cuda");
  EXPECT_TRUE(contains(a.args, "cuda"));
  EXPECT_TRUE(contains(a.args, "--cuda-host-only"));
  EXPECT_TRUE(contains(a.args, "-fPIC"));
  EXPECT_TRUE(contains(a.args, "-fopenmp"));
  EXPECT_TRUE(contains(a.args, "-std=c++17"));
  EXPECT_FALSE(contains(a.args, "-gencode"));
  EXPECT_FALSE(contains(a.args, "arch=compute_80,code=sm_80"));
  EXPECT_TRUE(contains(a.dropped, "--expt-relaxed-constexpr"));
  // nvcc has no --cuda-path: the installation is that of the nvcc, when clang can use it.
  const auto cuda = find_cuda_installation({}, "/usr/local/cuda/bin/nvcc");
  EXPECT_EQ(a.cuda_without_sdk, !cuda.found.has_value());
  if (cuda.found) {
    EXPECT_TRUE(contains(a.args, "--cuda-path=" + cuda.found->root)) << a.cuda;
  } else {
    EXPECT_TRUE(contains(a.args, "-nocudainc"));
  }
}

TEST(CompileArgs, ResponseFilesAreExpandedAndAMissingOneIsNamed) {
  const std::string dir = temp_dir("rsp");
  std::ofstream(dir + "/flags.rsp") << "-I inc -DFROM_RSP=1\n";
  ClangArgs a = translate_compile_command({dir + "/a.cpp", dir, {"c++", "@flags.rsp", "-c", "a.cpp"}, "", false});
  EXPECT_TRUE(contains(a.args, "-DFROM_RSP=1"));
  EXPECT_TRUE(contains(a.args, dir + "/inc"));
  try {
    translate_compile_command({dir + "/a.cpp", dir, {"c++", "@missing.rsp", "-c", "a.cpp"}, "", false});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), dir + "/missing.rsp");
    EXPECT_NE(std::string(e.what()).find("compiler flag file not found"), std::string::npos);
  }
}

TEST(CompileArgs, MinimalArgsKeepOnlyWhatAParseNeeds) {
  ClangArgs a = translate_flags("/p/a.cpp", {"-I/inc", "-DX", "-std=c++17", "-fno-gnu-unique", "-mtune=generic"}, "/p");
  auto m = a.minimal_args();
  EXPECT_TRUE(contains(m, "/inc"));
  EXPECT_TRUE(contains(m, "-DX"));
  EXPECT_TRUE(contains(m, "-std=c++17"));
  EXPECT_FALSE(contains(m, "-fno-gnu-unique"));
  EXPECT_FALSE(contains(m, "-mtune=generic"));
}

}  // namespace
}  // namespace torchabi::inputs
