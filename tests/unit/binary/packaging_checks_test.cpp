// The CPython ABI and platform-tag checks on hand-made scans: each promise
// kept (no finding) and broken (its finding), exactly.
#include <gtest/gtest.h>

#include "analyzers/binary/cpython_abi_check.h"
#include "analyzers/binary/library_scan.h"
#include "analyzers/binary/platform_tag_check.h"
#include "inputs/python/wheel_tags.h"

using namespace torchabi;
using namespace torchabi::binary;
using Kind = PythonAbiClaim::Kind;

namespace {

LibraryScan elf_module(std::vector<std::string> python_imports) {
  LibraryScan s;
  s.machine = "x86-64";
  s.python_imports = std::move(python_imports);
  return s;
}

std::vector<std::string> rules_of(const findings::Report& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.rule);
  return out;
}

findings::Report run_abi(const LibraryScan& scan, std::string_view member, const PythonAbiClaim& wheel,
                         std::string* fact = nullptr) {
  findings::Report r;
  findings::Subject subject;
  check_cpython_abi(scan, member, wheel, {}, subject, r);
  for (const auto& [k, v] : subject.facts)
    if (k == "CPython ABI" && fact) *fact = v;
  return r;
}

PythonAbiClaim wheel_claim(const char* name) { return claim_from_wheel_tags(inputs::tags_from_wheel_filename(name)); }

}  // namespace

TEST(PythonAbiClaim, FromModuleNames) {
  EXPECT_EQ(claim_from_module_name("pkg/_C.abi3.so").kind, Kind::Abi3);
  const auto c = claim_from_module_name("pkg/_C.cpython-311-x86_64-linux-gnu.so");
  EXPECT_EQ(c.kind, Kind::VersionSpecific);
  EXPECT_EQ(c.cpython, "3.11");
  EXPECT_EQ(claim_from_module_name("_C.cp312-win_amd64.pyd").cpython, "3.12");
  EXPECT_EQ(claim_from_module_name("_C.pyd").kind, Kind::None);
  EXPECT_EQ(claim_from_module_name("libstable_ext.so").kind, Kind::None);
}

