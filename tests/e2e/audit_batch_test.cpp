// `torchabi __audit-batch` (what `scan`'s workers run): many artifacts in one
// process, each reported exactly as `torchabi audit` reports it alone — the
// same JSON text, exit code and stderr — including inputs that fail.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "cli_harness.h"
#include "standins.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;

namespace {

struct Record {
  int exit_code = -1;
  std::string out, err;
};

// Runs the batch with `artifacts` on stdin (NUL-separated); its exit code, and its records.
int run_batch(const std::vector<std::string>& artifacts, const std::vector<std::string>& options,
              std::vector<Record>& records, std::string& err) {
  const std::string dir = make_temp_dir();
  {
    std::ofstream in(dir + "/in", std::ios::binary);
    for (const auto& a : artifacts) in << a << '\0';
  }
  std::string cmd = "cd '" + dir + "' && '" + torchabi_binary() + "' __audit-batch";
  for (const auto& o : options) cmd += " '" + o + "'";
  cmd += " <in >out 2>err";
  const int status = std::system(cmd.c_str());
  const std::string out = read_all(dir + "/out");
  err = read_all(dir + "/err");
  for (size_t pos = 0; pos < out.size();) {
    const size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) break;
    std::istringstream head(out.substr(pos, nl - pos));
    std::string tag;
    size_t n_out = 0, n_err = 0;
    Record r;
    head >> tag >> r.exit_code >> n_out >> n_err;
    if (tag != "torchabi-audit") break;
    r.out = out.substr(nl + 1, n_out);
    r.err = out.substr(nl + 1 + n_out, n_err);
    records.push_back(r);
    pos = nl + 1 + n_out + n_err;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(AuditBatch, EachArtifactAsAuditAloneSaysIt) {
  TORCHABI_REQUIRE_STANDINS();
  const std::string dir = make_temp_dir();
  std::vector<std::string> artifacts = {stable_lib(), stable_212_lib(), wheel("ext212_too_old"),
                                        fixture("conda/stable_ext-1.0-py311_0.conda"), dir + "/missing.so",
                                        write_file(dir, "notelf.so", "not an ELF file\n"), stable_lib()};
  if (have_legacy()) artifacts.push_back(legacy_lib());
  const std::vector<std::string> options = {"--format", "json", "--torch", torchabi::test::standin_v1()};
  std::vector<Record> records;
  std::string err;
  ASSERT_EQ(run_batch(artifacts, options, records, err), 0) << err;
  ASSERT_EQ(records.size(), artifacts.size()) << err;
  for (size_t i = 0; i < artifacts.size(); ++i) {
    std::vector<std::string> args = {"audit"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(artifacts[i]);
    auto alone = run_torchabi(args);
    EXPECT_EQ(records[i].exit_code, alone.exit_code) << artifacts[i];
    EXPECT_EQ(records[i].out, alone.out) << artifacts[i];
    EXPECT_EQ(records[i].err, alone.err) << artifacts[i];
  }
  // The failing inputs fail as inputs (exit 2, one line naming them), the others do not.
  EXPECT_EQ(records[4].exit_code, 2);
  EXPECT_NE(records[4].err.find("missing.so"), std::string::npos) << records[4].err;
  EXPECT_EQ(records[5].exit_code, 2);
}

TEST(AuditBatch, BadOptionsFailTheBatchBeforeAnyAudit) {
  std::vector<Record> records;
  std::string err;
  EXPECT_EQ(run_batch({stable_lib()}, {"--format", "yaml"}, records, err), 2);
  EXPECT_TRUE(records.empty());
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  // Artifacts come on stdin only.
  records.clear();
  EXPECT_EQ(run_batch({}, {"--format", "json", stable_lib()}, records, err), 2);
  EXPECT_NE(err.find("stdin"), std::string::npos) << err;
}

}  // namespace
