// `torchabi check` on projects whose build ships several configurations:
// the configuration-consistency rules fire at the build file's line on the
// defects real ports ship (fixtures/projects/configs/), stay silent on the
// consistent project, and kernel-builder's legacy backends are not held to
// the stable ABI (fixtures/projects/kernel_builder_mixed).
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;


const nlohmann::json* finding(const nlohmann::json& j, const std::string& rule) {
  for (const auto& f : j["findings"])
    if (f["rule"] == rule) return &f;
  return nullptr;
}

std::string configs(const std::string& name) { return source_dir() + "/fixtures/projects/configs/" + name; }

// The stand-in headers (2.12) unless a test asks for the real ones; the build
// script is read, not run, so these tests need no Python.
RunResult check(const std::string& dir, const std::string& include = source_dir() + "/fixtures/lint/include") {
  return run_torchabi({"check", "--no-run-build", "--format", "json", "--torch-include", include, dir});
}

TEST(ProjectConfigurations, TargetForGccButNotNvccIsAnErrorAtTheExtension) {
  auto r = check(configs("nvcc_without_target"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-target-version-inconsistent", "setup.py", 11}})) << j.dump(1);
  const auto* f = finding(j, "build-target-version-inconsistent");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "error");
  EXPECT_NE((*f)["message"].get<std::string>().find("nvcc compiles stable code without TORCH_TARGET_VERSION while cxx targets 2.10"),
            std::string::npos);
  EXPECT_NE((*f)["help"].get<std::string>().find("extra_compile_args[\"nvcc\"]"), std::string::npos);
}

TEST(ProjectConfigurations, RealHeadersNameTheReleaseTheNvccObjectsWillNeed) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  auto r = check(configs("nvcc_without_target"), test::real_torch_include());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  const auto* f = finding(j, "build-target-version-inconsistent");
  ASSERT_NE(f, nullptr) << j.dump(1);
  // 2.14.1's inline error path imports torch_exception_get_what (2.13).
  EXPECT_NE((*f)["message"].get<std::string>().find("they need PyTorch 2.13, and the library will not load on 2.10"),
            std::string::npos)
      << (*f)["message"];
  // The per-file finding is folded into the project-level one.
  EXPECT_EQ(finding(j, "build-target-version-missing"), nullptr) << j.dump(1);
}

TEST(ProjectConfigurations, OneExtensionOfTwoWithoutTargetIsReportedAtItsCall) {
  auto r = check(configs("one_extension_without_target"));
  ASSERT_EQ(r.exit_code, 0) << r.err;  // a warning
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-extension-without-target", "setup.py", 13}})) << j.dump(1);
  const auto* f = finding(j, "build-extension-without-target");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["message"].get<std::string>().find("cfg_two._other"), std::string::npos);
  bool names_other = false;
  for (const auto& n : (*f)["notes"]) names_other |= n.get<std::string>() == "extension cfg_two._ops of the same project targets 2.10";
  EXPECT_TRUE(names_other) << f->dump(1);
}