TEST(PythonAbiClaim, FromWheelTags) {
  auto c = wheel_claim("x-1.0-cp310.cp39-abi3-manylinux_2_17_x86_64.whl");
  EXPECT_EQ(c.kind, Kind::Abi3);
  ASSERT_TRUE(c.min);
  EXPECT_EQ(*c.min, (inputs::PythonVersion{3, 9}));  // the oldest python tag is the promise
  c = wheel_claim("x-1.0-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(c.kind, Kind::VersionSpecific);
  EXPECT_EQ(wheel_claim("x-1.0-py3-none-any.whl").kind, Kind::None);
}

TEST(CPythonAbiCheck, HonestAbi3ModuleIsClean) {
  std::string fact;
  auto r = run_abi(elf_module({"PyLong_FromLong", "PyModule_Create2"}), "_C.abi3.so",
                   wheel_claim("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl"), &fact);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_NE(fact.find("abi3 (CPython >= 3.9"), std::string::npos) << fact;
  EXPECT_NE(fact.find("all in the stable ABI of CPython >= 3.2"), std::string::npos) << fact;
}

TEST(CPythonAbiCheck, NonLimitedImportFires) {
  auto r = run_abi(elf_module({"PyLong_FromLong", "PyUnicode_AsUTF8"}), "_C.abi3.so", {});
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-abi3-non-limited-api"});
  EXPECT_NE(r.findings[0].message.find("PyUnicode_AsUTF8"), std::string::npos);
  EXPECT_NE(r.findings[0].message.find("the file name _C.abi3.so"), std::string::npos) << r.findings[0].message;
}

TEST(CPythonAbiCheck, NewerThanTheTagFiresOnlyBelowTheRelease) {
  const LibraryScan m = elf_module({"PyModule_AddType", "PyModule_Create2"});
  auto r = run_abi(m, "_C.abi3.so", wheel_claim("x-1.0-cp39-abi3-win_amd64.whl"));
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-abi3-newer-than-tag"});
  EXPECT_NE(r.findings[0].message.find("PyModule_AddType (3.10)"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].help.find("cp310-abi3"), std::string::npos) << r.findings[0].help;
  EXPECT_NE(r.findings[0].help.find("0x03090000"), std::string::npos) << r.findings[0].help;
  EXPECT_TRUE(run_abi(m, "_C.abi3.so", wheel_claim("x-1.0-cp310-abi3-win_amd64.whl")).findings.empty());
}

TEST(CPythonAbiCheck, UncertainReleasesDoNotFire) {
  // _Py_Dealloc is listed from the oldest list on but undocumented: 3.2..3.11.
  EXPECT_TRUE(run_abi(elf_module({"_Py_Dealloc"}), "_C.abi3.so", wheel_claim("x-1.0-cp38-abi3-win_amd64.whl")).findings.empty());
}

TEST(CPythonAbiCheck, VersionSpecificNameInAnAbi3Wheel) {
  auto r = run_abi(elf_module({"PyLong_FromLong"}), "pkg/_C.cpython-311-x86_64-linux-gnu.so",
                   wheel_claim("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl"));
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-abi3-non-limited-api"});
  EXPECT_NE(r.findings[0].message.find("CPython 3.11 only"), std::string::npos);
}

TEST(CPythonAbiCheck, WindowsVersionSpecificDll) {
  LibraryScan pe = elf_module({"PyLong_FromLong"});
  pe.format = "PE/COFF";
  pe.needed = {"python311.dll"};
  auto r = run_abi(pe, "_C.pyd", wheel_claim("x-1.0-cp39-abi3-win_amd64.whl"));
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-abi3-non-limited-api"});
  EXPECT_NE(r.findings[0].message.find("python311.dll"), std::string::npos);
  pe.needed = {"python3.dll"};
  EXPECT_TRUE(run_abi(pe, "_C.pyd", wheel_claim("x-1.0-cp39-abi3-win_amd64.whl")).findings.empty());
}

TEST(CPythonAbiCheck, VersionSpecificModulesAreOnlyDescribed) {
  std::string fact;
  auto r = run_abi(elf_module({"PyUnicode_AsUTF8"}), "_C.cpython-311-x86_64-linux-gnu.so", {}, &fact);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_NE(fact.find("CPython 3.11 only"), std::string::npos) << fact;
  EXPECT_NE(fact.find("1 outside the stable ABI"), std::string::npos) << fact;
  fact.clear();
  run_abi(elf_module({}), "libtorch_ext.so", {}, &fact);
  EXPECT_EQ(fact, "");  // no C API, no claim: nothing to say
}

namespace {

findings::Report run_tags(const LibraryScan& scan, const char* wheel) {
  findings::Report r;
  check_platform_tags(scan, inputs::tags_from_wheel_filename(wheel).platforms, {}, r);
  return r;
}

LibraryScan needing(std::vector<binary::NeededVersion> versions) {
  LibraryScan s = elf_module({});
  s.needed_versions = std::move(versions);
  return s;
}

}  // namespace

TEST(PlatformTagCheck, GlibcWithinThePolicyIsClean) {
  const LibraryScan s = needing({{"libc.so.6", "GLIBC_2.17"}, {"libstdc++.so.6", "GLIBCXX_3.4.19"}, {"libstdc++.so.6", "CXXABI_TM_1"}});
  EXPECT_TRUE(run_tags(s, "x-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl").findings.empty());
}

TEST(PlatformTagCheck, NewerGlibcOrLibstdcxxFires) {
  const LibraryScan s = needing({{"libc.so.6", "GLIBC_2.34"}, {"libstdc++.so.6", "GLIBCXX_3.4.29"}});
  auto r = run_tags(s, "x-1.0-cp311-cp311-manylinux2014_x86_64.whl");
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-glibc-newer-than-tag"});
  EXPECT_NE(r.findings[0].message.find("GLIBC_2.34 (libc.so.6)"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("GLIBCXX_3.4.29"), std::string::npos);
  EXPECT_NE(r.findings[0].message.find("at most GLIBC_2.17"), std::string::npos) << r.findings[0].message;
  EXPECT_TRUE(run_tags(s, "x-1.0-cp311-cp311-manylinux_2_34_x86_64.whl").findings.empty());
}

TEST(PlatformTagCheck, PoliciesNewerThanTheDataStillCheckGlibc) {
  const LibraryScan s = needing({{"libc.so.6", "GLIBC_2.60"}, {"libstdc++.so.6", "GLIBCXX_3.4.99"}});
  auto r = run_tags(s, "x-1.0-cp311-cp311-manylinux_2_55_x86_64.whl");
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-glibc-newer-than-tag"});
  EXPECT_EQ(r.findings[0].notes, std::vector<std::string>{"needs GLIBC_2.60 (libc.so.6)"});
}

TEST(PlatformTagCheck, MusllinuxRejectsGlibcOnly) {
  EXPECT_EQ(rules_of(run_tags(needing({{"libc.so.6", "GLIBC_2.2.5"}}), "x-1.0-cp311-cp311-musllinux_1_2_x86_64.whl")),
            std::vector<std::string>{"binary-glibc-newer-than-tag"});
  EXPECT_TRUE(run_tags(needing({{"libstdc++.so.6", "GLIBCXX_3.4.30"}}), "x-1.0-cp311-cp311-musllinux_1_2_x86_64.whl")
                  .findings.empty());
}

TEST(PlatformTagCheck, ArchitectureAndFormat) {
  EXPECT_EQ(rules_of(run_tags(elf_module({}), "x-1.0-cp311-cp311-manylinux_2_17_aarch64.whl")),
            std::vector<std::string>{"binary-arch-not-in-tag"});
  EXPECT_EQ(rules_of(run_tags(elf_module({}), "x-1.0-cp311-cp311-win_amd64.whl")),
            std::vector<std::string>{"binary-arch-not-in-tag"});
  auto any = run_tags(elf_module({}), "x-1.0-py3-none-any.whl");
  ASSERT_EQ(rules_of(any), std::vector<std::string>{"binary-arch-not-in-tag"});
  EXPECT_NE(any.findings[0].message.find("tagged 'any'"), std::string::npos);
  EXPECT_TRUE(run_tags(elf_module({}), "x-1.0-cp311-cp311-linux_x86_64.whl").findings.empty());
}

TEST(PlatformTagCheck, MacosDeploymentTarget) {
  LibraryScan mac;
  mac.format = "Mach-O";
  mac.machine = "arm64";
  mac.min_os = "14.0";
  auto r = run_tags(mac, "x-1.0-cp311-cp311-macosx_11_0_arm64.whl");
  ASSERT_EQ(rules_of(r), std::vector<std::string>{"binary-macos-newer-than-tag"});
  EXPECT_NE(r.findings[0].help.find("macosx_14_0_arm64"), std::string::npos) << r.findings[0].help;
  EXPECT_TRUE(run_tags(mac, "x-1.0-cp311-cp311-macosx_14_0_arm64.whl").findings.empty());
  mac.min_os = "11.3";  // pip only matches macosx_N_0 from 11 on
  EXPECT_NE(run_tags(mac, "x-1.0-cp311-cp311-macosx_11_0_arm64.whl").findings.at(0).help.find("macosx_12_0_arm64"),
            std::string::npos);
  mac.min_os = "10.9";
  mac.machine = "x86-64";
  EXPECT_TRUE(run_tags(mac, "x-1.0-cp311-cp311-macosx_10_9_universal2.whl").findings.empty());
}
