// `torchabi audit --torch PATH...`: does each library load on each PyTorch
// install? The matrix in every format, checked against the real dynamic
// linker: on the stand-in installs (fixtures/torch_standins), on bookworm's
// installed libtorch 1.13, and on Debian sid's unpacked 2.14 (through export
// stubs: its libraries need a newer glibc than this system has).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "audit_fixtures.h"
#include "loader_check.h"
#include "real_torch.h"
#include "standins.h"

using namespace torchabi::e2e;
using namespace torchabi::e2e::audit;
using namespace torchabi::e2e::loader;
using namespace torchabi::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kBookwormLibdir = "/usr/lib/x86_64-linux-gnu";

std::string lib_dir_of(const std::string& install) {
  return fs::exists(install + "/lib") ? install + "/lib" : install;
}

std::set<std::string> missing_symbols(const json& entry) {
  std::set<std::string> out;
  for (const auto& m : entry["missing_symbols"]) out.insert(m["symbol"].get<std::string>());
  return out;
}

std::set<std::string> missing_libraries(const json& entry) {
  std::set<std::string> out;
  for (const auto& m : entry["missing_libraries"]) out.insert(m["needed"].get<std::string>());
  return out;
}

// The Debian version recorded for `package_prefix` ("libtorch2.") by scripts/fetch-torch.sh.
std::string fetched_version(const std::string& package_prefix) {
  std::istringstream in(real_torch_packages());
  for (std::string item; std::getline(in, item, ',');)
    if (item.find("Package: " + package_prefix) != std::string::npos) return item.substr(item.find("Version: ") + 9);
  return {};
}

std::string upstream(std::string v) {
  if (auto c = v.find(':'); c != std::string::npos) v = v.substr(c + 1);
  if (auto d = v.rfind('-'); d != std::string::npos) v = v.substr(0, d);
  if (auto p = v.find_first_of("+~"); p != std::string::npos) v = v.substr(0, p);
  return v;
}

// Export stubs of sid's libc10 and libtorch_cpu, also under 1.13's names and
// pip's (what the legacy fixtures need), built once per test process.
std::string sid_stubs() {
  std::vector<std::string> spec;
  for (const auto& stem : {"libc10", "libtorch_cpu"})
    spec.push_back(std::string(stem) + ".so=" + stem + ".so.1.13," + stem + ".so");
  return export_stubs(real_torch_libdir(), spec);
}

}  // namespace

