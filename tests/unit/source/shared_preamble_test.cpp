// Shared preambles (shared_preamble.h): which leading lines are shared, which
// TUs may share them, what the PCH's cache key depends on, and that a PCH is
// built once, reused from the cache, rebuilt when a header it read changes,
// refused for unguarded or erroneous headers, and gives a TU the same
// records as a plain parse. The headers are small ones written into a
// temporary directory (outside the project root: torch's headers are not
// the project's either).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "analyzers/source/front_end.h"
#include "analyzers/source/shared_preamble.h"
#include "test_helpers.h"

namespace torchabi::source {
namespace {

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

TEST(LeadingIncludes, AngledIncludesWithCommentsAndBlankLines) {
  EXPECT_EQ(leading_includes("#include <torch/extension.h>\n\nint x;\n"), Strings{"<torch/extension.h>"});
  EXPECT_EQ(leading_includes("// Copyright\n/* a\n   block */\n#include <a.h>  // why\n"
                             "  #  include <b/c.h> /* x */\n\n#include <d>\nvoid f();\n#include <e.h>\n"),
            (Strings{"<a.h>", "<b/c.h>", "<d>"}));
  EXPECT_EQ(leading_includes("\xEF\xBB\xBF#include <a.h>\r\n#include <b.h>\r\n"), (Strings{"<a.h>", "<b.h>"}));
}

TEST(LeadingIncludes, StopsAtAnythingElse) {
  // A #define first changes what the headers declare: nothing is shared.
  EXPECT_TRUE(leading_includes("#define TORCH_TARGET_VERSION 0x020a000000000000\n#include <torch/csrc/stable/library.h>\n")
                  .empty());
  EXPECT_EQ(leading_includes("#include <a.h>\n#define X 1\n#include <b.h>\n"), Strings{"<a.h>"});
  // Quoted includes are looked up next to their file; the rest stays the TU's own.
  EXPECT_EQ(leading_includes("#include <a.h>\n#include \"local.h\"\n#include <b.h>\n"), Strings{"<a.h>"});
  EXPECT_TRUE(leading_includes("#pragma once\n#include <a.h>\n").empty());
  EXPECT_EQ(leading_includes("#include <a.h>\n#include_next <b.h>\n"), Strings{"<a.h>"});
  EXPECT_EQ(leading_includes("#include <a.h>\n#include HEADER\n"), Strings{"<a.h>"});
  EXPECT_EQ(leading_includes("#include <a.h>\n#if 1\n#include <b.h>\n#endif\n"), Strings{"<a.h>"});
  EXPECT_EQ(leading_includes("#include <a.h> int x;\n#include <b.h>\n"), Strings{});
  EXPECT_EQ(leading_includes("#include <a.h>\n// continued \\\n#include <b.h>\n"), Strings{"<a.h>"});
  EXPECT_EQ(leading_includes("#include <a.h>\n/* never closed\n#include <b.h>\n"), Strings{"<a.h>"});
  EXPECT_EQ(leading_includes("#include <a.h\n"), Strings{});
  EXPECT_TRUE(leading_includes("int main() {}\n").empty());
  EXPECT_TRUE(leading_includes("").empty());
}

TEST(ShareablePrefix, StopsAtTheFirstProjectHeader) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / ("prefix_" + std::to_string(::getpid()));
  fs::create_directories(dir / "project/include/mine");
  fs::create_directories(dir / "torch/torch");
  std::ofstream(dir / "project/include/mine/checks.h") << "#pragma once\n";
  std::ofstream(dir / "torch/torch/all.h") << "#pragma once\n";
  const Strings dirs = {(dir / "project/include").string(), (dir / "torch").string()};
  const Strings roots = {(dir / "project").string()};
  EXPECT_EQ(shareable_prefix({"<torch/all.h>", "<vector>", "<mine/checks.h>", "<torch/all.h>"}, dirs, roots),
            (Strings{"<torch/all.h>", "<vector>"}));
  EXPECT_TRUE(shareable_prefix({"<mine/checks.h>", "<torch/all.h>"}, dirs, roots).empty());
  EXPECT_EQ(shareable_prefix({"<torch/all.h>"}, dirs, {}), Strings{"<torch/all.h>"});
  fs::remove_all(dir);
}

inputs::ClangArgs cxx(const Strings& flags, const std::string& file = "/src/a.cpp") {
  return inputs::translate_flags(file, flags, "/src");
}

TEST(PreambleEligible, PlainCxxOnly) {
  EXPECT_TRUE(preamble_eligible(cxx({"-std=c++17", "-I/x", "-DA=1"})));
  EXPECT_FALSE(preamble_eligible(cxx({"-std=c++17", "-include", "/x/pre.h"})));
  EXPECT_FALSE(preamble_eligible(cxx({"-imacros", "/x/m.h"})));
  EXPECT_FALSE(preamble_eligible(cxx({"-std=c++17"}, "/src/a.cu")));
  EXPECT_FALSE(preamble_eligible(cxx({"-std=c11"}, "/src/a.c")));
  EXPECT_FALSE(preamble_eligible(cxx({"-std=c++17"}, "/src/a.h")));
}

TEST(PreambleKey, DependsOnFlagsHeadersRootsAndCompiler) {
  const Strings inc = {"<torch/extension.h>"};
  const std::string base = preamble_key(cxx({"-std=c++17", "-DA=1"}), inc, {"/src"}, "clang 19");
  // Another file with the same flags shares it.
  EXPECT_EQ(base, preamble_key(cxx({"-std=c++17", "-DA=1"}, "/src/b.cpp"), inc, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=2"}), inc, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=1", "-UB"}), inc, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=1", "-I/other"}), inc, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++20", "-DA=1"}), inc, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=1"}), {"<torch/extension.h>", "<vector>"}, {"/src"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=1"}), inc, {"/elsewhere"}, "clang 19"));
  EXPECT_NE(base, preamble_key(cxx({"-std=c++17", "-DA=1"}), inc, {"/src"}, "clang 20"));
}

