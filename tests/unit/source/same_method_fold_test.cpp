// Folding of same-method calls (x.dim(), x.size(0)) into the finding of the
// tensor type they are called on: every call stays visible in a note, none
// is reported twice, and a call with no type finding to fold into stays.
#include <gtest/gtest.h>

#include "analyzers/source/same_method_fold.h"
#include "inputs/rules_source.h"

namespace torchabi::source {
namespace {

const Replacements& shipped() {
  static const Replacements r = Replacements::load(inputs::RulesSource::embedded());
  return r;
}

findings::Finding use(const std::string& file, uint32_t line, uint32_t col, const std::string& symbol) {
  findings::Finding f;
  f.rule = "source-unstable-api";
  f.location.file = file;
  f.location.line = line;
  f.location.column = col;
  f.location.symbol = symbol;
  f.message = "uses unstable PyTorch API: " + symbol;
  f.help = "help";
  return f;
}

TEST(SameMethodFold, CallsAreFoldedIntoTheTensorTypeFinding) {
  findings::Report r;
  r.findings.push_back(use("/p/ops.cpp", 12, 5, "at::TensorBase::dim"));
  r.findings.push_back(use("/p/ops.cpp", 4, 1, "at::Tensor"));
  r.findings.push_back(use("/p/ops.cpp", 9, 3, "at::Tensor"));
  r.findings.push_back(use("/p/ops.cpp", 13, 7, "at::TensorBase::size"));
  r.findings.push_back(use("/p/ops.cpp", 14, 2, "at::TensorBase::dim"));
  r.findings.push_back(use("/p/ops.cpp", 15, 2, "at::Tensor::narrow"));  // becomes a function: stays
  EXPECT_EQ(fold_same_method_calls(r, shipped()), 3u);
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].location.line, 4u);
  EXPECT_EQ(r.findings[2].location.symbol, "at::Tensor::narrow");
  // The earliest at::Tensor finding of the file carries every call.
  ASSERT_EQ(r.findings[0].notes.size(), 1u);
  EXPECT_EQ(r.findings[0].notes[0],
            "also covers 3 method calls written the same way on torch::stable::Tensor (no change needed once the "
            "type is torch::stable::Tensor): dim() at 12:5, 14:2; size() at 13:7");
  EXPECT_TRUE(r.findings[1].notes.empty());
}

TEST(SameMethodFold, ACallInAnotherFileNamesItsFile) {
  findings::Report r;
  r.findings.push_back(use("/p/ops.h", 3, 1, "torch::Tensor"));
  r.findings.push_back(use("/p/kernel.cpp", 20, 9, "at::TensorBase::numel"));
  EXPECT_EQ(fold_same_method_calls(r, shipped()), 1u);
  ASSERT_EQ(r.findings.size(), 1u);
  ASSERT_EQ(r.findings[0].notes.size(), 1u);
  EXPECT_NE(r.findings[0].notes[0].find("numel() at 20:9 in kernel.cpp"), std::string::npos) << r.findings[0].notes[0];
}

TEST(SameMethodFold, WithoutATypeFindingTheCallsStay) {
  findings::Report r;
  r.findings.push_back(use("/p/ops.cpp", 12, 5, "at::TensorBase::dim"));
  r.findings.push_back(use("/p/ops.cpp", 4, 1, "c10::ScalarType"));  // a type, but not the receiver's
  EXPECT_EQ(fold_same_method_calls(r, shipped()), 0u);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_TRUE(r.findings[1].notes.empty());
}

}  // namespace
}  // namespace torchabi::source