TEST(AuditTorch, StandInMatrixInJson) {
  TORCHABI_REQUIRE_STANDINS();
  auto r = run_torchabi({"audit", "--format", "json", "--torch", standin_v1(), "--torch", standin_v2(), "--torch",
                         standin_wheel(), standin("ext")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["torches"].size(), 3u);
  EXPECT_EQ(j["torches"][0]["id"], standin_v1());
  EXPECT_EQ(j["torches"][0]["kind"], "python-package");
  EXPECT_EQ(j["torches"][0]["version"], standin_v1_version());
  EXPECT_EQ(j["torches"][1]["kind"], "libtorch");
  EXPECT_EQ(j["torches"][1]["version"], standin_v2_version());
  EXPECT_EQ(j["torches"][1]["version_source"], "build-version");
  EXPECT_EQ(j["torches"][2]["kind"], "wheel");
  EXPECT_EQ(j["torches"][2]["version"], standin_v1_version());

  // loads on v1, v2, wheel
  const std::map<std::string, std::vector<bool>> want = {
      {standin_ext(), {true, false, true}},
      {standin_ext_v2(), {false, true, false}},
      {standin_stable(), {true, false, true}},
  };
  ASSERT_EQ(j["subjects"].size(), want.size());
  for (const auto& [lib, loads] : want) {
    auto s = subject(j, lib);
    ASSERT_EQ(s["torch"].size(), 3u) << lib;
    const std::string ids[3] = {standin_v1(), standin_v2(), standin_wheel()};
    for (int k = 0; k < 3; ++k) EXPECT_EQ(s["torch"][ids[k]]["loads"], loads[k]) << lib << " on " << ids[k];
    // The wheel is the v1 install: the same answer, symbol for symbol.
    EXPECT_EQ(s["torch"][ids[0]]["missing_symbols"], s["torch"][ids[2]]["missing_symbols"]);
  }
  auto stable = subject(j, standin_stable());
  EXPECT_EQ(stable["torch"][standin_v2()]["rules_predict_loads"], true);
  EXPECT_EQ(stable["torch"][standin_v2()]["agrees_with_rules"], false);
  EXPECT_EQ(stable["torch"][standin_v1()]["agrees_with_rules"], true);
  auto disagree = findings_of(j, "binary-rules-disagree-with-torch");
  ASSERT_EQ(disagree.size(), 1u);
  EXPECT_EQ(disagree[0]["severity"], "warning");
  EXPECT_EQ(disagree[0]["location"]["file"], standin_stable());
  // The unstable extension has no rules prediction to disagree with.
  EXPECT_TRUE(subject(j, standin_ext())["torch"][standin_v2()]["rules_predict_loads"].is_null());
}

TEST(AuditTorch, StandInAnswersAreTheDynamicLinkers) {
  TORCHABI_REQUIRE_STANDINS();
  const std::vector<std::string> installs = {standin_v1(), standin_v2()};
  std::vector<std::string> args = {"audit", "--format", "json"};
  for (const auto& t : installs) args.insert(args.end(), {"--torch", t});
  for (const auto& l : {standin_ext(), standin_ext_v2(), standin_stable()}) args.push_back(l);
  auto j = run_torchabi(args).json();
  for (const auto& lib : {standin_ext(), standin_ext_v2(), standin_stable()}) {
    for (const auto& t : installs) {
      const json entry = subject(j, lib)["torch"][t];
      const Shell dl = try_dlopen(lib, lib_dir_of(t));
      EXPECT_EQ(dl.exit_code == 0, entry["loads"].get<bool>()) << lib << " on " << t << ": " << dl.out;
      if (!missing_libraries(entry).empty()) {
        // glibc stops at the first library it cannot find: one torchabi named.
        bool named = false;
        for (const auto& n : missing_libraries(entry)) named = named || dl.out.find(n + ": cannot open") != std::string::npos;
        EXPECT_TRUE(named) << dl.out;
        continue;
      }
      // Otherwise ldd -r lists every unresolved import: exactly torchabi's.
      EXPECT_EQ(ldd_undefined(lib, lib_dir_of(t)), missing_symbols(entry)) << lib << " on " << t;
      for (const auto& v : entry["missing_versions"])
        EXPECT_NE(dl.out.find("version `" + v["version"].get<std::string>() + "' not found"), std::string::npos)
            << dl.out;
    }
  }
}

TEST(AuditTorch, SarifMarkdownAndText) {
  TORCHABI_REQUIRE_STANDINS();
  const std::vector<std::string> common = {"--torch", standin_v1(), "--torch", standin_v2(), standin_ext(), standin_stable()};
  auto with = [&](const std::string& format) {
    std::vector<std::string> a = {"audit", "--format", format};
    a.insert(a.end(), common.begin(), common.end());
    return run_torchabi(a);
  };
  auto sarif = with("sarif");
  ASSERT_EQ(sarif.exit_code, 1) << sarif.err;
  const json run = sarif.json()["runs"][0];
  const json matrix = run["properties"]["torchabi/torchMatrix"];
  ASSERT_EQ(matrix["torches"].size(), 2u);
  ASSERT_EQ(matrix["subjects"].size(), 2u);
  for (const auto& s : matrix["subjects"]) EXPECT_EQ(s["torch"].size(), 2u);
  // A result for each library and install it does not load on: both on v2.
  std::set<std::string> failing;
  for (const auto& res : run["results"])
    if (res["ruleId"] == "binary-missing-symbol-on-torch") {
      failing.insert(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].get<std::string>());
      EXPECT_NE(res["message"]["text"].get<std::string>().find(standin_v2()), std::string::npos);
    }
  EXPECT_EQ(failing, (std::set<std::string>{standin_ext(), standin_stable()}));
  std::set<std::string> rules;
  for (const auto& rule : run["tool"]["driver"]["rules"]) {
    rules.insert(rule["id"].get<std::string>());
    EXPECT_FALSE(rule["shortDescription"]["text"].get<std::string>().empty()) << rule["id"];
  }
  EXPECT_TRUE(rules.count("binary-missing-symbol-on-torch"));
  EXPECT_TRUE(rules.count("binary-rules-disagree-with-torch"));

  // Markdown: one table row per library, one cell per install.
  auto md = with("md");
  std::istringstream lines(md.out);
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `" + standin_ext() + "` |") || line.find(":white_check_mark:") == std::string::npos)
      continue;
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), '|'), 4) << line;
    EXPECT_NE(line.find(":x: no: 5 symbols, 1 version missing"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 1) << md.out;
  auto text = with("text");
  EXPECT_NE(text.out.find("loads on (measured)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("torch " + standin_v2_version() + ": " + standin_v2() + " (libtorch, version from build-version)"),
            std::string::npos)
      << text.out;
}

TEST(AuditTorch, PathsThatAreNoInstallAreInputErrors) {
  TORCHABI_REQUIRE_STANDINS();
  const std::string empty = make_temp_dir();
  const std::string missing = empty + "/nope";
  std::vector<std::string> bad = {missing, empty, standin_ext()};
  std::vector<std::string> args = {"audit", "--format", "json"};
  for (const auto& b : bad) args.insert(args.end(), {"--torch", b});
  args.insert(args.end(), {"--torch", standin_v1(), standin_ext()});
  auto r = run_torchabi(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), int(bad.size())) << r.err;
  for (const auto& b : bad) EXPECT_NE(r.err.find("torchabi: error: " + b + ": "), std::string::npos) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["errors"].size(), bad.size());
  // The library is still resolved against the install that is one.
  ASSERT_EQ(j["torches"].size(), 1u);
  auto s = subject(j, standin_ext());
  EXPECT_EQ(s["torch"][standin_v1()]["loads"], true);
}

