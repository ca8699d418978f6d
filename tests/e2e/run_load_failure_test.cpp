// `torchabi run` names why an extension does not load, from ELF facts: a C
// runtime version this machine lacks, a missing library that is not
// PyTorch's, an import of Python's C API; and `run --root` refuses a root it
// cannot use in one line. The libraries are built here with cc (tiny C
// files), then damaged the way real builds fail: a dependency removed, a
// dependency replaced by an older one, a version name the machine's libc
// does not define.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "audit_fixtures.h"
#include "standins.h"

namespace torchabi::e2e::audit {
namespace {

namespace fs = std::filesystem;

bool sh(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()) == 0; }

std::vector<nlohmann::json> load_findings(const nlohmann::json& j) {
  std::vector<nlohmann::json> out;
  for (const auto& f : j["findings"]) {
    const std::string r = f["rule"];
    if (r == "runtime-c-runtime-too-old" || r == "runtime-missing-library" || r == "runtime-unresolved-symbol" ||
        r == "runtime-load-failed")
      out.push_back(f);
  }
  return out;
}

// ext.so calls printf (GLIBC_2.2.5 of libc.so.6); the copy asks for GLIBC_9.9.9 instead.
struct TooNewLibc {
  std::string good, bad;
};
TooNewLibc too_new_libc(const std::string& dir) {
  write_file(dir, "p.c", "#include <stdio.h>\nvoid hello(void) { printf(\"hi %d\\n\", 1); }\n");
  if (!sh("cc -shared -fPIC -o '" + dir + "/good.so' '" + dir + "/p.c'")) return {};
  const std::string bytes = read_all(dir + "/good.so");
  const size_t at = bytes.find("GLIBC_2.2.5");
  if (at == std::string::npos) return {};
  return {dir + "/good.so", patched_copy(dir + "/good.so", dir, "bad.so", at, "GLIBC_9.9.9")};
}

TEST(RunLoadFailure, CRuntimeTooOldNamesWhatIsNeededAndWhatTheMachineHas) {
  const std::string dir = make_temp_dir();
  const TooNewLibc l = too_new_libc(dir);
  if (l.bad.empty()) GTEST_SKIP() << "no cc, or its library needs no GLIBC_2.2.5";
  auto r = run_torchabi({"run", "--format", "json", l.bad});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto fs_ = load_findings(r.json());
  ASSERT_EQ(fs_.size(), 1u) << r.out;
  EXPECT_EQ(fs_[0]["rule"], "runtime-c-runtime-too-old");
  const std::string msg = fs_[0]["message"];
  EXPECT_EQ(msg.find("the extension needs a newer C/C++ runtime than this machine's: GLIBC_9.9.9 of libc.so.6; "
                     "this machine's "),
            0u)
      << msg;
  EXPECT_NE(msg.find(" goes up to GLIBC_2."), std::string::npos) << msg;
  EXPECT_EQ(fs_[0]["help"].get<std::string>().find("build the extension against the stable ABI"), std::string::npos);
  // The loader's own words are kept as a note.
  EXPECT_NE(fs_[0]["notes"].dump().find("GLIBC_9.9.9"), std::string::npos);

  // The same library unpatched loads: no load finding.
  auto ok = run_torchabi({"run", "--format", "json", l.good});
  EXPECT_TRUE(load_findings(ok.json()).empty()) << ok.out;
}

TEST(RunLoadFailure, OlderDependencyThanTheOneLinkedNamesItsVersions) {
  const std::string dir = make_temp_dir();
  // libver.so.1 defines VER_1.0 and VER_2.0; ext.so needs VER_2.0 and finds it through $ORIGIN.
  write_file(dir, "v2.map", "VER_1.0 { global: one; local: *; };\nVER_2.0 { global: two; } VER_1.0;\n");
  write_file(dir, "v1.map", "VER_1.0 { global: one; local: *; };\n");
  write_file(dir, "v.c", "int one(void) { return 1; }\nint two(void) { return 2; }\n");
  write_file(dir, "v1.c", "int one(void) { return 1; }\n");
  write_file(dir, "ext.c", "int two(void);\nint call(void) { return two(); }\n");
  if (!sh("cd '" + dir + "' && cc -shared -fPIC -Wl,-soname,libver.so.1 -Wl,--version-script=v2.map -o libver.so.1 v.c"
          " && cc -shared -fPIC -o ext.so ext.c ./libver.so.1 -Wl,-rpath,'$ORIGIN'"))
    GTEST_SKIP() << "no cc";
  auto ok = run_torchabi({"run", "--format", "json", dir + "/ext.so"});
  EXPECT_TRUE(load_findings(ok.json()).empty()) << ok.out;
  // An older libver.so.1, without VER_2.0.
  ASSERT_TRUE(sh("cd '" + dir + "' && cc -shared -fPIC -Wl,-soname,libver.so.1 -Wl,--version-script=v1.map -o "
                 "libver.so.1 v1.c"));
  auto r = run_torchabi({"run", "--format", "json", dir + "/ext.so"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto f = load_findings(r.json());
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["rule"], "runtime-c-runtime-too-old");
  EXPECT_EQ(f[0]["message"], "the extension needs a newer libver.so.1 than this machine's: VER_2.0 of libver.so.1; "
                             "this machine's " + dir + "/libver.so.1 goes up to VER_1.0");
}

TEST(RunLoadFailure, MissingLibraryThatIsNotPyTorchs) {
  const std::string dir = make_temp_dir();
  write_file(dir, "dep.c", "int dep(void) { return 1; }\n");
  write_file(dir, "ext.c", "int dep(void);\nint call(void) { return dep(); }\n");
  if (!sh("cd '" + dir + "' && cc -shared -fPIC -Wl,-soname,libtorchabi_gone.so.7 -o libtorchabi_gone.so.7 dep.c"
          " && cc -shared -fPIC -o ext.so ext.c ./libtorchabi_gone.so.7 -Wl,-rpath,'$ORIGIN'"))
    GTEST_SKIP() << "no cc";
  // A DT_NEEDED of libtorchabi_gone.so.7 that is not beside it any more.
  fs::remove(dir + "/libtorchabi_gone.so.7");
  auto r = run_torchabi({"run", "--format", "json", dir + "/ext.so"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto f = load_findings(r.json());
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["rule"], "runtime-missing-library");
  EXPECT_EQ(f[0]["message"].get<std::string>().find("the extension needs libtorchabi_gone.so.7, which this machine "
                                                    "does not have"),
            0u)
      << f[0].dump();
}

TEST(RunLoadFailure, PreloadSatisfiesADependencyByItsSoname) {
  // As torchcodec ships it: the extension needs libtorchabi_core.so (a soname),
  // the file is libtorchabi_core.cpython-314.so, and the package's Python loads it first.
  const std::string dir = make_temp_dir();
  write_file(dir, "core.c", "int core(void) { return 1; }\n");
  write_file(dir, "ext.c", "int core(void);\nint call(void) { return core(); }\n");
  if (!sh("cd '" + dir + "' && cc -shared -fPIC -Wl,-soname,libtorchabi_core.so -o libtorchabi_core.cpython-314.so "
          "core.c && cc -shared -fPIC -o ext.so ext.c ./libtorchabi_core.cpython-314.so -Wl,-rpath,'$ORIGIN'"))
    GTEST_SKIP() << "no cc";
  auto alone = run_torchabi({"run", "--format", "json", dir + "/ext.so"});
  ASSERT_EQ(load_findings(alone.json()).size(), 1u) << alone.out;
  EXPECT_EQ(load_findings(alone.json())[0]["rule"], "runtime-missing-library");
  auto r = run_torchabi({"run", "--format", "json", "--preload", dir + "/libtorchabi_core.cpython-314.so",
                         dir + "/ext.so"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(load_findings(r.json()).empty()) << r.out;
  auto missing = run_torchabi({"run", "--preload", dir + "/nope.so", dir + "/ext.so"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "torchabi: error: --preload: " + dir + "/nope.so: no such file\n");
}

TEST(RunLoadFailure, PythonCApiImportIsNotCalledAPyTorchProblem) {
  const std::string dir = make_temp_dir();
  write_file(dir, "py.c", "extern void* PyExc_RuntimeError;\nvoid* get(void) { return PyExc_RuntimeError; }\n");
  if (!sh("cd '" + dir + "' && cc -shared -fPIC -o pymod.so py.c")) GTEST_SKIP() << "no cc";
  auto r = run_torchabi({"run", "--format", "json", dir + "/pymod.so"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto f = load_findings(r.json());
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["rule"], "runtime-unresolved-symbol");
  EXPECT_EQ(f[0]["message"], "the extension imports PyExc_RuntimeError, which no library it loads defines (it is "
                             "Python's C API)");
}

TEST(RunLoadFailure, UnstablePyTorchImportIsStillRuntimeLoadFailed) {
  const std::string ext = build_dir() + "/fixtures/runtime/bad_load_failed.so";
  if (!fs::exists(ext)) GTEST_SKIP() << "fixtures not built";
  auto r = run_torchabi({"run", "--format", "json", ext});
  const auto f = load_findings(r.json());
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["rule"], "runtime-load-failed");
}

TEST(RunRoot, MissingOrNotADirectoryIsOneLineAndExit2) {
  const std::string dir = make_temp_dir();
  const std::string ext = build_dir() + "/fixtures/runtime/good_ops.so";
  auto missing = run_torchabi({"run", "--root", dir + "/nope", ext});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "torchabi: error: --root: " + dir + "/nope: no such directory\n") << missing.err;
  EXPECT_TRUE(missing.out.empty());
  const std::string file = write_file(dir, "f", "x");
  auto not_dir = run_torchabi({"run", "--root", file, ext});
  EXPECT_EQ(not_dir.exit_code, 2);
  EXPECT_EQ(not_dir.err, "torchabi: error: --root: " + file + ": not a directory\n") << not_dir.err;
}

TEST(RunRoot, ARootTorchabiCannotStartInIsOneLineAndExit2) {
  // An empty directory: no dynamic loader inside, so torchabi cannot run there
  // (or, where namespaces are not allowed, cannot even enter it).
  const std::string root = make_temp_dir();
  const std::string ext = build_dir() + "/fixtures/runtime/good_ops.so";
  if (!fs::exists(ext)) GTEST_SKIP() << "fixtures not built";
  auto r = run_torchabi({"run", "--root", root, ext});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("torchabi: error: --root: cannot run the reference runtime inside " + root + ": ", 0), 0u) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(fs::is_empty(root)) << "the root was modified";
}

TEST(AuditTorchCRuntime, VersionThisMachineLacksIsAWarningWithTorch) {
  if (!torchabi::test::kHaveStandins) GTEST_SKIP() << "stand-in installs not built";
  const std::string dir = make_temp_dir();
  const TooNewLibc l = too_new_libc(dir);
  if (l.bad.empty()) GTEST_SKIP() << "no cc, or its library needs no GLIBC_2.2.5";
  auto r = run_torchabi({"audit", "--format", "json", "--torch", torchabi::test::standin_v1(), l.bad});
  const auto f = findings_of(r.json(), "binary-c-runtime-too-old");
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["severity"], "warning");
  EXPECT_EQ(f[0]["message"].get<std::string>().find("the library needs GLIBC_9.9.9 of libc.so.6, which this machine's "),
            0u)
      << f[0].dump();
  auto ok = run_torchabi({"audit", "--format", "json", "--torch", torchabi::test::standin_v1(), l.good});
  EXPECT_TRUE(findings_of(ok.json(), "binary-c-runtime-too-old").empty()) << ok.out;
  // Without --torch the audit does not look at the machine.
  auto plain = run_torchabi({"audit", "--format", "json", l.bad});
  EXPECT_TRUE(findings_of(plain.json(), "binary-c-runtime-too-old").empty()) << plain.out;
}

}  // namespace
}  // namespace torchabi::e2e::audit
