// Bad inputs: each is one line on stderr naming the file, exit code 2, and
// the other inputs are still audited and reported.
#include <gtest/gtest.h>

#include "audit_fixtures.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
namespace fs = std::filesystem;

namespace {

// Audits `bad` next to a good library; checks the one-line error and that the
// good library still made it into the report.
void expect_rejected(const std::string& bad, const std::string& message) {
  auto r = run_torchabi({"audit", "--format", "json", bad, stable_lib()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "torchabi: error: " + bad + ": " + message + "\n");
  auto j = r.json();
  ASSERT_EQ(j["errors"].size(), 1u);
  EXPECT_EQ(j["errors"][0]["input"], bad);
  ASSERT_EQ(j["subjects"].size(), 1u) << "the good input was not audited";
  EXPECT_EQ(j["subjects"][0]["path"], stable_lib());
}

}  // namespace

TEST(AuditBadInput, MissingPath) {
  const std::string dir = make_temp_dir();
  expect_rejected(dir + "/nope.so", "no such file or directory");
}

TEST(AuditBadInput, NotElf) {
  const std::string dir = make_temp_dir();
  expect_rejected(write_file(dir, "readme.so", "just text\n"), "not an ELF file");
}

TEST(AuditBadInput, TruncatedElf) {
  const std::string dir = make_temp_dir();
  const std::string cut = write_file(dir, "cut.so", read_all(stable_lib()).substr(0, 4096));
  auto r = run_torchabi({"audit", cut, stable_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("torchabi: error: " + cut + ": truncated ELF: section headers end at byte ", 0), 0u) << r.err;
}

TEST(AuditBadInput, ThirtyTwoBitElf) {
  const std::string dir = make_temp_dir();
  expect_rejected(patched_copy(stable_lib(), dir, "lib32.so", 4, std::string(1, '\x01')),
                  "32-bit ELF (ELFCLASS32); PyTorch extensions are 64-bit");
}

TEST(AuditBadInput, ForeignArchitecture) {
  const std::string dir = make_temp_dir();
  // e_machine (offset 18, little-endian) = 21, EM_PPC64.
  expect_rejected(patched_copy(stable_lib(), dir, "ppc.so", 18, std::string("\x15\x00", 2)),
                  "foreign architecture PowerPC64 (e_machine 21); torchabi audits x86-64 and AArch64 libraries");
}

TEST(AuditBadInput, CorruptZip) {
  const std::string dir = make_temp_dir();
  std::string bytes = read_all(wheel("stable_ext"));
  const size_t eocd = bytes.rfind(std::string("PK\x05\x06", 4));
  ASSERT_NE(eocd, std::string::npos);
  const std::string bad = write_file(dir, "broken-1.0-py3-none-any.whl", bytes.substr(0, eocd));
  expect_rejected(bad, "not a zip archive (a wheel is a zip file)");
}

TEST(AuditBadInput, EmptyDirectory) {
  const std::string dir = make_temp_dir();
  fs::create_directories(dir + "/empty");
  expect_rejected(dir + "/empty", "no shared libraries (*.so, *.dylib, *.pyd, *.dll), wheels (*.whl) or conda packages (*.conda, *.tar.bz2) found in this directory");
}

TEST(AuditBadInput, EveryBadInputAtOnce) {
  const std::string dir = make_temp_dir();
  fs::create_directories(dir + "/empty");
  std::vector<std::string> bad = {dir + "/missing.so", write_file(dir, "text.so", "text"),
                                  patched_copy(stable_lib(), dir, "lib32.so", 4, std::string(1, '\x01')),
                                  write_file(dir, "junk.whl", "PK junk"), dir + "/empty"};
  std::vector<std::string> args = {"audit", "--format", "json"};
  args.insert(args.end(), bad.begin(), bad.end());
  args.push_back(stable_212_lib());
  auto r = run_torchabi(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), int(bad.size())) << r.err;
  for (const auto& b : bad) EXPECT_NE(r.err.find(b + ": "), std::string::npos) << b;
  EXPECT_EQ(r.json()["subjects"].size(), 1u);
}

TEST(AuditBadInput, NoPathIsAUsageError) {
  auto r = run_torchabi({"audit"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST(AuditBadInput, ReportFileIsNotWrittenHalfway) {
  const std::string dir = make_temp_dir();
  const std::string out = dir + "/sub/missing-dir/report.json";
  auto r = run_torchabi({"audit", "-o", out, stable_lib()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
}
