// The whole --fix pass over a small project, with a stand-in for lint that
// reports a handful of legacy tokens, so the session is tested end to end
// (two passes, header rewrite, idempotence) without libclang.
#include <gtest/gtest.h>

#include "analyzers/migration/fix_session.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;

namespace {

ApiUse make_use(std::string api, std::string repl, Disposition d, const std::string& file, uint32_t line) {
  ApiUse u;
  u.api = std::move(api);
  u.replacement = std::move(repl);
  if (u.replacement == "torch::stable::Tensor") u.header = "torch/csrc/stable/tensor.h";
  if (u.replacement == "STD_TORCH_CHECK") u.header = "torch/headeronly/util/Exception.h";
  u.disposition = d;
  u.location.file = file;
  u.location.line = line;
  u.location.column = 1;
  return u;
}

uint32_t line_at(const std::string& text, size_t at) {
  return 1 + uint32_t(std::count(text.begin(), text.begin() + at, '\n'));
}

// Stand-in for lint: at::Tensor and TORCH_CHECK are fixable, AT_DISPATCH_* is
// manual, <torch/extension.h> is a legacy include.
std::vector<ApiUse> fake_lint(const std::vector<std::string>& files) {
  std::vector<ApiUse> uses;
  for (const auto& path : files) {
    const std::string text = slurp(path);
    auto each = [&](const std::string& token, auto&& make) {
      for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) make(at);
    };
    each("at::Tensor", [&](size_t at) {
      ApiUse u = make_use("at::Tensor", "torch::stable::Tensor", Disposition::Fixable, path, line_at(text, at));
      u.fix = FixIt{path, uint32_t(at), uint32_t(at + 10), "torch::stable::Tensor", FixSafety::Safe, "", {}, {}};
      uses.push_back(u);
    });
    each("TORCH_CHECK(", [&](size_t at) {
      if (at >= 4 && text.compare(at - 4, 4, "STD_") == 0) return;
      ApiUse u = make_use("TORCH_CHECK", "STD_TORCH_CHECK", Disposition::Fixable, path, line_at(text, at));
      u.fix = FixIt{path, uint32_t(at), uint32_t(at + 11), "STD_TORCH_CHECK", FixSafety::Safe, "", {}, {}};
      uses.push_back(u);
    });
    each("AT_DISPATCH_FLOATING_TYPES", [&](size_t at) {
      uses.push_back(make_use("AT_DISPATCH_FLOATING_TYPES", "THO_DISPATCH_V2", Disposition::Manual, path,
                              line_at(text, at)));
    });
    each("#include <torch/extension.h>", [&](size_t at) {
      ApiUse u = make_use("torch/extension.h", "", Disposition::Manual, path, line_at(text, at));
      u.is_include = true;
      uses.push_back(u);
    });
  }
  return uses;
}

struct Project {
  std::string dir = scratch_dir();
  std::string ops_h = put_file(dir, "ops.h", "#pragma once\n#include <torch/extension.h>\n\nat::Tensor my_op(const at::Tensor& x);\n");
  std::string ops_cpp = put_file(dir, "ops.cpp",
                                 "#include \"ops.h\"\n\nat::Tensor my_op(const at::Tensor& x) {\n"
                                 "  TORCH_CHECK(x.dim() == 1, \"expected 1-d\");\n  return x;\n}\n");
  std::string kernel_cpp = put_file(dir, "kernel.cpp",
                                    "#include <torch/extension.h>\n\nvoid k(at::Tensor t) {\n"
                                    "  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), \"k\", [&] {});\n}\n");
  std::vector<std::string> files() const { return {ops_h, ops_cpp, kernel_cpp}; }

  RewritePlan fix() const {
    FixSessionInputs in;
    in.uses = fake_lint(files());
    in.includes = scan_include_graph({ops_cpp, kernel_cpp}, {});
    return plan_fixes(in);
  }
};

const FileRewrite* find(const RewritePlan& p, const std::string& path) {
  for (const auto& f : p.files)
    if (f.path == path) return &f;
  return nullptr;
}

}  // namespace

TEST(FixSession, RewritesCodeAndHeadersOfAProject) {
  Project p;
  auto plan = p.fix();
  EXPECT_TRUE(plan.rejected.empty());
  ASSERT_EQ(plan.files.size(), 3u);

  const auto* h = find(plan, p.ops_h);
  ASSERT_NE(h, nullptr);
  // Nothing in ops.h or in ops.cpp (its includer) needs the legacy header any more.
  EXPECT_EQ(h->after, "#pragma once\n#include <torch/csrc/stable/tensor.h>\n\n"
                      "torch::stable::Tensor my_op(const torch::stable::Tensor& x);\n");
  const auto* c = find(plan, p.ops_cpp);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->after, "#include <torch/csrc/stable/tensor.h>\n#include <torch/headeronly/util/Exception.h>\n"
                      "#include \"ops.h\"\n\ntorch::stable::Tensor my_op(const torch::stable::Tensor& x) {\n"
                      "  STD_TORCH_CHECK(x.dim() == 1, \"expected 1-d\");\n  return x;\n}\n");
  const auto* k = find(plan, p.kernel_cpp);
  ASSERT_NE(k, nullptr);
  // AT_DISPATCH still needs ATen: the legacy include stays, the stable one joins it.
  EXPECT_EQ(k->after, "#include <torch/csrc/stable/tensor.h>\n#include <torch/extension.h>\n\n"
                      "void k(torch::stable::Tensor t) {\n"
                      "  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), \"k\", [&] {});\n}\n");
}

TEST(FixSession, ASecondRunChangesNothing) {
  Project p;
  write_rewrites(p.fix());
  const std::string h = slurp(p.ops_h), c = slurp(p.ops_cpp), k = slurp(p.kernel_cpp);
  auto again = p.fix();
  EXPECT_TRUE(again.files.empty());
  EXPECT_TRUE(again.rejected.empty());
  EXPECT_EQ(slurp(p.ops_h), h);
  EXPECT_EQ(slurp(p.ops_cpp), c);
  EXPECT_EQ(slurp(p.kernel_cpp), k);
}

TEST(FixSession, ARefusedFixKeepsTheLegacyIncludeItNeeds) {
  Project p;
  // A macro in ops.h uses TORCH_CHECK: that use cannot be rewritten, so ops.h
  // keeps <torch/extension.h>.
  put_file(p.dir, "ops.h", "#pragma once\n#include <torch/extension.h>\n#define MY_CHECK(c) TORCH_CHECK(c)\n"
                           "at::Tensor my_op(const at::Tensor& x);\n");
  auto plan = p.fix();
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_NE(plan.rejected[0].reason.find("macro definition"), std::string::npos);
  const auto* h = find(plan, p.ops_h);
  ASSERT_NE(h, nullptr);
  EXPECT_NE(h->after.find("#include <torch/extension.h>\n"), std::string::npos);
  EXPECT_NE(h->after.find("#include <torch/csrc/stable/tensor.h>\n"), std::string::npos);
  EXPECT_NE(h->after.find("#define MY_CHECK(c) TORCH_CHECK(c)\n"), std::string::npos);
}
