// `torchabi rules import`: a rules directory from an installed torch's stable
// headers (here the stand-ins), usable with --rules-dir.
#include <gtest/gtest.h>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

TEST(RulesImport, WritesARulesDirectoryTheToolLoads) {
  const std::string out = make_temp_dir() + "/torch-rules";
  auto r = run_torchabi({"rules", "import", "--torch-include", stand_ins(), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(torch 2.12)"), std::string::npos) << r.out;
  const std::string c = read_all(out + "/api/stable_c_functions.tsv");
  EXPECT_NE(c.find("torch_dtype_float8_e8m0fnu\t2.11.0\tfunction"), std::string::npos);
  const std::string cxx = read_all(out + "/api/stable_cxx_apis.tsv");
  EXPECT_NE(cxx.find("torch::stable::reshape\t2.10\tfunction\ttorch/csrc/stable/ops.h"), std::string::npos);
  EXPECT_NE(cxx.find("STD_CUDA_KERNEL_LAUNCH_CHECK\t2.10\tmacro\ttorch/csrc/stable/macros.h"), std::string::npos);

  auto list = run_torchabi({"--rules-dir", out, "rules", "list", "--format", "json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  auto lint = run_torchabi({"--rules-dir", out, "lint", "--format", "json", "--cache-dir", make_temp_dir(), "--no-torch-import",
                            fixture("version-api-after-target/fires.cpp"), "--", "-std=c++17", "-I", stand_ins(),
                            "-DTORCH_TARGET_VERSION=0x020a000000000000"});
  EXPECT_EQ(findings_of(lint.json(), "version-api-after-target").size(), 1u) << lint.out;
}

TEST(RulesImport, DirectoryWithoutStableHeadersIsOneLineExit2) {
  const std::string out = make_temp_dir() + "/r";
  auto r = run_torchabi({"rules", "import", "--torch-include", "/usr/include", "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("/usr/include"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace torchabi::e2e::lint
