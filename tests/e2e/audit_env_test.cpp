// `audit --env [PYTHON]` and `audit NAME`: a Python environment's
// distributions, grouped from their RECORD (or, as Debian ships them,
// their top-level packages). The environment is a site-packages tree of
// fixture libraries, and the "interpreter" a script that answers the query
// the way Python would: its version, then its site-packages directories.
#include <filesystem>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "standins.h"

namespace torchabi::e2e::audit {
namespace {

namespace fs = std::filesystem;

// A CPython module that imports nothing from PyTorch (fixtures/python_ext).
std::string no_torch_lib() { return fixture("python_ext/pymod_honest.abi3.so"); }

struct FakeEnv {
  std::string python;
  std::string site;
};

void install(const std::string& site, const std::string& dist, const std::string& version,
             const std::vector<std::pair<std::string, std::string>>& files, bool record = true) {
  const std::string info = site + "/" + dist + "-" + version + ".dist-info";
  fs::create_directories(info);
  write_file(info, "METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n");
  std::string rec;
  for (const auto& [rel, src] : files) {
    fs::create_directories(fs::path(site + "/" + rel).parent_path());
    if (src.empty()) write_file(site, rel, "");
    else fs::copy_file(src, site + "/" + rel, fs::copy_options::overwrite_existing);
    rec += rel + ",sha256=x,1\n";
  }
  if (record) write_file(info, "RECORD", rec + dist + "-" + version + ".dist-info/RECORD,,\n");
}

FakeEnv fake_env() {
  FakeEnv e;
  const std::string dir = make_temp_dir();
  e.site = dir + "/lib/python3.12/site-packages";
  fs::create_directories(e.site);
  install(e.site, "stable_ext", "1.0", {{"stable_ext/_C.cpython-312-x86_64-linux-gnu.so", stable_lib()},
                                        {"stable_ext/__init__.py", ""}});
  if (have_legacy())
    install(e.site, "legacy_ext", "0.3", {{"legacy_ext/_C.cpython-312-x86_64-linux-gnu.so", legacy_lib()}});
  // Libraries that import nothing from PyTorch: one entry for the distribution.
  if (fs::exists(no_torch_lib())) install(e.site, "plain", "2.0", {{"plain/_a.abi3.so", no_torch_lib()}});
  // PyTorch as Debian ships it: no RECORD, the package directory only.
  install(e.site, "torch", "2.14.1", {{"torch/_C.cpython-312-x86_64-linux-gnu.so", legacy_lib()}}, /*record=*/false);
  e.python = write_file(dir, "python", "#!/bin/sh\necho 3.12.4\necho " + e.site + "\n");
  fs::permissions(e.python, fs::perms::owner_exec, fs::perm_options::add);
  return e;
}

const nlohmann::json* by_path(const nlohmann::json& j, const std::string& path) {
  for (const auto& s : j["subjects"])
    if (s["path"] == path) return &s;
  return nullptr;
}

TEST(AuditEnv, EveryDistributionWithLibrariesGroupedFromItsRecord) {
  const FakeEnv e = fake_env();
  auto r = run_torchabi({"audit", "--format", "json", "--env=" + e.python});
  ASSERT_EQ(r.exit_code, have_legacy() ? 1 : 0) << r.err << r.out;
  const auto j = r.json();
  const auto* env = by_path(j, e.python);
  ASSERT_NE(env, nullptr) << r.out;
  EXPECT_EQ((*env)["kind"], "environment");
  EXPECT_EQ((*env)["facts"]["Python"], "3.12.4");
  EXPECT_EQ((*env)["facts"]["site-packages"], e.site);
  EXPECT_EQ((*env)["facts"]["torch"].get<std::string>().rfind("2.14.1 (", 0), 0u) << (*env)["facts"].dump();

  const auto* stable = by_path(j, "stable_ext 1.0");
  ASSERT_NE(stable, nullptr) << r.out;
  EXPECT_EQ((*stable)["kind"], "distribution");
  EXPECT_EQ((*stable)["verdict"], "STABLE");
  EXPECT_EQ((*stable)["facts"]["files from"], "RECORD");
  EXPECT_NE(by_path(j, e.site + "/stable_ext/_C.cpython-312-x86_64-linux-gnu.so"), nullptr) << "its library follows it";
  if (have_legacy()) {
    EXPECT_EQ((*by_path(j, "legacy_ext 0.3"))["verdict"], "UNSTABLE");
  }
  // NO-TORCH distributions are one entry; torch itself is not audited.
  EXPECT_EQ(by_path(j, "torch 2.14.1"), nullptr);
  if (fs::exists(no_torch_lib())) {
    const auto* plain = by_path(j, "plain 2.0");
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ((*plain)["verdict"], "NO-TORCH");
    EXPECT_EQ((*plain)["facts"]["libraries"], "1");
    EXPECT_EQ(by_path(j, e.site + "/plain/_a.abi3.so"), nullptr);
  }
}

TEST(AuditEnv, ADistributionByName) {
  const FakeEnv e = fake_env();
  // Any spelling of the name (PEP 503), and torch itself when asked by name
  // (read from its top-level package: no RECORD).
  auto r = run_torchabi({"audit", "--format", "json", "--python", e.python, "Stable.Ext", "torch"});
  ASSERT_EQ(r.exit_code, have_legacy() ? 1 : 0) << r.err;
  const auto j = r.json();
  EXPECT_NE(by_path(j, "stable_ext 1.0"), nullptr) << r.out;
  const auto* torch = by_path(j, "torch 2.14.1");
  ASSERT_NE(torch, nullptr) << r.out;
  EXPECT_EQ((*torch)["facts"]["files from"], "its top-level packages");
  EXPECT_EQ(by_path(j, "plain 2.0"), nullptr);
  // Named, torch is audited, and each of its libraries says it is PyTorch's own.
  size_t notes = 0;
  for (const auto& f : j["findings"])
    if (f["rule"] == "binary-torch-itself") {
      ++notes;
      EXPECT_EQ(f["location"]["file"], e.site + "/torch/_C.cpython-312-x86_64-linux-gnu.so");
    }
  EXPECT_EQ(notes, 1u) << r.out;
}

TEST(AuditEnv, WithTorchEachLibraryIsResolved) {
  TORCHABI_REQUIRE_STANDINS();
  const FakeEnv e = fake_env();
  auto r = run_torchabi({"audit", "--format", "json", "--python", e.python, "--torch", torchabi::test::standin_v1(),
                         "stable_ext"});
  const auto j = r.json();
  const auto* lib = by_path(j, e.site + "/stable_ext/_C.cpython-312-x86_64-linux-gnu.so");
  ASSERT_NE(lib, nullptr) << r.out;
  ASSERT_EQ((*lib)["torch"].size(), 1u) << lib->dump();
  EXPECT_TRUE((*lib)["torch"].begin()->contains("loads")) << lib->dump();
}

TEST(AuditEnv, BadInputIsOneLineAndTheRestIsAudited) {
  const FakeEnv e = fake_env();
  auto r = run_torchabi({"audit", "--python", e.python, "no_such_dist", "stable_ext"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no_such_dist: no such file or directory, and no distribution of that name is installed for " +
                       e.python),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("stable_ext 1.0"), std::string::npos) << r.out;

  auto bad = run_torchabi({"audit", "--env=/nonexistent/python3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("/nonexistent/python3: cannot run it as a Python interpreter"), std::string::npos) << bad.err;

  auto none = run_torchabi({"audit"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--env"), std::string::npos) << none.err;
}

TEST(AuditEnv, TheRealInterpreterReadsItsOwnEnvironment) {
  // Debian's python3 on this machine: whatever it has installed, the entry
  // names its version and directories (no fixture needed).
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  auto r = run_torchabi({"audit", "--format", "json", "--env=/usr/bin/python3"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = r.json();
  const auto* env = by_path(j, "/usr/bin/python3");
  ASSERT_NE(env, nullptr) << r.out;
  EXPECT_EQ((*env)["facts"]["Python"].get<std::string>().rfind("3.", 0), 0u);
  EXPECT_NE((*env)["facts"]["site-packages"].get<std::string>().find("dist-packages"), std::string::npos);
}

}  // namespace
}  // namespace torchabi::e2e::audit