// A project under `dir/project` whose TUs include headers of `dir/include`.
struct PreambleFixture : ::testing::Test {
  fs::path dir = fs::path(::testing::TempDir()) / ("preamble_" + std::to_string(::getpid()) + "_" +
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::path project = dir / "project";
  fs::path include = dir / "include";
  fs::path cache = dir / "cache";
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(project);
    fs::create_directories(include / "lib");
    write(include / "lib/api.h",
          "#pragma once\n#include <lib/detail.h>\n#define LIB_CHECK(x) lib::check(x)\nnamespace lib {\n"
          "template <class T> T twice(T x) { return detail::add(x, x); }\ninline bool check(bool b) { return b; }\n}\n");
    write(include / "lib/detail.h",
          "#ifndef LIB_DETAIL_H\n#define LIB_DETAIL_H\nnamespace lib::detail {\n"
          "template <class T> T add(T a, T b) { return a + b; }\n}\n#endif\n");
    write(include / "lib/unguarded.h", "inline int unguarded() { return 1; }\n");
    write(include / "lib/broken.h", "#pragma once\nint broken(;\n");
    for (const char* name : {"a", "b", "c"})
      write(project / (std::string(name) + ".cpp"),
            "// A TU\n#include <lib/api.h>\n\n#include \"local.h\"\nint f_" + std::string(name) +
                "() { LIB_CHECK(true); return lib::twice(local()); }\n");
    write(project / "local.h", "#pragma once\ninline int local() { return 2; }\n");
  }
  void TearDown() override { fs::remove_all(dir); }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
  inputs::ClangArgs tu(const std::string& name) {
    return inputs::translate_flags((project / name).string(), {"-std=c++17", "-I", include.string()}, project.string());
  }
  std::vector<inputs::ClangArgs> tus(const Strings& names) {
    std::vector<inputs::ClangArgs> out;
    for (const auto& n : names) out.push_back(tu(n));
    return out;
  }
  static std::vector<size_t> all(size_t n) {
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i;
    return v;
  }
  static bool has_note(const SharedPreambles& p, const std::string& text) {
    for (const auto& n : p.notes())
      if (n.find(text) != std::string::npos) return true;
    return false;
  }
};

TEST_F(PreambleFixture, BuiltOnceForTwoTusThenReusedFromTheCache) {
  auto t = tus({"a.cpp", "b.cpp"});
  {
    SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
    p.prepare(t, all(2), 1);
    ASSERT_NE(p.for_tu(0), nullptr) << (p.notes().empty() ? "" : p.notes()[0]);
    EXPECT_EQ(p.for_tu(0), p.for_tu(1));
    EXPECT_TRUE(has_note(p, "built for 2"));
    EXPECT_TRUE(fs::exists(p.for_tu(0)->pch));
  }
  // A later run with a single TU takes the cached one.
  SharedPreambles again(cache.string(), {project.string()}, test::env().classifier);
  auto one = tus({"c.cpp"});
  again.prepare(one, all(1), 1);
  ASSERT_NE(again.for_tu(0), nullptr);
  EXPECT_TRUE(has_note(again, "(cached)"));
}

