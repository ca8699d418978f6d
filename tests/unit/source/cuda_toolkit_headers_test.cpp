// CUDA's library headers -- CUB, Thrust, libcu++, cuda_fp16/bf16/fp8,
// cooperative groups, mma.h -- parse under libclang as nvcc compiles them:
// with the CUDA 12.x layout of the stand-in toolkit (fixtures/cuda_toolkit)
// always, and with the machine's own toolkit (CUDA 13: include/cccl) where
// there is one. What they need of clang is its CUDA wrappers of the standard
// headers (include/cuda_wrappers, <new> with placement new for device code),
// which clang's driver adds from the resource directory libclang is given
// (libclang_library.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzers/source/libclang_loader/libclang_library.h"
#include "analyzers/source/libclang_loader/libclang_loader.h"
#include "inputs/cuda_installation.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

namespace fs = std::filesystem;

// The first error of the TU (the note of source-parse-incomplete), or "" when it parsed cleanly.
std::string first_error(const TuResult& r) {
  for (const auto& f : r.findings)
    if (f.rule == "source-parse-incomplete") return f.notes.empty() ? f.message : f.notes.front();
  return {};
}

bool read_a_file_ending(const TuResult& r, const std::string& tail) {
  return std::any_of(r.files_read.begin(), r.files_read.end(), [&](const std::string& f) { return f.ends_with(tail); });
}

// The -resource-dir every parse is given, or "".
std::string resource_dir() {
  libclang::load();
  const auto& extra = libclang::extra_arguments();
  for (size_t i = 0; i + 1 < extra.size(); ++i)
    if (std::string(extra[i]) == "-resource-dir") return extra[i + 1];
  return {};
}

TEST(CudaToolkitHeaders, LibclangIsGivenTheResourceDirectoryWithClangsCudaWrappers) {
  const std::string dir = resource_dir();
  ASSERT_FALSE(dir.empty()) << "no -resource-dir for " << libclang::loaded_path();
  EXPECT_TRUE(fs::is_regular_file(dir + "/include/stddef.h")) << dir;
  EXPECT_TRUE(fs::is_regular_file(dir + "/include/cuda_wrappers/new")) << dir;
  // Part of the cache key: a result parsed without it is not reused.
  EXPECT_NE(libclang::identity().find("-resource-dir " + dir), std::string::npos) << libclang::identity();
}

TEST(CudaToolkitHeaders, CubThrustHalfBfloat16AndCooperativeGroupsParseWithTheStandInToolkit) {
  const std::string cu = lint_fixture("cuda/libraries.cu");
  TuResult r = lint_file(cu);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(first_error(r), "");
  // The stand-in's CUB constructs items in place in device code, through clang's <new>.
  EXPECT_TRUE(read_a_file_ending(r, "/include/cuda_wrappers/new"));
  EXPECT_TRUE(read_a_file_ending(r, "/cuda_toolkit/include/cub/block/block_load.cuh"));
  // Parsed with the stand-in, a CUDA 12.x layout (cub/, thrust/, cuda/std/ in include/).
  const auto& facts = r.subject.facts;
  EXPECT_TRUE(std::any_of(facts.begin(), facts.end(), [](const auto& f) {
    return f.first == "CUDA" && f.second.starts_with("CUDA 12.4 at ");
  }));
}

// What the stand-in stands for: without clang's CUDA wrappers (a resource
// directory holding everything of the real one but include/cuda_wrappers),
// device code has no placement new and CUB's load stops the parse, as every
// .cu including CUB did before libclang was given its resource directory.
TEST(CudaToolkitHeaders, WithoutClangsCudaWrappersCubsPlacementNewDoesNotParse) {
  const std::string real = resource_dir();
  ASSERT_FALSE(real.empty());
  const fs::path fake = fs::path(::testing::TempDir()) / "resource-without-cuda-wrappers";
  fs::remove_all(fake);
  fs::create_directories(fake / "include");
  for (const auto& e : fs::directory_iterator(real + "/include"))
    if (e.path().filename() != "cuda_wrappers") fs::create_symlink(e.path(), fake / "include" / e.path().filename());
  const std::string cu = lint_fixture("cuda/libraries.cu");
  TuResult r = lint_file(cu, {"-resource-dir", fake.string()});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  const std::string error = first_error(r);
  EXPECT_NE(error.find("cub/block/block_load.cuh"), std::string::npos) << error;
  EXPECT_NE(error.find("placement new"), std::string::npos) << error;
  fs::remove_all(fake);
}

