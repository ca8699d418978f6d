#include <gtest/gtest.h>

#include "analyzers/migration/header_rewrite.h"

using namespace torchabi::migration;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;

namespace {

const std::string kTensor = "torch/csrc/stable/tensor.h";
const std::string kException = "torch/headeronly/util/Exception.h";

std::string apply_fixes(const std::string& text, const std::vector<FixIt>& fixes) {
  std::string out = text;
  for (auto it = fixes.rbegin(); it != fixes.rend(); ++it)
    out.replace(it->begin_offset, it->end_offset - it->begin_offset, it->replacement);
  return out;
}


}  // namespace

TEST(HeaderRewrite, ReplacesTheLegacyIncludeWhenNothingNeedsItAnyMore) {
  const std::string text = "#include <torch/extension.h>\n#include <vector>\n\nat::Tensor f();\n";
  HeaderRewriteInput in{"a.cpp", text, {kTensor}, {{1, "torch/extension.h"}}, false};
  auto fixes = header_fixes(in);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(fixes[0].safety, FixSafety::Safe);
  EXPECT_EQ(apply_fixes(text, fixes), "#include <torch/csrc/stable/tensor.h>\n#include <vector>\n\nat::Tensor f();\n");
}

// Lint names a header after the include root that holds it: <torch/all.h>
// is "torch/csrc/api/include/torch/all.h" when /usr/include comes first.
TEST(HeaderRewrite, ALegacyIncludeNamedFromAnotherIncludeRootIsStillTheOneOnItsLine) {
  const std::string text = "#include <Python.h>\n#include <torch/all.h>\n\nat::Tensor f();\n";
  HeaderRewriteInput in{"a.cpp", text, {kTensor}, {{2, "torch/csrc/api/include/torch/all.h"}}, false};
  auto fixes = header_fixes(in);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(apply_fixes(text, fixes), "#include <Python.h>\n#include <torch/csrc/stable/tensor.h>\n\nat::Tensor f();\n");
  // Another line with a header of the same tail is not it.
  HeaderRewriteInput other{"a.cpp", text, {kTensor}, {{1, "torch/csrc/api/include/torch/all.h"}}, false};
  for (const auto& f : header_fixes(other)) EXPECT_EQ(f.begin_offset, f.end_offset) << f.replacement;
}

TEST(HeaderRewrite, KeepsTheLegacyIncludeWhileLegacyUsesRemain) {
  const std::string text = "#include <torch/extension.h>\n#include <ATen/Dispatch.h>\nvoid f() { TORCH_CHECK(1); }\n";
  HeaderRewriteInput in{"a.cpp", text, {kException}, {{1, "torch/extension.h"}, {2, "ATen/Dispatch.h"}}, true};
  auto fixes = header_fixes(in);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(apply_fixes(text, fixes), "#include <torch/headeronly/util/Exception.h>\n#include <torch/extension.h>\n"
                                "#include <ATen/Dispatch.h>\nvoid f() { TORCH_CHECK(1); }\n");
}

TEST(HeaderRewrite, RemovesEveryLegacyIncludeAndAddsNothingTwice) {
  const std::string text =
      "#include <torch/csrc/stable/tensor.h>\n#include <torch/extension.h>\n#include <ATen/ATen.h>\nx\n";
  HeaderRewriteInput in{"a.cpp", text, {kException, kTensor, kException}, {{2, "torch/extension.h"}, {3, "ATen/ATen.h"}},
                        false};
  auto fixes = header_fixes(in);
  EXPECT_EQ(apply_fixes(text, fixes),
            "#include <torch/csrc/stable/tensor.h>\n#include <torch/headeronly/util/Exception.h>\nx\n");
}

TEST(HeaderRewrite, RemovingWithNothingToAddIsUnsafe) {
  const std::string text = "#include <torch/extension.h>\nint f();\n";
  HeaderRewriteInput in{"a.cpp", text, {}, {{1, "torch/extension.h"}}, false};
  auto fixes = header_fixes(in);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(fixes[0].safety, FixSafety::Unsafe);
  EXPECT_EQ(apply_fixes(text, fixes), "int f();\n");
}

TEST(HeaderRewrite, WithoutALegacyIncludeInsertsBeforeTheFirstUnconditionalInclude) {
  const std::string text = "#pragma once\n#ifdef X\n#include <x.h>\n#endif\n#include \"common.h\"\nTORCH_CHECK(1);\n";
  HeaderRewriteInput in{"a.h", text, {kException}, {}, true};
  auto fixes = header_fixes(in);
  EXPECT_EQ(apply_fixes(text, fixes), "#pragma once\n#ifdef X\n#include <x.h>\n#endif\n"
                                "#include <torch/headeronly/util/Exception.h>\n#include \"common.h\"\nTORCH_CHECK(1);\n");
}

TEST(HeaderRewrite, AFileWithoutIncludesGetsThemAfterPragmaOnce) {
  const std::string text = "#pragma once\nTORCH_CHECK(1);\n";
  HeaderRewriteInput in{"a.h", text, {kException}, {}, true};
  EXPECT_EQ(apply_fixes(text, header_fixes(in)),
            "#pragma once\n#include <torch/headeronly/util/Exception.h>\nTORCH_CHECK(1);\n");
}

TEST(HeaderRewrite, NothingToDoGivesNoFix) {
  const std::string text = "#include <torch/headeronly/util/Exception.h>\nSTD_TORCH_CHECK(1);\n";
  HeaderRewriteInput in{"a.cpp", text, {}, {}, false};
  EXPECT_TRUE(header_fixes(in).empty());
}

TEST(HeaderRewrite, SystemHeadersKeepTheirBracketsAndThirdPartyIncludesStay) {
  // Line 1 pulls torch in through a third-party header: lint reports it there,
  // but only a directive naming the legacy header itself is ours to remove.
  const std::string text = "#include <thirdparty/wrapper.h>\n#include <c10/util/Optional.h>\nint f();\n";
  HeaderRewriteInput in{"a.cpp", text, {"<optional>"},
                        {{1, "torch/extension.h"}, {2, "c10/util/Optional.h"}}, false};
  EXPECT_EQ(apply_fixes(text, header_fixes(in)), "#include <thirdparty/wrapper.h>\n#include <optional>\nint f();\n");
}

// The project's own stable_ops.h (stable_ops/stable_ops.h) is included with
// quotes, after the stable headers, and only once.
TEST(HeaderRewrite, IncludesTheProjectsStableOpsHeaderWithQuotes) {
  const std::string text = "#include <torch/extension.h>\n\nat::Tensor f();\n";
  HeaderRewriteInput in{"a.cpp", text, {"\"stable_ops.h\"", kTensor, "\"stable_ops.h\""}, {{1, "torch/extension.h"}}, false};
  EXPECT_EQ(apply_fixes(text, header_fixes(in)),
            "#include <torch/csrc/stable/tensor.h>\n#include \"stable_ops.h\"\n\nat::Tensor f();\n");
  const std::string done = "#include \"stable_ops.h\"\nvoid g();\n";
  HeaderRewriteInput again{"b.cpp", done, {"\"stable_ops.h\""}, {}, false};
  EXPECT_TRUE(header_fixes(again).empty());
}
