// migrate's plan formats with a source file whose name is not UTF-8 (a byte
// 0xff) and holds a newline (issue 38: paths are bytes): the JSON plan is
// valid and carries the exact name in "<field>_bytes" siblings, Markdown and
// HTML keep each record on one line with the name escaped as `ls -b` does,
// and nothing is an internal error.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_harness.h"

using namespace torchabi::e2e;

namespace {


const std::string kName = "m\xff" "y\nz.cpp";

// The odd file with a use of a legacy header and API, in a fresh directory.
std::string odd_project() {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/" + kName) << "#include <torch/extension.h>\n"
                                      "at::Tensor twice(const at::Tensor& x) { return x * 2; }\n";
  return dir;
}

torchabi::e2e::RunResult migrate(const std::string& dir, const std::string& format) {
  return run_torchabi({"migrate", "--format", format, "--cache-dir", dir + "/.cache", kName, "--", "-std=c++17"}, dir);
}

void expect_no_internal_error(const RunResult& r) {
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("type_error"), std::string::npos) << r.err;
}

// The name is never split: each "z.cpp" on a line follows the escaped
// newline "y\\n" of the same name.
void expect_no_split_record(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    for (size_t at = line.find("z.cpp"); at != std::string::npos; at = line.find("z.cpp", at + 1))
      EXPECT_TRUE(at >= 3 && line.compare(at - 3, 3, "y\\n") == 0)
          << "a record split on the newline in the name:\n" << text;
}

}  // namespace

TEST(MigrateBytePaths, JsonCarriesTheExactName) {
  const std::string dir = odd_project();
  auto r = migrate(dir, "json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_no_internal_error(r);
  ASSERT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  const auto plan = r.json();
  // The inputs, the per-file table and every use name the file exactly.
  ASSERT_TRUE(plan.contains("inputs_bytes")) << plan.dump(1);
  ASSERT_EQ(plan["inputs_bytes"].size(), plan["inputs"].size());
  EXPECT_EQ(percent_decode(plan["inputs_bytes"][0]), kName) << plan["inputs_bytes"].dump();
  ASSERT_FALSE(plan["files"].empty()) << r.out;
  bool file_named = false;
  for (const auto& f : plan["files"])
    if (f.contains("path_bytes")) file_named = file_named || percent_decode(f["path_bytes"]).ends_with(kName);
  EXPECT_TRUE(file_named) << plan["files"].dump(1);
  ASSERT_FALSE(plan["apis"].empty()) << r.out;
  size_t uses = 0;
  for (const auto& a : plan["apis"]) {
    ASSERT_TRUE(a.contains("files_bytes")) << a.dump(1);
    EXPECT_EQ(a["files_bytes"].size(), a["files"].size());
    for (const auto& u : a["uses"]) {
      ASSERT_TRUE(u.contains("file_bytes")) << u.dump();
      EXPECT_TRUE(percent_decode(u["file_bytes"]).ends_with(kName)) << u.dump();
      ++uses;
    }
  }
  EXPECT_GT(uses, 0u);
  for (const auto& s : plan["steps"]) {
    ASSERT_TRUE(s.contains("files_bytes")) << s.dump(1);
    EXPECT_TRUE(percent_decode(s["files_bytes"][0]).ends_with(kName)) << s.dump(1);
  }
  // An ordinary name has no *_bytes siblings.
  const std::string plain = make_temp_dir();
  std::ofstream(plain + "/plain.cpp") << "#include <torch/extension.h>\nat::Tensor f(const at::Tensor& x) { return x; }\n";
  auto p = run_torchabi({"migrate", "--format", "json", "--cache-dir", plain + "/.cache", "plain.cpp", "--",
                         "-std=c++17"}, plain);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out.find("_bytes\""), std::string::npos) << p.out;
}

TEST(MigrateBytePaths, MarkdownAndHtmlKeepOneRecordPerLine) {
  const std::string dir = odd_project();
  auto md = migrate(dir, "md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  expect_no_internal_error(md);
  EXPECT_NE(md.out.find("m\\377y\\nz.cpp"), std::string::npos) << md.out;
  expect_no_split_record(md.out);
  EXPECT_EQ(md.out.find('\xff'), std::string::npos) << md.out;

  auto html = migrate(dir, "html");
  ASSERT_EQ(html.exit_code, 0) << html.err;
  expect_no_internal_error(html);
  EXPECT_NE(html.out.find("m\\377y\\nz.cpp"), std::string::npos) << html.out;
  EXPECT_EQ(html.out.find('\xff'), std::string::npos) << "the page is not UTF-8";
}

TEST(MigrateBytePaths, DryRunDiffHeadersStayOneLine) {
  const std::string dir = odd_project();
  auto r = run_torchabi({"migrate", "--fix", "--dry-run", "--cache-dir", dir + "/.cache", kName, "--", "-std=c++17"},
                        dir);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  expect_no_internal_error(r);
  expect_no_split_record(r.out);
  expect_no_split_record(r.err);
}
