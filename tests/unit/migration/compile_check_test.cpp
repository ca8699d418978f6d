// The compile guard of --fix (compile_check.h) on small plain C++ projects:
// libclang parses the rewritten contents in memory; nothing is written.
#include <gtest/gtest.h>

#include "analyzers/migration/compile_check.h"
#include "analyzers/migration/include_graph.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;

namespace {

ApiUse rename(const std::string& file, const std::string& text, const std::string& what, const std::string& with,
              size_t nth = 0) {
  size_t at = text.find(what);
  for (size_t i = 0; i < nth; ++i) at = text.find(what, at + 1);
  ApiUse u;
  u.api = what;
  u.replacement = with;
  u.disposition = Disposition::Fixable;
  u.location.file = file;
  u.location.line = 1;
  u.fix = FixIt{file, uint32_t(at), uint32_t(at + what.size()), with, FixSafety::Safe, "", {}, {}};
  return u;
}

struct Project {
  std::string dir = scratch_dir();
  std::string h_text = "#pragma once\nint legacy_f(int x);\n";
  std::string a_text = "#include \"api.h\"\nint use_a() { return legacy_f(1); }\n";
  std::string b_text = "int b() { int legacy_value = 2; return legacy_value; }\n";
  std::string h = put_file(dir, "api.h", h_text);
  std::string a = put_file(dir, "a.cpp", a_text);
  std::string b = put_file(dir, "b.cpp", b_text);

  std::vector<torchabi::inputs::ClangArgs> tus() const {
    return {torchabi::inputs::translate_flags(a, {"-std=c++17"}, dir),
            torchabi::inputs::translate_flags(b, {"-std=c++17"}, dir)};
  }
  FixSessionInputs inputs(std::vector<ApiUse> uses) const {
    FixSessionInputs in;
    in.uses = std::move(uses);
    in.includes = scan_include_graph({a, b}, {});
    return in;
  }
};

const FileRewrite* find(const RewritePlan& p, const std::string& path) {
  for (const auto& f : p.files)
    if (normal_path(f.path) == normal_path(path)) return &f;
  return nullptr;
}

}  // namespace

TEST(CompileCheck, RewritesThatKeepCompilingGoThrough) {
  Project p;
  // Renaming the declaration and its one use together keeps a.cpp compiling.
  auto in = p.inputs({rename(p.h, p.h_text, "legacy_f", "stable_f"), rename(p.a, p.a_text, "legacy_f", "stable_f"),
                      rename(p.b, p.b_text, "legacy_value", "value", 0), rename(p.b, p.b_text, "legacy_value", "value", 1)});
  auto checked = plan_checked_fixes(in, p.tus(), 1);
  EXPECT_TRUE(checked.notes.empty()) << checked.notes.front();
  EXPECT_EQ(checked.plan.files.size(), 3u);
}

TEST(CompileCheck, AGroupWhoseRewriteBreaksAUnitIsLeftUnchanged) {
  Project p;
  // Renaming only the declaration breaks a.cpp: api.h and a.cpp stay as they
  // are; b.cpp, which compiles either way, is still rewritten.
  auto in = p.inputs({rename(p.h, p.h_text, "legacy_f", "stable_f"), rename(p.b, p.b_text, "legacy_value", "value", 0),
                      rename(p.b, p.b_text, "legacy_value", "value", 1)});
  auto checked = plan_checked_fixes(in, p.tus(), 1);
  ASSERT_EQ(checked.notes.size(), 1u);
  EXPECT_NE(checked.notes[0].find("left unchanged (1 rewrite)"), std::string::npos) << checked.notes[0];
  EXPECT_NE(checked.notes[0].find("legacy_f"), std::string::npos) << "the first new error is shown: " << checked.notes[0];
  EXPECT_EQ(find(checked.plan, p.h), nullptr);
  EXPECT_EQ(find(checked.plan, p.a), nullptr);
  const FileRewrite* b = find(checked.plan, p.b);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->after, "int b() { int value = 2; return value; }\n");
}

TEST(CompileCheck, AUnitThatDidNotCompileBeforeIsNotJudged) {
  Project p;
  const std::string broken = "int c() { return undeclared_thing + legacy_value; }\nint legacy_value;\n";
  const std::string c = put_file(p.dir, "c.cpp", broken);
  FixSessionInputs in;
  in.uses = {rename(c, broken, "legacy_value", "value", 0)};
  in.includes = scan_include_graph({c}, {});
  auto checked = plan_checked_fixes(in, {torchabi::inputs::translate_flags(c, {"-std=c++17"}, p.dir)}, 1);
  ASSERT_EQ(checked.notes.size(), 1u);
  EXPECT_NE(checked.notes[0].find("not checked"), std::string::npos) << checked.notes[0];
  EXPECT_EQ(checked.plan.files.size(), 1u) << "written, with the note";
}