TEST(AuditTorch, WithoutTorchTheReportIsUnchanged) {
  TORCHABI_REQUIRE_STANDINS();
  auto j = run_torchabi({"audit", "--format", "json", standin_ext()}).json();
  EXPECT_FALSE(j.contains("torches"));
  EXPECT_FALSE(subject(j, standin_ext()).contains("torch"));
}

TEST(AuditTorch, LegacyExtensionOnBookwormAndSid) {
  TORCHABI_REQUIRE_REAL_TORCH();
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed: " << legacy_lib() << " not built";
  const std::string sid = real_torch_libdir();
  const std::string pip = fixture("legacy_ext/liblegacy_ext_pip.so");
  auto r = run_torchabi({"audit", "--format", "json", "--torch", sid, "--torch", kBookwormLibdir, legacy_lib(), pip});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  // Each install's release, as Debian recorded it.
  EXPECT_EQ(j["torches"][0]["version"], upstream(fetched_version("libtorch2")));
  const Shell dpkg = shell("dpkg-query -W -f='${Version}' " + quote(j["torches"][1]["version_source"].get<std::string>().substr(
                                                                  15, j["torches"][1]["version_source"].get<std::string>().find(' ', 15) - 15)));
  EXPECT_EQ(j["torches"][1]["version"], upstream(dpkg.out)) << j["torches"][1];

  // Built against 1.13: it loads there, as dlopen confirms (the real libraries).
  for (const auto& lib : {legacy_lib(), pip}) {
    EXPECT_EQ(subject(j, lib)["torch"][kBookwormLibdir]["loads"], true) << lib;
    const Shell dl = try_dlopen(lib, kBookwormLibdir);
    EXPECT_EQ(dl.exit_code, 0) << dl.out;
  }
  // On 2.14 it does not: Debian's build needs libtorch_cpu.so.1.13 (a name 2.14
  // lacks); pip's needs libtorch_cpu.so (present) but symbols are missing.
  const json deb = subject(j, legacy_lib())["torch"][sid];
  const json pipe = subject(j, pip)["torch"][sid];
  EXPECT_EQ(deb["loads"], false);
  EXPECT_EQ(pipe["loads"], false);
  EXPECT_FALSE(missing_libraries(deb).empty());
  for (const auto& n : missing_libraries(deb)) EXPECT_NE(n.find(".so.1.13"), std::string::npos) << n;
  EXPECT_TRUE(missing_libraries(pipe).empty());
  const std::set<std::string> missing = missing_symbols(pipe);
  ASSERT_FALSE(missing.empty());
  EXPECT_EQ(missing_symbols(deb), missing);  // what the rename would leave
  for (const auto& m : pipe["missing_symbols"]) EXPECT_EQ(m["group"], "unstable-c++") << m;

  // The dynamic linker over 2.14's export tables (stubs: same names and exports).
  const std::string stubs = sid_stubs();
  for (const auto& lib : {legacy_lib(), pip}) {
    EXPECT_EQ(ldd_undefined(lib, stubs), missing) << lib;
    const Shell dl = try_dlopen(lib, stubs);
    EXPECT_NE(dl.exit_code, 0);
    const std::string named = undefined_in(dl.out);
    EXPECT_TRUE(missing.count(named)) << "dlopen says: " << dl.out;
  }
}

