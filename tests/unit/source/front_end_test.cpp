// The libclang front end's API as other analyses use it: includes with their
// classification and chains, references resolved to qualified names and
// declaring headers (on Debian's real 1.13 headers and on the stable
// stand-ins), macro uses, tokens outside skipped blocks, and cursor visiting.
#include <gtest/gtest.h>

#include <fstream>

#include "analyzers/source/cursor_utils.h"
#include "analyzers/source/front_end.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

std::unique_ptr<ParsedTu> parse(const std::string& file, std::vector<std::string> flags) {
  ParseRequest req;
  req.args = inputs::translate_flags(file, flags, std::filesystem::path(file).parent_path().string());
  req.project_roots = {std::filesystem::path(file).parent_path().string()};
  req.classifier = &env().classifier;
  auto out = parse_translation_unit(req);
  EXPECT_TRUE(out.tu) << out.error;
  return std::move(out.tu);
}

std::string write(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

const Reference* ref_at(const ParsedTu& tu, uint32_t line, uint32_t column) {
  for (const auto& r : tu.references())
    if (r.range.line == line && r.range.column == column) return &r;
  return nullptr;
}

TEST(FrontEnd, UsingNamespaceAtOnRealHeadersResolvesToAtTensor) {
  std::string cpp = write("fe_legacy.cpp",
                          "#include <ATen/core/Tensor.h>\n"
                          "using namespace at;\n"
                          "Tensor f(Tensor x) { return x; }\n");
  auto tu = parse(cpp, {"-std=c++17"});
  ASSERT_TRUE(tu);
  const Reference* ret = ref_at(*tu, 3, 1);
  ASSERT_NE(ret, nullptr);
  EXPECT_EQ(ret->qualified, "at::Tensor");
  EXPECT_EQ(ret->kind, EntityKind::Type);
  EXPECT_EQ(ret->decl_header, "ATen/core/TensorBody.h");
  EXPECT_EQ(ret->decl_kind, HeaderKind::Unstable);
  EXPECT_EQ(ret->via, Via::Spelled);
  const Reference* ns = ref_at(*tu, 2, 17);
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(ns->via, Via::UsingDirective);
  EXPECT_EQ(ns->qualified, "at");
  ASSERT_EQ(tu->includes().size() > 0, true);
  EXPECT_EQ(tu->includes()[0].spelled, "ATen/core/Tensor.h");
  EXPECT_EQ(tu->includes()[0].kind, HeaderKind::Unstable);
  EXPECT_TRUE(tu->ast_complete());
}

TEST(FrontEnd, StableReferencesCarryTheirDeclaringStableHeader) {
  std::string cpp = write("fe_stable.cpp",
                          "#include <torch/csrc/stable/ops.h>\n"
                          "torch::stable::Tensor g(const torch::stable::Tensor& t) {\n"
                          "  return torch::stable::transpose(t, 0, 1);\n"
                          "}\n");
  auto tu = parse(cpp, {"-std=c++17", "-I", stand_in_include()});
  ASSERT_TRUE(tu);
  const Reference* call = nullptr;
  for (const auto& r : tu->references())
    if (r.qualified == "torch::stable::transpose") call = &r;
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->decl_header, "torch/csrc/stable/ops.h");
  EXPECT_EQ(call->decl_kind, HeaderKind::Stable);
  EXPECT_EQ(call->kind, EntityKind::Function);
  EXPECT_EQ(call->range.line, 3u);
  EXPECT_EQ(call->qualified_range.column, 10u);  // "torch::stable::transpose" as written
  // Stand-in headers are torch's, not the project's, even under the test tree.
  EXPECT_FALSE(tu->is_project_file(stand_in_include() + "/torch/csrc/stable/ops.h"));
  EXPECT_TRUE(tu->is_project_file(cpp));
}

TEST(FrontEnd, IncludeChainAndMacroUsesAndSkippedTokens) {
  write("fe_chain.h", "#pragma once\n#include <torch/headeronly/util/Exception.h>\n");
  std::string cpp = write("fe_chain.cpp",
                          "#include \"fe_chain.h\"\n"
                          "void h(int n) {\n"
                          "  STD_TORCH_CHECK(n > 0, \"positive\");\n"
                          "#if 0\n"
                          "  hidden_identifier();\n"
                          "#endif\n"
                          "}\n");
  auto tu = parse(cpp, {"-std=c++17", "-I", stand_in_include()});
  ASSERT_TRUE(tu);
  const std::string exception_h = stand_in_include() + "/torch/headeronly/util/Exception.h";
  auto chain = tu->include_chain(exception_h);
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0]->spelled, "fe_chain.h");
  EXPECT_EQ(chain[1]->spelled, "torch/headeronly/util/Exception.h");
  EXPECT_EQ(chain[1]->kind, HeaderKind::Stable);
  ASSERT_EQ(tu->macro_uses().size(), 1u);
  const MacroUse& m = tu->macro_uses()[0];
  EXPECT_EQ(m.name, "STD_TORCH_CHECK");
  EXPECT_EQ(m.range.line, 3u);
  EXPECT_EQ(m.def_header, "torch/headeronly/util/Exception.h");
  EXPECT_EQ(m.def_kind, HeaderKind::Stable);
  for (const auto& t : tu->tokens(cpp)) EXPECT_NE(t.text, "hidden_identifier");
}

TEST(FrontEnd, VisitorSeesOnlyProjectCursors) {
  std::string cpp = write("fe_visit.cpp",
                          "#include <torch/csrc/stable/tensor.h>\n"
                          "int one() { return 1; }\n"
                          "int two() { return 2; }\n");
  auto tu = parse(cpp, {"-std=c++17", "-I", stand_in_include()});
  ASSERT_TRUE(tu);
  struct Collect : CursorVisitor {
    std::vector<std::string> functions;
    bool visit(CXCursor c, CXCursor) override {
      if (c.kind == CXCursor_FunctionDecl) functions.push_back(spelling(c));
      return true;
    }
  } v;
  tu->visit_project_cursors(v);
  EXPECT_EQ(v.functions, (std::vector<std::string>{"one", "two"}));
}

TEST(FrontEnd, MissingFileIsAnErrorNotACrash) {
  ParseRequest req;
  req.args = inputs::translate_flags("/nonexistent/x.cpp", {}, "/");
  req.classifier = &env().classifier;
  auto out = parse_translation_unit(req);
  EXPECT_FALSE(out.tu);
  EXPECT_EQ(out.error, "source file not found");
}

TEST(FrontEnd, UnknownFlagsAreIgnoredWithoutLosingTheAst) {
  std::string cpp = write("fe_flags.cpp", "#include <torch/csrc/stable/tensor.h>\nint f() { return X; }\n");
  auto tu = parse(cpp, {"-std=c++17", "-I", stand_in_include(), "-DX=3", "-fno-gnu-unique"});
  ASSERT_TRUE(tu);
  EXPECT_TRUE(tu->ast_complete());
  EXPECT_FALSE(tu->used_minimal_args());
  EXPECT_EQ(tu->ignored_flags(), std::vector<std::string>{"-fno-gnu-unique"});
  ASSERT_EQ(tu->macro_uses().size(), 1u);
  EXPECT_EQ(tu->macro_uses()[0].name, "X");
}

}  // namespace
}  // namespace torchabi::source::test
