// Uses inside templates (instantiated or not), CUDA files parsed with a CUDA
// installation (the stand-in toolkit of fixtures/cuda_toolkit always; the
// real one where it is installed), and a missing CUDA library header that
// costs only the declarations using it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "inputs/cuda_installation.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

namespace fs = std::filesystem;

bool is_use_rule(const std::string& rule) {
  return rule == "source-unstable-api" || rule == "source-unstable-macro" || rule == "source-unstable-include";
}

// Lines of `file` with at least one finding of the use rules.
std::set<uint32_t> lines_with_uses(const TuResult& r, const std::string& file) {
  std::set<uint32_t> out;
  for (const auto& f : r.findings)
    if (is_use_rule(f.rule) && f.location.file == file) out.insert(f.location.line);
  return out;
}

// No use is reported twice (same place and API).
void expect_no_duplicates(const TuResult& r) {
  std::set<std::tuple<std::string, uint32_t, uint32_t, std::string>> seen;
  for (const auto& f : r.findings) {
    if (!is_use_rule(f.rule)) continue;
    EXPECT_TRUE(seen.emplace(f.location.file, f.location.line, f.location.column, f.location.symbol).second)
        << f.location.file << ":" << f.location.line << " " << f.location.symbol << " reported twice";
  }
}

TEST(Templates, EveryUseInsideTemplatesIsReportedOnce) {
  const std::string cuh = lint_fixture("templates/fires.cuh");
  TuResult r = lint_file(cuh);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(lines_with_uses(r, cuh), (std::set<uint32_t>{3, 4, 7, 8, 13, 15, 16, 18, 29, 30}));
  expect_no_duplicates(r);
  // A member call that depends on the template parameter is reported at the member's name.
  const findings::Finding* dependent = find_finding(r, "source-unstable-api", 8, 12);
  ASSERT_NE(dependent, nullptr);
  EXPECT_EQ(dependent->location.symbol, "at::Tensor::new_empty");
  const findings::Finding* through_this = find_finding(r, "source-unstable-api", 16, 15);
  ASSERT_NE(through_this, nullptr);
  EXPECT_EQ(through_this->location.symbol, "at::Tensor::index_fill_");
  EXPECT_TRUE(positions(r, "source-parse-incomplete").empty());
}

TEST(Templates, InstantiatedTwiceStillOnce) {
  const std::string cu = lint_fixture("templates/instantiated.cu");
  TuResult r = lint_file(cu);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  expect_no_duplicates(r);
  EXPECT_EQ(lines_with_uses(r, lint_fixture("templates/fires.cuh")),
            (std::set<uint32_t>{3, 4, 7, 8, 13, 15, 16, 18, 29, 30}));
}

