// Lint parses each translation unit in a child process that hands its result
// back as JSON text: a source file whose name is not UTF-8 (a byte 0xff) must
// still be named exactly in the parent's reports, never as U+FFFD (issue 38:
// paths are bytes).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_harness.h"

using namespace torchabi::e2e;

namespace {


}  // namespace

TEST(LintBytePaths, NonUtf8NameSurvivesTheParseChild) {
  const std::string dir = make_temp_dir();
  const std::string name = "x\xff" "y\nz.cpp";
  std::ofstream(dir + "/" + name) << "#include <ATen/ATen.h>\nint f() { return 0; }\n";

  auto j = run_torchabi({"lint", "--format", "json", name}, dir);
  ASSERT_EQ(j.exit_code, 1) << j.err;
  const auto report = j.json();
  ASSERT_FALSE(report["findings"].empty()) << j.out;
  const auto& loc = report["findings"][0]["location"];
  ASSERT_TRUE(loc.contains("file_bytes")) << loc.dump();
  EXPECT_EQ(percent_decode(loc["file_bytes"].get<std::string>()), name) << loc.dump();

  auto s = run_torchabi({"lint", "--format", "sarif", name}, dir);
  ASSERT_EQ(s.exit_code, 1) << s.err;
  const auto sarif = s.json();
  const auto& results = sarif["runs"][0]["results"];
  ASSERT_FALSE(results.empty()) << s.out;
  const std::string uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
  EXPECT_EQ(percent_decode(uri), name) << uri;

  // Text: the name escaped as `ls -b` does, one line per record.
  auto t = run_torchabi({"lint", name}, dir);
  ASSERT_EQ(t.exit_code, 1) << t.err;
  EXPECT_NE(t.out.find("x\\377y\\nz.cpp:1:1: error:"), std::string::npos) << t.out;
  std::istringstream in(t.out);
  for (std::string line; std::getline(in, line);)
    EXPECT_NE(line.rfind("z.cpp", 0), 0u) << "a record split on the newline in the name:\n" << t.out;
  // Notes on stderr name the file too ("parsed without flags"): one line each.
  std::istringstream err(t.err);
  for (std::string line; std::getline(err, line);)
    EXPECT_NE(line.rfind("z.cpp", 0), 0u) << "a note split on the newline in the name:\n" << t.err;
}
