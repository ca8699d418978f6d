// source-undefined-stable-function end to end: a TU including
// torch/csrc/stable/tensor_struct.h alone uses Tensor methods that only
// tensor_inl.h defines. The stand-in headers model the split; the real 2.14
// headers show the same failure g++ reports when linking such a TU ("hidden
// symbol `torch::stable::Tensor::scalar_type() const' isn't defined").
#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e::lint {
namespace {

using V = std::vector<Found>;
const char* const kRule = "source-undefined-stable-function";

TEST(LintUndefinedStable, StructHeaderAloneFiresAtFirstUseNamingTheUmbrella) {
  const std::string f = fixture("source-undefined-stable-function/fires.cpp");
  auto r = lint_fixture("source-undefined-stable-function/fires.cpp");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  // dim() is defined in the class: only scalar_type() is missing, once.
  EXPECT_EQ(findings_of(j, kRule), (V{{f, 8, 12, "torch::stable::Tensor::scalar_type"}})) << r.out;
  const auto* finding = finding_at(j, kRule, 8, 12);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ((*finding)["severity"], "error");
  EXPECT_NE((*finding)["help"].get<std::string>().find("<torch/csrc/stable/tensor.h>"), std::string::npos)
      << finding->dump();
  EXPECT_NE(finding->dump().find("torch/csrc/stable/tensor_inl.h"), std::string::npos) << finding->dump();

  auto clean = lint_fixture("source-undefined-stable-function/clean.cpp");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_TRUE(clean.json()["findings"].empty()) << clean.out;
}

TEST(LintUndefinedStable, RealTensorStructHeaderAlone) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string f = fixture("source-undefined-stable-function/fires.cpp");
  auto r = lint_json({f, "--", "-std=c++17", "-I" + test::real_torch_include()});
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, kRule), (V{{f, 8, 12, "torch::stable::Tensor::scalar_type"}})) << r.out;
  const auto* finding = finding_at(j, kRule, 8, 12);
  ASSERT_NE(finding, nullptr);
  EXPECT_NE((*finding)["help"].get<std::string>().find("<torch/csrc/stable/tensor.h>"), std::string::npos)
      << finding->dump();
  // Without the definitions lint has not seen what they need: a target above
  // the floor is not advised lower.
  auto targeted = lint_json({f, "--", "-std=c++17", "-I" + test::real_torch_include(),
                             "-DTORCH_TARGET_VERSION=0x020e000000000000"});
  ASSERT_NE(targeted.exit_code, 2) << targeted.err;
  const std::string subjects = targeted.json()["subjects"].dump();
  EXPECT_EQ(subjects.find("could be lowered"), std::string::npos) << subjects;
  EXPECT_NE(subjects.find("not advised lower"), std::string::npos) << subjects;

  auto clean = lint_json({fixture("source-undefined-stable-function/clean.cpp"), "--", "-std=c++17",
                          "-I" + test::real_torch_include()});
  ASSERT_NE(clean.exit_code, 2) << clean.err;
  EXPECT_TRUE(findings_of(clean.json(), kRule).empty()) << clean.out;
}

TEST(LintUndefinedStable, TypedDataPointerSpecializationsCountAsDefined) {
  // mutable_data_ptr<T>() is a member template whose only definitions are
  // tensor_inl.h's explicit specializations: with tensor.h it is defined,
  // with tensor_struct.h alone it is not.
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string dir = make_temp_dir();
  const std::string body =
      "float* first(const torch::stable::Tensor& t) { return t.mutable_data_ptr<float>(); }\n";
  const std::string with_umbrella = write_file(dir, "umbrella.cpp", "#include <torch/csrc/stable/tensor.h>\n" + body);
  const std::string struct_only =
      write_file(dir, "struct_only.cpp", "#include <torch/csrc/stable/tensor_struct.h>\n" + body);
  auto ok = lint_json({with_umbrella, "--", "-std=c++17", "-I" + test::real_torch_include()});
  ASSERT_NE(ok.exit_code, 2) << ok.err;
  EXPECT_TRUE(findings_of(ok.json(), kRule).empty()) << ok.out;
  auto bad = lint_json({struct_only, "--", "-std=c++17", "-I" + test::real_torch_include()});
  ASSERT_NE(bad.exit_code, 2) << bad.err;
  EXPECT_EQ(findings_of(bad.json(), kRule), (V{{struct_only, 2, 57, "torch::stable::Tensor::mutable_data_ptr"}}))
      << bad.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
