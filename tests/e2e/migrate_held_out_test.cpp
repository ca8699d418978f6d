// `torchabi migrate` on the idioms of public legacy code the plan must explain
// with every header release (fixtures/migrate/held_out): TORCH_CHECK and its
// family through project macros and dispatch lambdas, torch::optional,
// at::indexing, the dispatcher called by hand, ska::flat_hash_map. With
// Debian's 1.13.1 headers and with the real 2.14.1 ones, each use has a
// replacement or a named workaround, and no helper a release's macro expands
// to is counted as an API of its own. (MigrateReleases.* compares the two
// plans with each other.)
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "cli_harness.h"
#include "real_torch.h"

namespace fs = std::filesystem;
using torchabi::e2e::make_temp_dir;
using torchabi::e2e::run_torchabi;
using torchabi::e2e::source_dir;

namespace {

std::string held_out_python_include() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/include", ec))
    if (e.path().filename().string().rfind("python3", 0) == 0 && fs::exists(e.path() / "Python.h")) return e.path();
  return {};
}

nlohmann::json held_out_plan(const std::vector<std::string>& header_flags) {
  const std::string dir = make_temp_dir();
  fs::copy(fs::path(source_dir()) / "fixtures/migrate/held_out", fs::path(dir) / "held_out", fs::copy_options::recursive);
  std::vector<std::string> args = {"migrate", "--format", "json", "--cache-dir", (fs::path(dir) / ".cache").string(),
                                   "held_out/segment_ops.cpp", "held_out/torch_optional.cpp", "--"};
  args.insert(args.end(), header_flags.begin(), header_flags.end());
  args.push_back("-I" + held_out_python_include());
  const auto r = run_torchabi(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? r.json() : nlohmann::json::object();
}

bool is_header(const std::string& api) { return api.find('/') != std::string::npos || api.ends_with(".h"); }

// Every use has a replacement or is listed under a named blocker or gap.
void expect_every_use_explained(const nlohmann::json& plan, const std::string& release) {
  std::set<std::string> named;
  for (const auto& b : plan.value("blockers", nlohmann::json::array()))
    if (b["id"] != "no-stable-equivalent")
      for (const auto& a : b["apis"]) named.insert(a.get<std::string>());
  ASSERT_TRUE(plan.contains("apis")) << release;
  std::set<std::string> apis;
  for (const auto& a : plan["apis"]) {
    const std::string api = a["api"];
    apis.insert(api);
    if (is_header(api)) continue;
    EXPECT_FALSE(api.starts_with("c10::detail::")) << release << ": " << api << " is a macro's expansion, not a use";
    const bool replaced = a["replacement"].is_string() && !a["replacement"].get<std::string>().empty();
    EXPECT_TRUE(replaced || named.count(api))
        << release << ": " << api << " has neither a replacement nor a named workaround";
  }
  // The idioms are found at all (a plan that lost them would pass the loop).
  for (const char* api : {"TORCH_CHECK", "TORCH_CHECK_EQ", "TORCH_INTERNAL_ASSERT", "c10::Dispatcher::singleton",
                          "ska::flat_hash_map"})
    EXPECT_TRUE(apis.count(api)) << release << ": " << api << " is not in the plan";
  EXPECT_TRUE(named.count("c10::Dispatcher::findSchemaOrThrow")) << release;
  // torch::optional (torch_optional.cpp) is std::optional, whichever name the release gives it.
  bool optional_seen = false;
  for (const auto& a : plan["apis"])
    if (a["api"] == "torch::optional" || a["api"] == "c10::optional") {
      optional_seen = true;
      EXPECT_EQ(a["replacement"], "std::optional") << release << ": " << a["api"];
    }
  EXPECT_TRUE(optional_seen) << release;
}

}  // namespace

TEST(MigrateHeldOut, EveryIdiomIsExplainedWithDebians113Headers) {
  if (!fs::exists("/usr/include/torch/extension.h") || held_out_python_include().empty())
    GTEST_SKIP() << "libtorch-dev (scripts/deps.txt) is not installed";
  expect_every_use_explained(held_out_plan({"-std=c++17", "-I/usr/include/torch/csrc/api/include"}), "1.13.1");
}

TEST(MigrateHeldOut, EveryIdiomIsExplainedWithTheReal214Headers) {
  TORCHABI_REQUIRE_REAL_TORCH();
  if (held_out_python_include().empty()) GTEST_SKIP() << "python3-dev is not installed";
  const std::string real = torchabi::test::real_torch_include();
  expect_every_use_explained(
      held_out_plan({"-std=c++20", "-isystem" + real, "-isystem" + real + "/torch/csrc/api/include"}), "2.14.1");
}
