#include <gtest/gtest.h>

#include "analyzers/migration/directive_scanner.h"

using namespace torchabi::migration;

TEST(DirectiveScanner, MacroDefinitionsIncludeTheirContinuationLines) {
  const std::string text = "int a;\n#define CHECK(x) \\\n  TORCH_CHECK(x, \"bad\")\nint b;\n  #  undef CHECK\n";
  auto scan = scan_directives(text);
  ASSERT_EQ(scan.macro_definitions.size(), 2u);
  const auto& def = scan.macro_definitions[0];
  EXPECT_EQ(text.substr(def.begin, def.end - def.begin), "#define CHECK(x) \\\n  TORCH_CHECK(x, \"bad\")\n");
  const auto& undef = scan.macro_definitions[1];
  EXPECT_EQ(text.substr(undef.begin, undef.end - undef.begin), "#  undef CHECK\n");
}

TEST(DirectiveScanner, FindsIncludesWithTheirLinesAndDepth) {
  const std::string text =
      "#pragma once\n#include <torch/extension.h>\n#ifdef WITH_CUDA\n# include \"kernels/cuda.h\"\n#endif\n"
      "#include MACRO_HEADER\n";
  auto scan = scan_directives(text);
  ASSERT_EQ(scan.includes.size(), 2u);
  EXPECT_EQ(scan.includes[0].target, "torch/extension.h");
  EXPECT_TRUE(scan.includes[0].angled);
  EXPECT_EQ(scan.includes[0].line_number, 2u);
  EXPECT_EQ(scan.includes[0].conditional_depth, 0);
  EXPECT_EQ(text.substr(scan.includes[0].line.begin, scan.includes[0].line.end - scan.includes[0].line.begin),
            "#include <torch/extension.h>\n");
  EXPECT_EQ(scan.includes[1].target, "kernels/cuda.h");
  EXPECT_FALSE(scan.includes[1].angled);
  EXPECT_EQ(scan.includes[1].line_number, 4u);
  EXPECT_EQ(scan.includes[1].conditional_depth, 1);
  EXPECT_EQ(scan.after_pragma_once, 13u);
}

TEST(DirectiveScanner, IgnoresDirectivesInsideBlockComments) {
  const std::string text = "/* example:\n#define X 1\n#include <torch/torch.h>\n*/\n#define Y 2\n";
  auto scan = scan_directives(text);
  EXPECT_TRUE(scan.includes.empty());
  ASSERT_EQ(scan.macro_definitions.size(), 1u);
  EXPECT_EQ(text.substr(scan.macro_definitions[0].begin, 11), "#define Y 2");
}

TEST(DirectiveScanner, LineNumbersCountContinuedLines) {
  const std::string text = "#define A \\\n 1\n#include <a.h>\n";
  auto scan = scan_directives(text);
  ASSERT_EQ(scan.includes.size(), 1u);
  EXPECT_EQ(scan.includes[0].line_number, 3u);
}

TEST(ByteRange, InsertionsAtTheEdgesDoNotOverlap) {
  ByteRange r{10, 20};
  EXPECT_FALSE(r.overlaps(10, 10));
  EXPECT_FALSE(r.overlaps(20, 20));
  EXPECT_TRUE(r.overlaps(15, 15));
  EXPECT_TRUE(r.overlaps(5, 11));
  EXPECT_FALSE(r.overlaps(20, 25));
}
