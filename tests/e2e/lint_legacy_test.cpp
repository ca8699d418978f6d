// The AST checks on a real pre-stable-ABI extension: torch/extension.h from
// Debian's libtorch-dev 1.13, parsed with the setuptools-style compile
// database, and its stable twin on the stand-in headers.
#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

TEST(LintLegacyExtension, TorchExtensionHeaderExtension) {
  if (!std::filesystem::exists("/usr/include/torch/extension.h")) GTEST_SKIP() << "libtorch-dev is not installed";
  const std::string src = fixture("legacy_ext");
  const std::string ops = src + "/csrc/ops.cpp";
  const std::string build = make_compile_db("legacy_ext/compdb/setuptools.json", src, make_temp_dir());
  auto r = lint_json({"-p", build, ops});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  auto includes = findings_of(j, "source-unstable-include");
  EXPECT_NE(std::find(includes.begin(), includes.end(), Found{ops, 3, 1, "torch/extension.h"}), includes.end());
  EXPECT_NE(std::find(includes.begin(), includes.end(), Found{src + "/csrc/checks.h", 3, 1, "c10/util/Exception.h"}),
            includes.end());
  EXPECT_EQ(findings_of(j, "source-unstable-macro"),
            (std::vector<Found>{{src + "/csrc/checks.h", 5, 29, "TORCH_CHECK"},
                                {ops, 12, 3, "AT_DISPATCH_FLOATING_TYPES"},
                                {ops, 21, 3, "TORCH_CHECK"},
                                {ops, 27, 1, "TORCH_LIBRARY"},
                                {ops, 29, 1, "TORCH_LIBRARY_IMPL"},
                                {ops, 31, 1, "PYBIND11_MODULE"}}));
  auto api = findings_of(j, "source-unstable-api");
  auto has = [&](int line, int col, const std::string& symbol) {
    return std::find(api.begin(), api.end(), Found{ops, line, col, symbol}) != api.end();
  };
  EXPECT_TRUE(has(9, 1, "at::Tensor"));
  EXPECT_TRUE(has(11, 14, "at::empty_like"));
  EXPECT_TRUE(has(20, 1, "at::Tensor"));  // torch::Tensor is at::Tensor
  EXPECT_TRUE(has(22, 12, "at::Tensor::sum"));
  // On the AT_DISPATCH line only what the user wrote as its argument is
  // reported, not what the macro's own expansion declares (its `the_type`).
  std::vector<Found> line12;
  for (const auto& f : api)
    if (f.line == 12) line12.push_back(f);
  EXPECT_EQ(line12, (std::vector<Found>{{ops, 12, 32, "at::TensorBase::scalar_type"}}));
  const auto* empty_like = finding_at(j, "source-unstable-api", 11, 14);
  ASSERT_NE(empty_like, nullptr);
  EXPECT_EQ((*empty_like)["fix"]["replacement"], "torch::stable::empty_like");
  ASSERT_EQ(j["subjects"].size(), 1u);
  EXPECT_EQ(j["subjects"][0]["verdict"], "UNSTABLE");
}

TEST(LintLegacyExtension, StableTwinIsCleanWithItsFloor) {
  const std::string ops = fixture("stable_ext/csrc/ops.cpp");
  auto r = lint_json({ops, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = r.json();
  EXPECT_TRUE(j["findings"].empty());
  EXPECT_EQ(j["subjects"][0]["verdict"], "STABLE");
  EXPECT_EQ(j["subjects"][0]["floor"], "2.10");
  EXPECT_NE(j["subjects"][0]["loads_on"].get<std::string>().find("lowest TORCH_TARGET_VERSION: 2.10"), std::string::npos);
  // The same file targeting 2.9: reshape is hidden by the guard and reported.
  auto low = lint_json({ops, "--", "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x0209000000000000"});
  EXPECT_EQ(low.exit_code, 1);
  EXPECT_EQ(findings_of(low.json(), "version-api-after-target").size(), 1u) << low.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
