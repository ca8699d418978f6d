#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <vector>

#include "analyzers/migration/unified_diff.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;

namespace {

// Applies a unified diff produced by unified_diff() to `before`: an
// independent reading of the format, so the test does not trust the writer.
std::string apply_unified(const std::string& before, const std::string& diff) {
  std::vector<std::string> old_lines;
  for (size_t pos = 0; pos < before.size();) {
    size_t nl = before.find('\n', pos);
    size_t end = nl == std::string::npos ? before.size() : nl + 1;
    old_lines.push_back(before.substr(pos, end - pos));
    pos = end;
  }
  std::vector<std::string> d;
  for (size_t pos = 0; pos < diff.size();) {
    size_t nl = diff.find('\n', pos);
    d.push_back(diff.substr(pos, nl - pos + 1));
    pos = nl + 1;
  }
  std::string out;
  size_t next_old = 0;  // 0-based index of the next old line not yet copied
  for (size_t i = 2; i < d.size();) {
    int a_start = 0, a_len = 1, b_start = 0, b_len = 1;
    if (std::sscanf(d[i].c_str(), "@@ -%d,%d +%d,%d @@", &a_start, &a_len, &b_start, &b_len) != 4) {
      // ",N" is omitted when N is 1
      a_len = b_len = 1;
      if (std::sscanf(d[i].c_str(), "@@ -%d,%d +%d @@", &a_start, &a_len, &b_start) != 3 &&
          std::sscanf(d[i].c_str(), "@@ -%d +%d,%d @@", &a_start, &b_start, &b_len) != 3)
        std::sscanf(d[i].c_str(), "@@ -%d +%d @@", &a_start, &b_start);
    }
    size_t first = a_len == 0 ? size_t(a_start) : size_t(a_start - 1);
    while (next_old < first) out += old_lines[next_old++];
    ++i;
    while (i < d.size() && d[i].rfind("@@", 0) != 0) {
      const std::string& l = d[i];
      std::string body = l.substr(1);
      bool no_newline = i + 1 < d.size() && d[i + 1].rfind("\\ No newline", 0) == 0;
      if (no_newline) body.pop_back();
      if (l[0] == ' ') {
        EXPECT_EQ(old_lines[next_old], body);
        out += old_lines[next_old++];
      } else if (l[0] == '-') {
        EXPECT_EQ(old_lines[next_old], body);
        ++next_old;
      } else if (l[0] == '+') {
        out += body;
      }
      i += no_newline ? 2 : 1;
    }
  }
  while (next_old < old_lines.size()) out += old_lines[next_old++];
  return out;
}

}  // namespace

TEST(UnifiedDiff, EqualTextsGiveNoDiff) { EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x.cpp"), ""); }

TEST(UnifiedDiff, OneChangedLineWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff(before, after, "src/a.cpp"),
            "--- src/a.cpp\n+++ src/a.cpp\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, DistantChangesMakeSeparateHunksAndCloseOnesMerge) {
  std::string before, after;
  for (int i = 1; i <= 30; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 2 || i == 8 || i == 25 ? "x" : "") + std::to_string(i) + "\n";
  }
  const std::string diff = unified_diff(before, after, "f");
  EXPECT_NE(diff.find("@@ -1,11 +1,11 @@"), std::string::npos) << diff;
  EXPECT_NE(diff.find("@@ -22,7 +22,7 @@"), std::string::npos) << diff;
  EXPECT_EQ(apply_unified(before, diff), after);
}

TEST(UnifiedDiff, InsertionIntoAnEmptyFileAndMissingFinalNewline) {
  EXPECT_EQ(unified_diff("", "a\n", "f"), "--- f\n+++ f\n@@ -0,0 +1 @@\n+a\n");
  const std::string diff = unified_diff("a\nb", "a\nc", "f");
  EXPECT_EQ(diff, "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, RandomEditsRoundTrip) {
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> lines;
    const int n = int(rng() % 40);
    for (int i = 0; i < n; ++i) lines.push_back("line " + std::to_string(rng() % 7) + "\n");
    std::string before;
    for (const auto& l : lines) before += l;
    auto edited = lines;
    const int edits = int(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const int op = int(rng() % 3);
      const size_t at = edited.empty() ? 0 : rng() % edited.size();
      if (op == 0 || edited.empty()) edited.insert(edited.begin() + at, "new " + std::to_string(rng() % 5) + "\n");
      else if (op == 1) edited.erase(edited.begin() + at);
      else edited[at] = "changed\n";
    }
    std::string after;
    for (const auto& l : edited) after += l;
    if (rng() % 4 == 0 && !after.empty()) after.pop_back();  // no final newline
    const std::string diff = unified_diff(before, after, "f");
    EXPECT_EQ(diff.empty(), before == after);
    if (!diff.empty()) {
      EXPECT_EQ(apply_unified(before, diff), after) << diff;
    }
  }
}

// When GNU patch is installed, it must accept the diff too.
TEST(UnifiedDiff, GnuPatchAppliesIt) {
  if (std::system("patch --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "patch is not installed";
  const std::string dir = scratch_dir();
  const std::string before = "#include <torch/extension.h>\nint a;\nint b;\n\nint c;\nint d;\nint e;\nint f;\nint g;\n";
  const std::string after = "#include <torch/csrc/stable/tensor.h>\nint a;\nint b;\n\nint c;\nint d;\nint e;\nint f;\nint G;\n";
  put_file(dir, "a.cpp", before);
  put_file(dir, "fix.diff", unified_diff(before, after, "a.cpp"));
  ASSERT_EQ(std::system(("cd " + dir + " && patch -s -p0 < fix.diff").c_str()), 0);
  EXPECT_EQ(slurp(dir + "/a.cpp"), after);
}
