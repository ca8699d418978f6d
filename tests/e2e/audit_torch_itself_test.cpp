// PyTorch's own distribution is one line in every input mode: a
// site-packages directory, torch/lib, `check DIR`, a wheel of torch. The
// environment is generated here: tiny libraries, each importing one of
// PyTorch's unstable C++ functions (so that auditing one as an extension
// would be an error), laid out and named as a pip install of torch lays
// its files out, with a RECORD; and an extension beside it.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "standins.h"

namespace torchabi::e2e::audit {
namespace {

namespace fs = std::filesystem;

// c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)
constexpr const char* kUnstable = "_ZN3c106detail14torchCheckFailEPKcS2_jS2_";

// A shared library importing kUnstable, compiled from C.
bool build_lib(const std::string& dir, const std::string& rel) {
  const std::string src = write_file(dir, "unstable.c",
                                     std::string("extern void ") + kUnstable + "(void);\nvoid f(void) { " +
                                         kUnstable + "(); }\n");
  fs::create_directories(fs::path(dir + "/" + rel).parent_path());
  const std::string cmd = "cc -shared -fPIC -o '" + dir + "/" + rel + "' '" + src + "' 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

struct FakeSite {
  std::string site;
  bool ok = false;
};

// site-packages with torch 2.14.1+cu126 (RECORD, torch/lib with PyTorch's
// libraries and a bundled CUDA runtime, torch/_C, functorch/_C listed in
// torch's RECORD) and one extension, legacy_like, that is not PyTorch's.
FakeSite fake_site() {
  FakeSite s;
  s.site = make_temp_dir() + "/lib/python3.12/site-packages";
  fs::create_directories(s.site);
  const std::vector<std::string> torch_files = {
      "torch/lib/libtorch_cpu.so", "torch/lib/libtorch_python.so", "torch/lib/libshm.so", "torch/lib/libc10.so",
      "torch/lib/libcudart-a1b2c3.so.12", "torch/_C.cpython-312-x86_64-linux-gnu.so",
      "functorch/_C.cpython-312-x86_64-linux-gnu.so"};
  std::string record;
  for (const auto& f : torch_files) {
    if (!build_lib(s.site, f)) return s;
    record += f + ",sha256=x,1\n";
  }
  write_file(s.site, "torch/__init__.py", "");
  write_file(s.site, "torch/version.py", "__version__ = '2.14.1+cu126'\n");
  record += "torch/__init__.py,,\ntorch/version.py,,\n";
  const std::string info = s.site + "/torch-2.14.1+cu126.dist-info";
  fs::create_directories(info);
  write_file(info, "METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.14.1+cu126\n");
  write_file(info, "RECORD", record);
  // An extension: audited, and its unstable import reported.
  s.ok = build_lib(s.site, "legacy_like/_C.cpython-312-x86_64-linux-gnu.so");
  return s;
}

bool mentions_torch_lib(const nlohmann::json& j) {
  for (const auto& f : j["findings"]) {
    const std::string file = f["location"]["file"].get<std::string>();
    if (file.find("/torch/") != std::string::npos || file.find("/functorch/") != std::string::npos) return true;
  }
  return false;
}

TEST(AuditTorchItself, SitePackagesListsTorchAsOneLine) {
  const FakeSite s = fake_site();
  if (!s.ok) GTEST_SKIP() << "no C compiler (cc) to build the fake torch";
  auto r = run_torchabi({"audit", "--format", "json", s.site});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;  // the extension's unstable import
  const auto j = r.json();
  EXPECT_FALSE(mentions_torch_lib(j)) << r.out;
  const auto torch = subject(j, s.site + "/torch");
  EXPECT_EQ(torch["loads_on"], "PyTorch 2.14.1 itself: not an extension") << torch.dump();
  EXPECT_EQ(torch["facts"]["not audited"], "7 libraries of PyTorch's own (what extensions load on)");
  EXPECT_EQ(torch["facts"]["recognised by"], s.site + "/torch-2.14.1+cu126.dist-info");
  // The extension is still audited.
  const auto ext = subject(j, s.site + "/legacy_like/_C.cpython-312-x86_64-linux-gnu.so");
  EXPECT_EQ(ext["verdict"], "UNSTABLE");
  EXPECT_EQ(j["subjects"].size(), 2u) << r.out;

  auto text = run_torchabi({"audit", s.site});
  EXPECT_NE(text.out.find(s.site + "/torch: PyTorch 2.14.1 itself: not an extension\n"), std::string::npos) << text.out;
}

TEST(AuditTorchItself, TorchLibDirectoryAndCheckToo) {
  const FakeSite s = fake_site();
  if (!s.ok) GTEST_SKIP() << "no C compiler (cc) to build the fake torch";
  auto r = run_torchabi({"audit", "--format", "json", s.site + "/torch/lib"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u) << r.out;
  EXPECT_EQ(j["subjects"][0]["facts"]["not audited"], "5 libraries of PyTorch's own (what extensions load on)");
  EXPECT_TRUE(j["findings"].empty()) << r.out;

  auto c = run_torchabi({"check", "--format", "json", s.site});
  const auto cj = c.json();
  EXPECT_FALSE(mentions_torch_lib(cj)) << c.out;
  EXPECT_EQ(subject(cj, s.site + "/torch")["loads_on"], "PyTorch 2.14.1 itself: not an extension");
}

TEST(AuditTorchItself, NamedExplicitlyItIsAuditedAndSaysWhatItIs) {
  const FakeSite s = fake_site();
  if (!s.ok) GTEST_SKIP() << "no C compiler (cc) to build the fake torch";
  const std::string lib = s.site + "/torch/lib/libtorch_cpu.so";
  auto r = run_torchabi({"audit", "--format", "json", lib});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = r.json();
  EXPECT_EQ(findings_of(j, "binary-unstable-import").size(), 1u) << r.out;
  const auto note = findings_of(j, "binary-torch-itself");
  ASSERT_EQ(note.size(), 1u) << r.out;
  EXPECT_EQ(note[0]["message"],
            "this library is part of PyTorch 2.14.1+cu126 itself (" + s.site + "/torch), not an extension");
  // An extension named explicitly gets no such note.
  auto e = run_torchabi({"audit", "--format", "json", s.site + "/legacy_like/_C.cpython-312-x86_64-linux-gnu.so"});
  EXPECT_TRUE(findings_of(e.json(), "binary-torch-itself").empty()) << e.out;
}

TEST(AuditTorchItself, TorchPackageWithoutMetadataIsRecognisedByItsLayout) {
  const FakeSite s = fake_site();
  if (!s.ok) GTEST_SKIP() << "no C compiler (cc) to build the fake torch";
  fs::remove_all(s.site + "/torch-2.14.1+cu126.dist-info");
  auto r = run_torchabi({"audit", "--format", "json", s.site});
  const auto j = r.json();
  const auto torch = subject(j, s.site + "/torch");
  EXPECT_EQ(torch["loads_on"], "PyTorch 2.14.1 itself: not an extension");
  EXPECT_EQ(torch["facts"]["recognised by"], s.site + "/torch/version.py");
  // Without RECORD nothing says functorch is torch's: it is audited.
  EXPECT_FALSE(findings_of(j, "binary-unstable-import").empty());
  // A directory named torch without the package's layout is not torch.
  fs::remove(s.site + "/torch/version.py");
  auto plain = run_torchabi({"audit", "--format", "json", s.site + "/torch/lib"});
  EXPECT_EQ(findings_of(plain.json(), "binary-unstable-import").size(), 5u) << plain.out;
}

// A conda environment: libtorch's libraries live in $PREFIX/lib, beside every
// other package's; conda-meta/libtorch-*.json says which files are its.
TEST(AuditTorchItself, CondaEnvironmentLibtorchByCondaMeta) {
  const std::string prefix = make_temp_dir();
  fs::create_directories(prefix + "/conda-meta");
  if (!build_lib(prefix, "lib/libtorch_cpu.so") || !build_lib(prefix, "lib/libc10.so") ||
      !build_lib(prefix, "lib/libmyext.so"))
    GTEST_SKIP() << "no C compiler (cc)";
  write_file(prefix + "/conda-meta", "libtorch-2.14.1-cpu_generic_h1234_0.json",
             R"({"name": "libtorch", "version": "2.14.1", "files": ["lib/libtorch_cpu.so", "lib/libc10.so"]})");
  write_file(prefix + "/conda-meta", "pytorch-cpu-2.14.1-cpu_0.json",
             R"({"name": "pytorch-cpu", "version": "2.14.1", "files": []})");
  auto r = run_torchabi({"audit", "--format", "json", prefix + "/lib"});
  const auto j = r.json();
  const auto torch = subject(j, prefix);
  EXPECT_EQ(torch["loads_on"], "PyTorch 2.14.1 itself: not an extension") << r.out;
  EXPECT_EQ(torch["facts"]["not audited"], "2 libraries of PyTorch's own (what extensions load on)");
  EXPECT_EQ(torch["facts"]["recognised by"], prefix + "/conda-meta/libtorch-2.14.1-cpu_generic_h1234_0.json");
  // The other library of $PREFIX/lib is audited.
  EXPECT_EQ(subject(j, prefix + "/lib/libmyext.so")["verdict"], "UNSTABLE");
  EXPECT_FALSE(mentions_torch_lib(j));
  for (const auto& f : j["findings"]) EXPECT_EQ(f["location"]["file"], prefix + "/lib/libmyext.so") << r.out;
}

TEST(AuditTorchItself, CondaPackageOfPytorchIsOneLine) {
  const std::string tool = build_dir() + "/fixtures/conda/torchabi_make_conda";
  const std::string lib = build_dir() + "/fixtures/legacy_ext/liblegacy_ext.so";
  if (!fs::exists(tool) || !fs::exists(lib)) GTEST_SKIP() << "fixtures not built";
  const std::string dir = make_temp_dir();
  const std::string pkg = dir + "/pytorch-2.14.1-py311_0.conda";
  const std::string cmd = "'" + tool + "' --out '" + pkg + "' --name pytorch --version 2.14.1 --build py311_0 "
                          "lib/python3.11/site-packages/torch/lib/libtorch_python.so='" + lib + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto r = run_torchabi({"audit", "--format", "json", pkg});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u) << r.out;
  EXPECT_EQ(j["subjects"][0]["loads_on"], "PyTorch 2.14.1 itself: not an extension");
  EXPECT_TRUE(j["findings"].empty()) << r.out;
}

TEST(AuditTorchItself, WheelOfTorchIsOneLine) {
  const std::string whl = torchabi::test::standin_wheel();
  if (whl.empty() || !fs::exists(whl)) GTEST_SKIP() << "the stand-in torch wheel is not built";
  auto r = run_torchabi({"audit", "--format", "json", whl});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  ASSERT_EQ(j["subjects"].size(), 1u) << r.out;
  EXPECT_EQ(j["subjects"][0]["kind"], "wheel");
  EXPECT_EQ(j["subjects"][0]["loads_on"].get<std::string>().find("PyTorch 9.1.0 itself: not an extension"), 0u)
      << r.out;
  EXPECT_TRUE(j["findings"].empty()) << r.out;
}

}  // namespace
}  // namespace torchabi::e2e::audit