TEST_F(PreambleFixture, NotBuiltForASingleTu) {
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  auto t = tus({"a.cpp"});
  p.prepare(t, all(1), 1);
  EXPECT_EQ(p.for_tu(0), nullptr);
  EXPECT_FALSE(fs::exists(cache));
}

TEST_F(PreambleFixture, EditedHeaderInvalidatesThePch) {
  auto t = tus({"a.cpp", "b.cpp"});
  std::string first_pch;
  {
    SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
    p.prepare(t, all(2), 1);
    ASSERT_NE(p.for_tu(0), nullptr);
    first_pch = p.for_tu(0)->pch;
  }
  // Touched, same content: clang would refuse the PCH (its mtime changed), so it is rebuilt.
  fs::last_write_time(include / "lib/detail.h", fs::last_write_time(include / "lib/detail.h") + std::chrono::seconds(5));
  {
    SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
    p.prepare(t, all(2), 1);
    ASSERT_NE(p.for_tu(0), nullptr);
    EXPECT_TRUE(has_note(p, "built for 2")) << p.notes()[0];
    // ... and used by the TUs.
    ParseRequest req;
    req.args = t[0];
    req.project_roots = {project.string()};
    req.classifier = &test::env().classifier;
    req.preamble = p.for_tu(0);
    ParseOutcome o = parse_translation_unit(std::move(req));
    EXPECT_TRUE(o.used_preamble) << o.preamble_note;
  }
  // A header the PCH read only indirectly changes (same size: the content decides).
  std::string text = test::read_file((include / "lib/detail.h").string());
  text.replace(text.find("a + b"), 5, "b + a");
  write(include / "lib/detail.h", text);
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  p.prepare(t, all(2), 1);
  ASSERT_NE(p.for_tu(0), nullptr);
  EXPECT_TRUE(has_note(p, "built for 2")) << p.notes()[0];
  EXPECT_FALSE(has_note(p, "(cached)"));
}

TEST_F(PreambleFixture, HeaderAppearingEarlierOnThePathInvalidatesThePch) {
  fs::create_directories(dir / "first");
  std::vector<inputs::ClangArgs> t;
  for (const char* f : {"a.cpp", "b.cpp"})
    t.push_back(inputs::translate_flags((project / f).string(),
                                        {"-std=c++17", "-I", (dir / "first").string(), "-I", include.string()},
                                        project.string()));
  {
    SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
    p.prepare(t, all(2), 1);
    ASSERT_NE(p.for_tu(0), nullptr);
  }
  {
    SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
    p.prepare(t, all(2), 1);
    EXPECT_TRUE(has_note(p, "(cached)"));
  }
  fs::create_directories(dir / "first/lib");
  write(dir / "first/lib/detail.h", "#pragma once\nnamespace lib::detail { template <class T> T add(T a, T) { return a; } }\n");
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  p.prepare(t, all(2), 1);
  EXPECT_TRUE(has_note(p, "built for 2"));
}

TEST_F(PreambleFixture, TuParsedWithThePchHasThePlainParsesRecords) {
  auto t = tus({"a.cpp", "b.cpp"});
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  p.prepare(t, all(2), 1);
  ASSERT_NE(p.for_tu(0), nullptr);
  auto parse = [&](const PrecompiledPreamble* pre) {
    ParseRequest req;
    req.args = t[0];
    req.project_roots = {project.string()};
    req.classifier = &test::env().classifier;
    req.preamble = pre;
    return parse_translation_unit(std::move(req));
  };
  ParseOutcome with = parse(p.for_tu(0));
  ParseOutcome without = parse(nullptr);
  ASSERT_TRUE(with.tu && without.tu);
  EXPECT_TRUE(with.used_preamble) << with.preamble_note;
  EXPECT_FALSE(without.used_preamble);
  const ParsedTu& a = *with.tu;
  const ParsedTu& b = *without.tu;
  ASSERT_EQ(a.includes().size(), b.includes().size());
  for (size_t i = 0; i < a.includes().size(); ++i) {
    EXPECT_EQ(a.includes()[i].includer, b.includes()[i].includer) << i;
    EXPECT_EQ(a.includes()[i].spelled, b.includes()[i].spelled) << i;
    EXPECT_EQ(a.includes()[i].resolved, b.includes()[i].resolved) << i;
    EXPECT_EQ(a.includes()[i].range.begin, b.includes()[i].range.begin) << i;
  }
  EXPECT_EQ(a.files_read(), b.files_read());
  EXPECT_EQ(a.files_missing(), b.files_missing());
  EXPECT_EQ(a.project_files(), b.project_files());
  ASSERT_EQ(a.macro_uses().size(), b.macro_uses().size());
  for (size_t i = 0; i < a.macro_uses().size(); ++i) {
    EXPECT_EQ(a.macro_uses()[i].name, b.macro_uses()[i].name);
    EXPECT_EQ(a.macro_uses()[i].def_file, b.macro_uses()[i].def_file);
    EXPECT_EQ(a.macro_uses()[i].def_line, b.macro_uses()[i].def_line);
  }
  ASSERT_EQ(a.references().size(), b.references().size());
  for (size_t i = 0; i < a.references().size(); ++i) {
    EXPECT_EQ(a.references()[i].qualified, b.references()[i].qualified);
    EXPECT_EQ(a.references()[i].decl_line, b.references()[i].decl_line);
  }
  EXPECT_EQ(a.include_chain((include / "lib/detail.h").string()).size(),
            b.include_chain((include / "lib/detail.h").string()).size());
  EXPECT_EQ(a.error_count(), 0u);

  // A PCH that vanished: the TU is parsed as if there were none.
  PrecompiledPreamble gone = *p.for_tu(0);
  gone.pch += ".missing";
  ParseOutcome fallback = parse(&gone);
  ASSERT_TRUE(fallback.tu);
  EXPECT_FALSE(fallback.used_preamble);
  EXPECT_NE(fallback.preamble_note.find("not used"), std::string::npos);
  EXPECT_EQ(fallback.tu->includes().size(), b.includes().size());
}

