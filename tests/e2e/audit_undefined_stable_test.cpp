// binary-undefined-stable-cxx end to end: fixtures/audit/undefined_stable_cxx
// built with tensor_struct.h alone imports torch::stable::Tensor::scalar_type(),
// which no libtorch exports; built with tensor.h it defines it.
#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

namespace {

const char* const kRule = "binary-undefined-stable-cxx";

std::string struct_only_lib() { return fixture("audit/undefined_stable_cxx/libstruct_only.so"); }
std::string umbrella_lib() { return fixture("audit/undefined_stable_cxx/libumbrella.so"); }

TEST(AuditUndefinedStable, ImportOfHeaderOnlyCxxCanNeverLoad) {
  auto r = run_torchabi({"audit", "--format", "json", struct_only_lib()});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  auto j = r.json();
  auto fired = findings_of(j, kRule);
  ASSERT_EQ(fired.size(), 1u) << r.out;
  EXPECT_EQ(fired[0]["severity"], "error");
  EXPECT_EQ(fired[0]["location"]["symbol"], "torch::stable::Tensor::scalar_type() const");
  EXPECT_NE(fired[0]["message"].get<std::string>().find("can never load on any PyTorch"), std::string::npos)
      << fired[0].dump();
  EXPECT_NE(fired[0]["help"].get<std::string>().find("<torch/csrc/stable/tensor.h>"), std::string::npos)
      << fired[0].dump();
  EXPECT_NE(subject(j, struct_only_lib())["loads_on"].get<std::string>().find("no PyTorch release"), std::string::npos)
      << r.out;
}

TEST(AuditUndefinedStable, UmbrellaHeaderBuildIsClean) {
  auto r = run_torchabi({"audit", "--format", "json", umbrella_lib()});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = r.json();
  EXPECT_TRUE(findings_of(j, kRule).empty()) << r.out;
  EXPECT_EQ(subject(j, umbrella_lib())["verdict"], "STABLE");
  EXPECT_EQ(subject(j, umbrella_lib())["loads_on"].get<std::string>().find("no PyTorch"), std::string::npos) << r.out;
}

}  // namespace