// The machine's own CUDA toolkit (/usr/local/cuda, CUDA_HOME, nvcc on PATH).
class RealCudaToolkitHeaders : public ::testing::Test {
protected:
  void SetUp() override {
    search_ = inputs::find_cuda_installation({});
    if (!search_.found || search_.found->root.find("cuda_toolkit") != std::string::npos)
      GTEST_SKIP() << "no CUDA toolkit on this machine (" << search_.summary() << ")";
  }
  // `flags` as `torchabi lint FILE -- FLAGS` (no .flags: they name the stand-in).
  TuResult lint_with(const std::string& file, std::vector<std::string> flags) {
    const std::string dir = fs::path(file).parent_path().string();
    flags.push_back("-I");
    flags.push_back(stand_in_include());
    return analyze_translation_unit(inputs::translate_flags(file, flags, dir), env(), {dir});
  }
  inputs::CudaSearch search_;
};

TEST_F(RealCudaToolkitHeaders, EveryLibraryHeaderFamilyParsesForSm80AndSm90) {
  const std::string cu = lint_fixture("cuda/toolkit_headers.cu");
  for (const auto& flags : std::vector<std::vector<std::string>>{{"-std=c++17", "--cuda-gpu-arch=sm_80"},
                                                                 {"-std=c++20", "--cuda-gpu-arch=sm_90a"}}) {
    TuResult r = lint_with(cu, flags);
    ASSERT_TRUE(r.failure.empty()) << r.failure;
    EXPECT_EQ(first_error(r), "") << search_.summary() << " with " << flags[0] << " " << flags[1];
    EXPECT_TRUE(read_a_file_ending(r, "/include/cuda_wrappers/new"));
    EXPECT_TRUE(read_a_file_ending(r, "cub/block/block_load.cuh"));
    EXPECT_TRUE(read_a_file_ending(r, "/include/mma.h"));
    EXPECT_TRUE(read_a_file_ending(r, "/include/cuda_fp8.h"));
  }
}

TEST_F(RealCudaToolkitHeaders, TheStandInsFixtureParsesWithTheRealToolkitToo) {
  TuResult r = lint_with(lint_fixture("cuda/libraries.cu"), {"-std=c++17"});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(first_error(r), "") << search_.summary();
}

// The command nvcc really ran (code generation for two architectures, host
// flags through -Xcompiler): the CUDA installation is the nvcc's.
TEST_F(RealCudaToolkitHeaders, AnNvccCompileCommandParses) {
  const std::string cu = lint_fixture("cuda/libraries.cu");
  const std::string nvcc = search_.found->root + "/bin/nvcc";
  inputs::CompileCommand c{cu, fs::path(cu).parent_path().string(),
                           {nvcc, "-I" + stand_in_include(), "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                            "arch=compute_90a,code=sm_90a", "--expt-relaxed-constexpr", "--extended-lambda",
                            "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-c", cu, "-o", "libraries.o"},
                           "", false};
  const inputs::ClangArgs args = inputs::translate_compile_command(c);
  EXPECT_NE(args.cuda.find("(the nvcc of the compile command)"), std::string::npos) << args.cuda;
  TuResult r = analyze_translation_unit(args, env(), {c.directory});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(first_error(r), "") << args.cuda;
}

}  // namespace
}  // namespace torchabi::source::test
