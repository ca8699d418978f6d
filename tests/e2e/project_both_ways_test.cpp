// Where a build's flags could not be determined, code that depends on
// USE_CUDA is linted both ways (analyzers/build/both_ways.h): a legacy use in
// the CUDA half of a stable source is found, though the first lint (without
// USE_CUDA) only saw it as an inactive branch. Where the flags are known,
// the build's own choice is linted, once.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

using lint::write_file;

// A stable source whose CUDA half still uses ATen (line 6).
constexpr const char* kSource =
    "#include <torch/csrc/stable/library.h>\n"
    "#include <torch/csrc/stable/tensor.h>\n"
    "int64_t rank(const torch::stable::Tensor& t) { return t.dim(); }\n"
    "#ifdef USE_CUDA\n"
    "#include <ATen/core/Tensor.h>\n"
    "int64_t legacy_rank(const at::Tensor& t) { return t.dim(); }\n"
    "#endif\n";

std::string project(const std::string& flags_expression) {
  const std::string dir = make_temp_dir();
  write_file(dir, "setup.py",
             "from torch.utils.cpp_extension import CppExtension\n"
             // A helper of another package: nothing in the project says what it returns.
             "from _vendor_build_utils import flags\n"
             "ext = CppExtension('x._C', ['ops.cpp'],\n"
             "                   extra_compile_args=" + flags_expression + ")\n");
  write_file(dir, "ops.cpp", kSource);
  return dir;
}

bool has_error_at(const nlohmann::json& j, int line, const std::string& note) {
  for (const auto& f : j["findings"]) {
    if (f["location"].value("line", 0) != line || f.value("severity", "") != "error") continue;
    for (const auto& n : f.value("notes", nlohmann::json::array()))
      if (n.get<std::string>().find(note) != std::string::npos) return true;
  }
  return false;
}

TEST(ProjectBothWays, UnknownFlagsLintTheCudaHalfToo) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  // Read, not run: what the other package's flags() returns is unknown, so USE_CUDA is.
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", test::real_torch_include(),
                         project("flags()")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = r.json();
  EXPECT_TRUE(has_error_at(j, 6, "found in the configuration with -DUSE_CUDA")) << j.dump(1);
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->at("facts").contains("linted both ways")) << p->dump(1);
  EXPECT_EQ(p->at("facts").at("linted both ways").get<std::string>().rfind("1 translation unit again with -DUSE_CUDA", 0), 0u);
  // The inactive-branch finding the first way gave is the AST finding's duplicate.
  EXPECT_FALSE(findings(j).count({"source-inactive-branch", "ops.cpp", 6})) << j.dump(1);
}

TEST(ProjectBothWays, KnownFlagsAreLintedOnceAsTheBuildChose) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", test::real_torch_include(),
                         project("['-O2']")});
  const auto j = r.json();
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->at("facts").contains("linted both ways")) << p->dump(1);
  EXPECT_FALSE(has_error_at(j, 6, "-DUSE_CUDA")) << j.dump(1);
  EXPECT_TRUE(findings(j).count({"source-inactive-branch", "ops.cpp", 5})) << j.dump(1);
}

TEST(ProjectBothWays, AUseCudaTheUserGivesIsNotGuessedAgain) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", test::real_torch_include(),
                         "-D", "USE_CUDA", project("flags()")});
  const auto j = r.json();
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->at("facts").contains("linted both ways")) << p->dump(1);
}

}  // namespace
}  // namespace torchabi::e2e