TEST(Templates, StableTemplatesAreClean) {
  TuResult r = lint_file(lint_fixture("templates/clean.cuh"));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

TEST(Templates, MemberCallWithDependentArgumentsOnATypedVariable) {
  // `p.w` has a dependent type, but `w` was declared at::Tensor in this template.
  const std::string h = fs::path(::testing::TempDir() + "/dependent.h").lexically_normal().string();
  std::ofstream(h) << "#include <ATen/core/Tensor.h>\n"
                      "template <typename P>\n"
                      "void run(P& p) {\n"
                      "  const at::Tensor& w = p.weight;\n"
                      "  auto grown = w.new_zeros(p.sizes);\n"
                      "}\n";
  TuResult r = lint_file(h, {}, false);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(lines_with_uses(r, h), (std::set<uint32_t>{1, 4, 5}));
  expect_no_duplicates(r);
}

TEST(CudaInstallation, CandidatesInOrderAndWhyEachWasRejected) {
  const std::string standin = fixtures() + "/cuda_toolkit";
  auto explicit_path = inputs::find_cuda_installation({"--cuda-path=" + standin});
  ASSERT_TRUE(explicit_path.found.has_value()) << explicit_path.summary();
  EXPECT_EQ(explicit_path.found->found_by, "--cuda-path");
  EXPECT_EQ(explicit_path.found->version, "12.4");
  // Like CUDA 13, the stand-in lacks the header clang 19's wrapper still includes.
  EXPECT_EQ(explicit_path.found->stand_ins, (std::vector<std::string>{"texture_fetch_functions.h"}));

  auto missing = inputs::find_cuda_installation({"--cuda-path=/nonexistent/cuda"});
  EXPECT_FALSE(missing.found.has_value());
  EXPECT_NE(missing.summary().find("/nonexistent/cuda: does not exist"), std::string::npos) << missing.summary();

  // The nvcc of a compile command names its installation.
  auto by_nvcc = inputs::find_cuda_installation({}, standin + "/bin/nvcc");
  ASSERT_TRUE(by_nvcc.found.has_value());
  EXPECT_EQ(by_nvcc.found->root, standin);

  ::setenv("CUDA_HOME", standin.c_str(), 1);
  auto by_env = inputs::find_cuda_installation({});
  ::unsetenv("CUDA_HOME");
  ASSERT_TRUE(by_env.found.has_value());
  EXPECT_EQ(by_env.found->found_by, "CUDA_HOME");

  auto args = inputs::translate_flags(lint_fixture("cuda/device_branch.cu"), {"--cuda-path=" + standin}, "/");
  EXPECT_FALSE(args.cuda_without_sdk);
  EXPECT_NE(args.cuda.find("empty stand-ins for texture_fetch_functions.h"), std::string::npos) << args.cuda;
  auto overlay = std::find(args.args.begin(), args.args.end(), "-idirafter");
  ASSERT_NE(overlay, args.args.end());
  EXPECT_TRUE(fs::is_regular_file(fs::path(*(overlay + 1)) / "texture_fetch_functions.h"));
}

TEST(CudaFiles, KernelsParseThroughTheStandInToolkitWithoutDegrading) {
  const std::string cu = lint_fixture("templates/instantiated.cu");
  TuResult r = lint_file(cu);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(positions(r, "source-parse-incomplete").empty())
      << find_finding(r, "source-parse-incomplete", 0)->notes.front();
}

TEST(CudaFiles, AMissingLibraryHeaderCostsOnlyItsOwnDeclarations) {
  const std::string cu = lint_fixture("cuda/missing_library.cu");
  TuResult r = lint_file(cu);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  // The missing header makes the AST incomplete...
  const findings::Finding* incomplete = find_finding(r, "source-parse-incomplete", 3);
  ASSERT_NE(incomplete, nullptr);
  ASSERT_FALSE(incomplete->notes.empty());
  EXPECT_NE(incomplete->notes[0].find("cutlass/cutlass.h"), std::string::npos) << incomplete->notes[0];
  // ...but every line that uses torch still has its finding,
  EXPECT_EQ(lines_with_uses(r, cu), (std::set<uint32_t>{4, 12, 13, 14, 17, 20, 24, 25, 27, 32, 33}));
  expect_no_duplicates(r);
  // and the declarations that do not use cutlass are resolved by the AST.
  for (uint32_t line : {17u, 20u, 32u, 33u}) {
    const findings::Finding* f = find_finding(r, "source-unstable-api", line);
    ASSERT_NE(f, nullptr) << line;
    ASSERT_FALSE(f->notes.empty()) << line;
    EXPECT_TRUE(f->notes[0].starts_with("declared in ")) << line << ": " << f->notes[0];
  }
  // The template clang dropped (cutlass in its signature) is read from its tokens.
  const findings::Finding* dropped = find_finding(r, "source-unstable-api", 27);
  ASSERT_NE(dropped, nullptr);
  EXPECT_EQ(dropped->location.symbol, "at::Tensor::new_empty");
}

// The machine's own CUDA, where there is one (/usr/local/cuda, CUDA_HOME, nvcc on PATH).
class RealCuda : public ::testing::Test {
protected:
  void SetUp() override {
    search_ = inputs::find_cuda_installation({});
    if (!search_.found || search_.found->root.find("cuda_toolkit") != std::string::npos)
      GTEST_SKIP() << "no CUDA toolkit on this machine (" << search_.summary() << ")";
  }
  // Without the fixture's .flags (which name the stand-in toolkit).
  TuResult lint_with_real_cuda(const std::string& file) {
    const std::string dir = fs::path(file).parent_path().string();
    auto args = inputs::translate_flags(file, {"-std=c++17", "-I", stand_in_include()}, dir);
    return analyze_translation_unit(args, env(), {dir});
  }
  inputs::CudaSearch search_;
};

TEST_F(RealCuda, TemplatesAndKernelsParseWithTheInstalledToolkit) {
  const std::string cuh = lint_fixture("templates/fires.cuh");
  TuResult r = lint_with_real_cuda(cuh);
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_TRUE(positions(r, "source-parse-incomplete").empty())
      << search_.summary() << ": " << find_finding(r, "source-parse-incomplete", 0)->notes.front();
  EXPECT_EQ(lines_with_uses(r, cuh), (std::set<uint32_t>{3, 4, 7, 8, 13, 15, 16, 18, 29, 30}));
  expect_no_duplicates(r);
}

TEST_F(RealCuda, DeviceBranchAndMissingLibrary) {
  TuResult device = lint_with_real_cuda(lint_fixture("cuda/device_branch.cu"));
  EXPECT_EQ(positions(device, "source-inactive-branch"), (std::vector<std::pair<uint32_t, uint32_t>>{{8, 21}}));
  const std::string cu = lint_fixture("cuda/missing_library.cu");
  TuResult r = lint_with_real_cuda(cu);
  EXPECT_EQ(lines_with_uses(r, cu), (std::set<uint32_t>{4, 12, 13, 14, 17, 20, 24, 25, 27, 32, 33}));
}

}  // namespace
}  // namespace torchabi::source::test
