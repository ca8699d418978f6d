// `torchabi run` as a user runs it: exit codes, parsed JSON/SARIF, one-line
// input errors, and a crashing or hanging extension that does not take
// torchabi down.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_harness.h"
#include "real_torch.h"

using torchabi::e2e::build_dir;
using torchabi::e2e::first_block_line;
using torchabi::e2e::shell_words;
using torchabi::e2e::run_torchabi;
using torchabi::e2e::source_dir;

namespace {

std::string ext(const std::string& name) { return build_dir() + "/fixtures/runtime/" + name + ".so"; }
std::string cases(const std::string& rel) { return source_dir() + "/fixtures/runtime/" + rel; }

std::vector<std::string> rules_of(const nlohmann::json& j) {
  std::vector<std::string> out;
  for (const auto& f : j["findings"]) out.push_back(f["rule"]);
  return out;
}

TEST(RunCli, CorrectExtensionWithCasesIsClean) {
  auto r = run_torchabi({"run", ext("good_ops"), "--cases", cases("good_ops.yaml"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["command"], "run");
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump(2);
  const auto& s = j["subjects"][0];
  EXPECT_EQ(s["kind"], "extension");
  EXPECT_EQ(s["verdict"], "PASSED");
  EXPECT_EQ(s["facts"]["calls"], "10 cases: 10 passed, 0 failed");
  EXPECT_EQ(s["facts"]["op good::add"], "add(Tensor a, Tensor b, float alpha=1) -> Tensor [CPU]");
  EXPECT_EQ(s["facts"]["extension_build_version"], "2.10");
}

// As real torch (checked by scripts/test-against-torch.sh, and on Debian's
// torchcodec by scripts/against-torch/third_party.sh): a BackendSelect kernel
// runs for a call without tensors, and before a CPU kernel.
TEST(RunCli, BackendSelectKernelRanksAboveCpu) {
  auto r = run_torchabi({"run", ext("backend_select"), "--cases", cases("backend_select.yaml"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = r.json();
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump(2);
  EXPECT_EQ(j["subjects"][0]["facts"]["calls"], "2 cases: 2 passed, 0 failed");
}

TEST(RunCli, TextReportNamesTheRegistrations) {
  auto r = run_torchabi({"run", ext("good_ops"), "-v"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("good::row_sum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out;
}

TEST(RunCli, LeakIsAFindingWithExitCode1) {
  auto r = run_torchabi({"run", ext("bad_leak"), "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  ASSERT_EQ(rules_of(j), std::vector<std::string>{"runtime-handle-leak"});
  EXPECT_EQ(j["findings"][0]["location"]["symbol"], "bad_leak::identity");
  EXPECT_EQ(j["findings"][0]["location"]["file"], ext("bad_leak"));
  EXPECT_FALSE(j["findings"][0]["help"].get<std::string>().empty());
}

TEST(RunCli, SegfaultAndHangDoNotStopTorchabi) {
  auto crash = run_torchabi({"run", ext("bad_segfault"), "--format", "json"});
  EXPECT_EQ(crash.exit_code, 1) << crash.err;
  EXPECT_EQ(rules_of(crash.json()), std::vector<std::string>{"runtime-kernel-crash"});
  auto hang = run_torchabi({"run", ext("bad_hang"), "--timeout", "0.3", "--format", "json"});
  EXPECT_EQ(hang.exit_code, 1) << hang.err;
  EXPECT_EQ(rules_of(hang.json()), std::vector<std::string>{"runtime-kernel-timeout"});
}

TEST(RunCli, OlderReleaseRefusesNewerImports) {
  auto r = run_torchabi({"run", ext("bad_newer_api"), "--torch-version", "2.10", "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  ASSERT_EQ(rules_of(j), std::vector<std::string>{"runtime-missing-symbol"});
  EXPECT_EQ(j["findings"][0]["notes"][0], "torch_tag_pointwise (2.12)");
  EXPECT_EQ(j["subjects"][0]["verdict"], "NOT LOADED");
  auto ok = run_torchabi({"run", ext("bad_newer_api"), "--torch-version", "0x020c000000000000"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

TEST(RunCli, SarifIsValidJsonWithRuntimeRules) {
  auto r = run_torchabi({"run", ext("bad_missing_return"), "--format", "sarif"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  ASSERT_TRUE(j.contains("runs"));
  EXPECT_EQ(j["runs"][0]["results"][0]["ruleId"], "runtime-missing-return");
}

TEST(RunCli, MissingExtensionIsAOneLineInputError) {
  auto r = run_torchabi({"run", "/nonexistent/ext.so"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/ext.so"), std::string::npos) << r.err;
}

TEST(RunCli, BadCaseFileIsAOneLineInputError) {
  auto r = run_torchabi({"run", ext("good_ops"), "--cases", source_dir() + "/tests/unit/runtime/data/unknown_op.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("op 'good::nope' is not registered by the extension"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing half-written: " << r.out;
}

TEST(RunCli, NonElfInputIsAnInputError) {
  auto r = run_torchabi({"run", cases("good_ops.yaml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// Linked as real builds link it (-ltorch_cpu -lc10 against Debian's libtorch):
// DT_NEEDED names the versioned sonames, and torchabi must stand in for them.
TEST(RunCli, ExtensionLinkedAgainstRealLibtorchLoadsWithoutIt) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string so = ext("linked_to_real_libtorch");
  ASSERT_TRUE(std::filesystem::exists(so)) << so << " is built when real PyTorch is unpacked at configure time";
  auto audit = run_torchabi({"audit", so, "--format", "json", "-v"});
  const std::string needed = audit.json()["subjects"][0]["facts"].value("needed", "");
  EXPECT_NE(needed.find("libtorch_cpu.so."), std::string::npos) << "a versioned soname: " << needed;
  auto r = run_torchabi({"run", so, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = r.json();
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump(2);
  EXPECT_EQ(j["subjects"][0]["verdict"], "PASSED");
  EXPECT_EQ(j["subjects"][0]["facts"]["calls"], "1 smoke call: 1 passed, 0 failed");
}

TEST(RunCli, UnknownReleaseIsAnInputError) {
  auto r = run_torchabi({"run", ext("good_ops"), "--torch-version", "2.99"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--torch-version"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// The examples in rules/checks/runtime-*.yaml are `torchabi run` commands on
// the fixtures; run them (build/ is the build tree, other paths the sources),
// so the documentation cannot drift from what the runtime reports.
std::vector<std::string> example_command(const std::string& line) {
  std::string command = line.substr(0, line.find('#'));
  auto words = shell_words(command);
  for (auto& w : words) {
    if (w.rfind("build/", 0) == 0) w = build_dir() + w.substr(5);
    else if (w.rfind("fixtures/", 0) == 0) w = source_dir() + "/" + w;
  }
  return words;
}

TEST(RunCli, RuleDocumentationExamplesBehaveAsDocumented) {
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/rules/checks")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("runtime-", 0) != 0) continue;
    const std::string rule = name.substr(0, name.size() - std::string(".yaml").size());
    for (std::string key : {"example_fires", "example_clean"}) {
      auto words = example_command(first_block_line(entry.path().string(), key));
      if (words.size() < 3 || words[0] != "torchabi" || words[1] != "run") continue;
      words.erase(words.begin());
      words.insert(words.end(), {"--format", "json"});
      auto r = run_torchabi(words);
      ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << rule << " " << key << ": " << r.err;
      const auto report = r.json();
      bool fired = false;
      for (const auto& f : report["findings"]) fired |= f["rule"] == rule;
      EXPECT_EQ(fired, key == "example_fires") << rule << " " << key;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10u);
}

}  // namespace