TEST_F(PreambleFixture, RefusedForUnguardedOrBrokenHeadersAndDefinesFirst) {
  for (const char* name : {"u1", "u2"})
    write(project / (std::string(name) + ".cpp"), "#include <lib/unguarded.h>\nint g() { return unguarded(); }\n");
  for (const char* name : {"e1", "e2"})
    write(project / (std::string(name) + ".cpp"), "#include <lib/broken.h>\nint h();\n");
  for (const char* name : {"d1", "d2"})
    write(project / (std::string(name) + ".cpp"), "#define LIB_OPTION 1\n#include <lib/api.h>\nint k();\n");
  auto t = tus({"u1.cpp", "u2.cpp", "e1.cpp", "e2.cpp", "d1.cpp", "d2.cpp"});
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  p.prepare(t, all(t.size()), 1);
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(p.for_tu(i), nullptr) << t[i].file;
  EXPECT_TRUE(has_note(p, "<lib/unguarded.h> is not include-guarded"));
  EXPECT_TRUE(has_note(p, "its headers have errors"));
  // The verdicts are cached too: the next run does not try again.
  SharedPreambles again(cache.string(), {project.string()}, test::env().classifier);
  again.prepare(t, all(t.size()), 1);
  EXPECT_TRUE(has_note(again, "(cached verdict)"));
}

TEST_F(PreambleFixture, ProjectHeadersAreNotPrecompiled) {
  // Found under the project root: the prefix ends before it.
  write(project / "p1.cpp", "#include <local.h>\nint m();\n");
  write(project / "p2.cpp", "#include <local.h>\nint n();\n");
  // Reached through another header: the PCH is refused.
  write(include / "lib/wrap.h", "#pragma once\n#include <local.h>\n");
  write(project / "w1.cpp", "#include <lib/wrap.h>\nint m();\n");
  write(project / "w2.cpp", "#include <lib/wrap.h>\nint n();\n");
  std::vector<inputs::ClangArgs> t;
  for (const char* f : {"p1.cpp", "p2.cpp", "w1.cpp", "w2.cpp"})
    t.push_back(inputs::translate_flags((project / f).string(), {"-std=c++17", "-I", project.string(), "-I", include.string()},
                                        project.string()));
  SharedPreambles p(cache.string(), {project.string()}, test::env().classifier);
  p.prepare(t, all(4), 1);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(p.for_tu(i), nullptr);
  EXPECT_TRUE(has_note(p, "<lib/wrap.h> not used: it includes a project header (" + (project / "local.h").string() + ")"))
      << (p.notes().empty() ? "" : p.notes()[0]);
  EXPECT_EQ(p.notes().size(), 1u);
}

TEST_F(PreambleFixture, WithoutACacheDirectoryThePchLivesForTheRunOnly) {
  std::string dir_used;
  {
    SharedPreambles p("", {project.string()}, test::env().classifier);
    auto t = tus({"a.cpp", "b.cpp"});
    p.prepare(t, all(2), 1);
    ASSERT_NE(p.for_tu(0), nullptr);
    dir_used = fs::path(p.for_tu(0)->pch).parent_path().string();
    EXPECT_TRUE(fs::exists(dir_used));
  }
  EXPECT_FALSE(fs::exists(dir_used));
}

}  // namespace
}  // namespace torchabi::source