TEST(ProjectConfigurations, RequirementBelowTheTargetIsAnErrorAtItsLine) {
  auto r = check(configs("requirement_below_target"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-requirement-below-target", "pyproject.toml", 10}})) << j.dump(1);
  EXPECT_NE(finding(j, "build-requirement-below-target")->at("help").get<std::string>().find("Require torch>=2.10"),
            std::string::npos);
}

TEST(ProjectConfigurations, MissingUseCudaIsReportedAtTheUseAndAtTheExtension) {
  auto r = check(configs("define_missing"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-api-hidden-by-configuration", "stream.cpp", 7},
                                          {"build-define-missing", "setup.py", 8}}))
      << j.dump(1);
  EXPECT_EQ(finding(j, "build-define-missing")->at("location").at("symbol"), "USE_CUDA");
}

// The use is in a header: the configuration to blame is the one compiling
// the source that includes it.
TEST(ProjectConfigurations, MissingUseCudaInAHeaderBlamesTheConfigurationOfItsIncluder) {
  auto r = check(configs("define_missing_in_header"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-api-hidden-by-configuration", "stream_util.h", 8},
                                          {"build-define-missing", "setup.py", 9}}))
      << j.dump(1);
  const auto* f = finding(j, "build-define-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->at("message").get<std::string>().find("stream_util.h:8"), std::string::npos) << f->dump(1);
}

// Extensions of one package may need different releases on purpose: a note
// that names the one deciding where both load, not a warning.
TEST(ProjectConfigurations, ExtensionsWithTheirOwnTargetsGetANoteOnly) {
  auto r = check(configs("extensions_with_own_targets"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  const auto* f = finding(j, "build-target-version-inconsistent");
  ASSERT_NE(f, nullptr) << j.dump(1);
  EXPECT_EQ((*f)["severity"], "note");
  EXPECT_NE((*f)["message"].get<std::string>().find("cfg_own._newer targets 2.10 while extension cfg_own._base targets 2.9"),
            std::string::npos)
      << (*f)["message"];
}

// A target that decodes to no release is still a target: the finding is
// about its value, not about its absence.
TEST(ProjectConfigurations, AnImplausibleTargetIsNotAMissingOne) {
  auto r = check(configs("implausible_target"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"version-target-implausible", "ops.cpp", 0}})) << j.dump(1);
}

// A source whose only PyTorch code is header-only C++ (STD_TORCH_CHECK)
// imports no shim and loads on every release: it asks for no target. Its
// twin that calls a shim function does (FlashRT's kernels include
// torch/headeronly through a vendored header and nothing else).
TEST(ProjectConfigurations, HeaderOnlyCodeAsksForNoTarget) {
  for (const bool calls_shim : {false, true}) {
    const std::string dir = make_temp_dir();
    lint::write_file(dir, "setup.py",
                     "from torch.utils.cpp_extension import CppExtension\next = CppExtension('x._C', ['a.cpp'])\n");
    lint::write_file(dir, "a.cpp",
                     std::string("#include <torch/headeronly/util/Exception.h>\n") +
                         (calls_shim ? "#include <torch/csrc/inductor/aoti_torch/c/shim.h>\n" : "") +
                         "int f(int x) {\n  STD_TORCH_CHECK(x > 0, \"x\");\n  return x" +
                         (calls_shim ? " + aoti_torch_dtype_float32()" : "") + ";\n}\n");
    auto r = check(dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto found = findings(r.json());
    EXPECT_EQ(found.count({"build-extension-without-target", "setup.py", 2}), calls_shim ? 1u : 0u)
        << (calls_shim ? "calls a shim: " : "header-only: ") << r.out;
    EXPECT_EQ(found.count({"build-target-version-missing", "a.cpp", 1}), 0u) << r.out;
  }
}

TEST(ProjectConfigurations, TheConsistentProjectIsClean) {
  auto r = check(configs("consistent"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), std::set<Found>{}) << j.dump(1);
  // Each TU says which configuration it was linted in.
  std::set<std::string> seen;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") seen.insert(s["facts"].value("configuration", ""));
  EXPECT_EQ(seen, (std::set<std::string>{"extension cfg_ok._C (cxx)", "extension cfg_ok._C (nvcc)"}));
}

// Found only by running the script once per platform: -DUSE_CUDA is added in
// its `os.name == "nt"` branch, and install_requires allows an older torch.
TEST(ProjectConfigurations, UseCudaOnlyOnWindowsIsFoundByRunningTheScriptPerPlatform) {
  auto r = run_torchabi({"check", "--python", "/usr/bin/python3", "--format", "json", "--torch-include",
                         source_dir() + "/fixtures/lint/include", configs("use_cuda_only_on_windows")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"build-api-hidden-by-configuration", "stream.cpp", 7},
                                          {"build-requirement-below-target", "setup.py", 17},
                                          {"build-define-missing", "setup.py", 20}}))
      << j.dump(1);
  const auto* f = finding(j, "build-define-missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["message"].get<std::string>().find("the build script defines it only on win32"), std::string::npos)
      << (*f)["message"];
  // Read statically, the helper is followed as Linux runs it: the define is
  // missing there, but that win32 has it only running per platform tells.
  auto s = check(configs("use_cuda_only_on_windows"));
  const auto sj = s.json();
  const auto* g = finding(sj, "build-define-missing");
  ASSERT_NE(g, nullptr) << s.out;
  EXPECT_EQ((*g)["severity"], "error") << s.out;
  EXPECT_EQ((*g)["message"].get<std::string>().find("only on win32"), std::string::npos);
}

// The project forbids running its build script: the files are read only.
TEST(ProjectConfigurations, RunBuildFalseInTheConfigReadsTheFilesOnly) {
  const std::string dir = make_temp_dir() + "/proj";
  fs::copy(configs("use_cuda_only_on_windows"), dir, fs::copy_options::recursive);
  lint::write_file(dir, ".torchabi.yaml", "run-build: false\n");
  // The flags come from a helper of another package (the fixture's own
  // compile_args() is read statically, as Linux runs it).
  lint::write_file(dir, "setup.py",
                   "from setuptools import setup\n"
                   "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
                   "from cfg_build_helpers import compile_args\n"
                   "setup(name='cfg_windows_only', install_requires=['torch>=2.8'],\n"
                   "      ext_modules=[CppExtension('cfg_windows_only._C', ['csrc/stream.cpp'],\n"
                   "                                extra_compile_args=compile_args())],\n"
                   "      cmdclass={'build_ext': BuildExtension})\n");
  auto r = run_torchabi({"check", "--python", "/usr/bin/python3", "--format", "json", "--torch-include",
                         source_dir() + "/fixtures/lint/include", dir});
  // Read only, the flags come from a helper it does not run: the missing
  // define is unknown, not absent, so it is a note, and nothing fails.
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto* unknown = finding(j, "build-define-missing");
  ASSERT_NE(unknown, nullptr) << j.dump(1);
  EXPECT_EQ((*unknown)["severity"], "note");
  EXPECT_NE((*unknown)["message"].get<std::string>().find("compile_args()"), std::string::npos) << (*unknown)["message"];
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  EXPECT_NE(project->at("facts").at("build description").get<std::string>().find("(read, not run)"), std::string::npos)
      << project->dump(1);
  // --run-build on the command line wins over the config.
  auto forced = run_torchabi({"check", "--run-build", "--python", "/usr/bin/python3", "--format", "json",
                              "--torch-include", source_dir() + "/fixtures/lint/include", dir});
  const auto fj = forced.json();
  EXPECT_NE(project_subject(fj)->at("facts").at("build description").get<std::string>().find("run in CPython"),
            std::string::npos);
}

TEST(ProjectConfigurations, KernelBuilderLegacyBackendsAreNotHeldToTheStableAbi) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  auto r = check(source_dir() + "/fixtures/projects/kernel_builder_mixed", test::real_torch_include());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = r.json();
  // The #else branch is the CPU/Metal builds' legacy code: no finding at all.
  EXPECT_EQ(findings(j), std::set<Found>{}) << j.dump(1);
  std::string not_stable;
  std::set<std::string> linted;
  for (const auto& s : j["subjects"]) {
    if (s["kind"] == "project") not_stable = s["facts"].value("not stable", "");
    if (s["kind"] == "translation-unit") linted.insert(s["facts"].value("configuration", ""));
  }
  EXPECT_TRUE(not_stable.starts_with("cpu, metal:")) << not_stable;
  EXPECT_EQ(linted, (std::set<std::string>{"torch binding (cuda)", "kernel relu_cuda (cuda, nvcc)"}));
}

}  // namespace
}  // namespace torchabi::e2e