TEST(AuditTorch, StableExtensionsOnBookwormAndSid) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string sid = real_torch_libdir();
  auto r = run_torchabi({"audit", "--format", "json", "--torch", sid, "--torch", kBookwormLibdir, stable_lib(),
                         stable_212_lib()});
  auto j = r.json();
  const std::string bookworm_cpu = kBookwormLibdir + "/libtorch_cpu.so";
  const std::string stubs = sid_stubs();
  for (const auto& lib : {stable_lib(), stable_212_lib()}) {
    auto s = subject(j, lib);
    EXPECT_EQ(s["verdict"], "STABLE");
    // Loads on 2.14, not on 1.13 (no stable C shim there); the rules say the same.
    EXPECT_EQ(s["torch"][sid]["loads"], true) << s["torch"][sid];
    EXPECT_EQ(s["torch"][sid]["agrees_with_rules"], true);
    EXPECT_EQ(s["torch"][kBookwormLibdir]["loads"], false);
    EXPECT_EQ(s["torch"][kBookwormLibdir]["agrees_with_rules"], true);
    EXPECT_EQ(s["torch"][kBookwormLibdir]["assumed_global"], true);  // they link no libtorch
    EXPECT_TRUE(s["loads_on"].get<std::string>().starts_with("loads on torch ")) << s["loads_on"];
    // The dynamic linker, with torch loaded globally (preloaded) as assumed.
    if (fs::exists(bookworm_cpu)) {
      EXPECT_EQ(ldd_undefined(lib, "", bookworm_cpu), missing_symbols(s["torch"][kBookwormLibdir])) << lib;
    }
    EXPECT_TRUE(ldd_undefined(lib, stubs, stubs + "/libtorch_cpu.so").empty()) << lib;
  }
  EXPECT_TRUE(findings_of(j, "binary-rules-disagree-with-torch").empty());
}

TEST(AuditTorch, DebianPythonPackageIsTheSameInstall) {
  TORCHABI_REQUIRE_REAL_TORCH();
  if (!have_legacy()) GTEST_SKIP() << "libtorch-dev not installed";
  // dist-packages/torch: version.py, and lib/ symlinks to the shared libraries.
  const std::string pkg = real_torch_root().value() + "/usr/lib/python3/dist-packages/torch";
  const std::string sid = real_torch_libdir();
  auto j = run_torchabi({"audit", "--format", "json", "--torch", pkg, "--torch", sid, legacy_lib()}).json();
  EXPECT_EQ(j["torches"][0]["kind"], "python-package");
  EXPECT_EQ(j["torches"][0]["version_source"], "torch/version.py");
  auto s = subject(j, legacy_lib());
  EXPECT_EQ(missing_symbols(s["torch"][pkg]), missing_symbols(s["torch"][sid]));
  EXPECT_EQ(missing_libraries(s["torch"][pkg]), missing_libraries(s["torch"][sid]));
}
