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
            (std::vector<Found>{{src + "/csrc/checks.h", 5, 29, "TORCH_CHECK"},  // in CHECK_CONTIGUOUS's #define
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
  // Calls written the same way on torch::stable::Tensor are not findings of
  // their own: the first at::Tensor of the file lists them. On the
  // AT_DISPATCH line that is only what the user wrote as its argument
  // (12:32), not what the macro's own expansion declares (its `the_type`).
  for (const auto& f : api) {
    EXPECT_NE(f.line, 12) << f.symbol;
    EXPECT_NE(f.symbol, "at::TensorBase::dim");
    EXPECT_NE(f.symbol, "at::TensorBase::numel");
  }
  const auto* tensor = finding_at(j, "source-unstable-api", 9, 1);
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ((*tensor)["notes"].back(),
            "also covers 4 method calls written the same way on torch::stable::Tensor (no change needed once the "
            "type is torch::stable::Tensor): scalar_type() at 12:32; numel() at 15:31; dim() at 21:17, 21:58");
  // data_ptr<scalar_t>() is not written the same way: it stays, and says why.
  EXPECT_TRUE(has(13, 28, "at::TensorBase::data_ptr"));
  EXPECT_TRUE(has(14, 23, "at::TensorBase::data_ptr"));
  const auto* data_ptr = finding_at(j, "source-unstable-api", 13, 28);
  ASSERT_NE(data_ptr, nullptr);
  EXPECT_NE((*data_ptr)["help"].get<std::string>().find("without template arguments"), std::string::npos);
  // What the user wrote is named next to what it resolves to.
  const auto* written = finding_at(j, "source-unstable-api", 20, 1);
  ASSERT_NE(written, nullptr);
  EXPECT_EQ((*written)["message"], "uses unstable PyTorch API: type at::Tensor (written torch::Tensor)");
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
  // The clang error behind it is that finding, not also an incomplete parse.
  EXPECT_TRUE(findings_of(low.json(), "source-parse-incomplete").empty()) << low.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
