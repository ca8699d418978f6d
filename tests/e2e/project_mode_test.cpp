// `torchabi check DIR` on an extension repository without a compile
// database: its setup.py is run under the recorder (or read), the commands setuptools would
// run are linted, and the report says what was used; a database, when
// present, always wins.
#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;
using lint::read_all;
using lint::write_file;

const std::string kSample = "fixtures/projects/setuptools_cuda";

std::string sample() { return source_dir() + "/" + kSample; }

// A copy of the sample, so that a build directory can be added to it.
std::string sample_copy() {
  const std::string dir = make_temp_dir() + "/sample";
  fs::copy(sample(), dir, fs::copy_options::recursive);
  return dir;
}


TEST(ProjectMode, SetuptoolsSampleIsReadAndLintedWithItsComputedTarget) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), sample()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  // setup.py targets 2.9, computed from two integers; reshape needs 2.10.
  EXPECT_EQ(findings(j), (std::set<Found>{{"version-api-after-target", "ops.cpp", 13}})) << j.dump(1);
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  EXPECT_NE(project->at("facts").at("torch headers").get<std::string>().find(test::real_torch_include()), std::string::npos);
  EXPECT_NE(project->at("facts").at("extension sample_cuda._C c++ flags").get<std::string>().find(
                "-DTORCH_TARGET_VERSION=0x0209000000000000"),
            std::string::npos);
  // Both sources, the CUDA one included, were analysed.
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(units, (std::set<std::string>{"ops.cpp", "scale.cu"}));
}

// The same findings as with a compile database of the commands
// BuildExtension runs for the sample; and the database wins when present.
TEST(ProjectMode, SameFindingsAsTheEquivalentCompileDatabaseWhichWins) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string dir = sample_copy();
  auto read = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
  ASSERT_EQ(read.exit_code, 1) << read.err;
  const std::string inc = test::real_torch_include();
  const std::string flags = "-I" + dir + "/include -I" + inc + " -DSAMPLE_WITH_CUDA -DSAMPLE_ABI_LEVEL=3 -O3 "
                            "-DTORCH_TARGET_VERSION=0x0209000000000000 -DSAMPLE_FAST_PATH=1 "
                            "-DTORCH_API_INCLUDE_EXTENSION_H -DTORCH_EXTENSION_NAME=_C -std=c++20";
  fs::create_directories(dir + "/build");
  std::ofstream(dir + "/build/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"command\": \"c++ " << flags << " -fPIC -c csrc/ops.cpp\", \"file\": "
      << "\"csrc/ops.cpp\"}, {\"directory\": \"" << dir << "\", \"command\": \"nvcc " << flags
      << " -c csrc/kernels/scale.cu\", \"file\": \"csrc/kernels/scale.cu\"}]";
  auto db = run_torchabi({"check", "--format", "json", dir});
  ASSERT_EQ(db.exit_code, 1) << db.err;
  EXPECT_EQ(findings(db.json()), findings(read.json()));
  EXPECT_EQ(project_subject(db.json()), nullptr) << "the database must win over setup.py";
}

// A setup.py whose flags are what a program prints (line 5): only running
// the script tells them, reading it cannot.
constexpr const char* kFlagsFromAProgram =
    "import subprocess, sys\n"
    "from torch.utils.cpp_extension import CppExtension\n"
    "def flags():\n"
    "    helper = [sys.executable, '-c', 'print(\"-DNEEDED=1\")']\n"
    "    return subprocess.check_output(helper, text=True).split()\n"
    "ext = CppExtension('x._C', ['a.cpp'],\n"
    "                   extra_compile_args=flags())\n";

TEST(ProjectMode, ComputedValuesAreNotesWithFileLineAndTheWayToPassThem) {
  const std::string dir = make_temp_dir();
  write_file(dir, "setup.py", kFlagsFromAProgram);
  write_file(dir, "a.cpp", "#ifndef NEEDED\n#error NEEDED is set by setup.py\n#endif\nint f() { return 1; }\n");
  // Read, not run (running it would find the flags: SetupPyRunFindsWhatReadingCannot).
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", lint::stand_ins(), dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;  // notes do not fail the run
  auto j = r.json();
  const auto all = findings(j);
  EXPECT_TRUE(all.count({"project-flag-unresolved", "setup.py", 5})) << j.dump(1);
  EXPECT_TRUE(all.count({"source-parse-incomplete", "a.cpp", 2})) << j.dump(1);  // without -DNEEDED
  bool how = false;
  for (const auto& f : j["findings"])
    if (f["rule"] == "project-flag-unresolved") how = f["message"].get<std::string>().find("-D NAME=VALUE") != std::string::npos;
  EXPECT_TRUE(how);
  // Given with -D, the macro reaches the compile and the parse is complete.
  auto with = run_torchabi(
      {"check", "--format", "json", "--no-run-build", "--torch-include", lint::stand_ins(), "-D", "NEEDED=1", dir});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  const auto fixed = findings(with.json());
  EXPECT_FALSE(fixed.count({"source-parse-incomplete", "a.cpp", 2})) << with.out;
  EXPECT_NE(project_subject(with.json())->at("facts").at("added with -D").get<std::string>(), "");
}

// With --run-build (the default) setup.py runs under the recorder: flags a
// function computes reach the compile, and --platform picks the branch.
TEST(ProjectMode, SetupPyRunFindsWhatReadingCannot) {
  const std::string dir = make_temp_dir();
  write_file(dir, "setup.py", kFlagsFromAProgram);
  write_file(dir, "a.cpp", "#ifndef NEEDED\n#error NEEDED is set by setup.py\n#endif\nint f() { return 1; }\n");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), dir});
  if (r.err.find("could not be run") != std::string::npos || r.out.find("could not be run") != std::string::npos)
    GTEST_SKIP() << "python3 here cannot run setup.py: " << r.out;
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto j = r.json();
  EXPECT_FALSE(findings(j).count({"source-parse-incomplete", "a.cpp", 2})) << j.dump(1);
  EXPECT_FALSE(findings(j).count({"project-flag-unresolved", "setup.py", 5})) << j.dump(1);
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  EXPECT_TRUE(project->at("facts").at("build description").get<std::string>().starts_with("setup.py run in CPython"))
      << j.dump(1);
  EXPECT_NE(project->at("facts").at("extension x._C c++ flags").get<std::string>().find("-DNEEDED=1"),
            std::string::npos);
  // The fixture whose flags differ by platform: win32's branch is linted.
  const std::string platform_demo = source_dir() + "/fixtures/projects/setup_run_platform";
  auto win = run_torchabi({"check", "--format", "json", "--torch-include", lint::stand_ins(), "--platform", "win32",
                           platform_demo});
  ASSERT_NE(win.exit_code, 2) << win.err;
  const auto wj = win.json();
  ASSERT_NE(project_subject(wj), nullptr) << win.out;
  EXPECT_EQ(project_subject(wj)->at("facts").at("extension platform_demo._C (cxx) on win32").get<std::string>(),
            "adds -DUSE_CUDA; adds /permissive-; drops -fopenmp; drops -fvisibility=hidden")
      << win.out;
  std::set<std::string> units;
  for (const auto& s : wj["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(units, (std::set<std::string>{"binding.cpp", "scale.cu"}));
}

TEST(ProjectMode, ExplainsTheRule) {
  auto r = run_torchabi({"explain", "project-flag-unresolved"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("-D NAME=VALUE"), std::string::npos) << r.out;
}

// project-stable-code-switched-off through the CLI: fires when the build
// leaves the project's switch undefined, not when -D turns it on; explained.
TEST(ProjectMode, StableCodeBehindAnUndefinedSwitchIsSaid) {
  const std::string dir = make_temp_dir() + "/switched";
  write_file(dir, "setup.py",
             "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CppExtension\n"
             "setup(name='sw', ext_modules=[CppExtension('sw._C', ['csrc/ops.cpp'])], cmdclass={'build_ext': BuildExtension})\n");
  write_file(dir, "csrc/ops.cpp",
             "#ifdef SW_STABLE_API\n#include <torch/csrc/stable/library.h>\n#else\n#include <torch/library.h>\n#endif\n");
  auto fired = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"check", "--format", "json", "--torch-include", lint::stand_ins()};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(dir);
    auto r = run_torchabi(args);
    EXPECT_NE(r.exit_code, 2) << r.err;
    const auto j = r.json();  // held: a range-for over a temporary's member dangles
    for (const auto& f : j["findings"])
      if (f["rule"] == "project-stable-code-switched-off") return true;
    return false;
  };
  EXPECT_TRUE(fired({}));
  EXPECT_FALSE(fired({"-D", "SW_STABLE_API"}));
  auto r = run_torchabi({"explain", "project-stable-code-switched-off"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("torchabi check -D"), std::string::npos) << r.out;
}

TEST(ProjectMode, BrokenSetupPyIsOneLineExitTwo) {
  const std::string dir = make_temp_dir();
  write_file(dir, "setup.py", "from torch.utils.cpp_extension import CppExtension\nCppExtension('x', ['a.cpp'\n");
  write_file(dir, "a.cpp", "int f();\n");
  auto r = run_torchabi({"check", "--torch-include", lint::stand_ins(), dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(dir + "/setup.py"), std::string::npos) << r.err;
}

TEST(ProjectMode, UnreadableSetupPyIsOneLineExitTwo) {
  const std::string dir = make_temp_dir();
  fs::create_symlink(dir + "/nowhere.py", dir + "/setup.py");  // readable by no one, root included
  auto r = run_torchabi({"check", "--torch-include", lint::stand_ins(), dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("setup.py"), std::string::npos) << r.err;
}

// A --torch-include without stable headers is refused before the project is
// read: one line, exit 2 and no report of work done with the wrong headers.
TEST(ProjectMode, TorchIncludeWithoutStableHeadersIsRefusedBeforeAnything) {
  const std::string dir = make_temp_dir();
  write_file(dir, "a.cpp", "#include <torch/csrc/stable/library.h>\nint f() { return 0; }\n");
  const std::string empty = make_temp_dir();
  auto r = run_torchabi({"check", "--torch-include", empty, dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(empty + ": no PyTorch stable headers"), std::string::npos) << r.err;
}

// A legacy extension shipped next to a ported one is legacy by design: its
// ATen uses are not the port's defects (inputs/project/legacy_by_design.h).
TEST(ProjectMode, ALegacyExtensionNextToAStableOneIsNotLinted) {
  const std::string dir = make_temp_dir();
  write_file(dir, "setup.py",
             "from torch.utils.cpp_extension import CppExtension\n"
             "legacy = CppExtension('x._legacy', ['legacy.cpp'])\n"
             "stable = CppExtension('x._stable', ['stable.cpp'],\n"
             "                      extra_compile_args={'cxx': ['-DTORCH_TARGET_VERSION=0x020a000000000000']})\n");
  write_file(dir, "legacy.cpp", "#include <torch/extension.h>\nat::Tensor f(const at::Tensor& t) { return t; }\n");
  write_file(dir, "stable.cpp", "#include <torch/csrc/stable/library.h>\nint g() { return 0; }\n");
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", lint::stand_ins(), dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(units, (std::set<std::string>{"stable.cpp"})) << j.dump(1);
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->at("facts").at("legacy by design").get<std::string>().rfind("extension x._legacy: 1 of 1 sources", 0), 0u)
      << p->dump(1);
}

// torchmatch's shape: the legacy CPU library owns the operator's schema
// (TORCH_LIBRARY), the stable CUDA one only implements it. The legacy
// library is not linted, so its def is unseen: the impl is not "never
// defined" (a note at most). Without the legacy library it is an error.
// The real headers: the registration macros are read from them.
TEST(ProjectMode, AnImplWhoseDefIsInALegacyLibraryLeftOutIsNotAnError) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  for (const bool with_legacy : {true, false}) {
    const std::string dir = make_temp_dir();
    write_file(dir, "setup.py",
               std::string("from torch.utils.cpp_extension import CppExtension\n") +
                   (with_legacy ? "legacy = CppExtension('x._cpu', ['cpu.cpp'])\n" : "") +
                   "stable = CppExtension('x._cuda', ['cuda.cpp'],\n"
                   "                      extra_compile_args={'cxx': ['-DTORCH_TARGET_VERSION=0x020a000000000000']})\n");
    write_file(dir, "cpu.cpp",
               "#include <torch/library.h>\nat::Tensor solve(const at::Tensor& t) { return t; }\n"
               "TORCH_LIBRARY(assign, m) { m.def(\"solve(Tensor t) -> Tensor\", &solve); }\n");
    write_file(dir, "cuda.cpp",
               "#include <torch/csrc/stable/library.h>\n#include <torch/csrc/stable/tensor.h>\n"
               "void boxed_solve(StableIValue* stack, uint64_t, uint64_t) {}\n"
               "STABLE_TORCH_LIBRARY_IMPL(assign, CUDA, m) { m.impl(\"solve\", &boxed_solve); }\n");
    auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", test::real_torch_include(), dir});
    ASSERT_NE(r.exit_code, 2) << r.err << r.out;
    const auto j = r.json();
    std::string severity;
    for (const auto& f : j["findings"])
      if (f["rule"] == "schema-impl-without-def") severity = f["severity"];
    EXPECT_EQ(severity, with_legacy ? "note" : "error") << j.dump(1);
  }
}

// OpenEquivariance's shape: libtorch comes from a FetchContent download and
// its include directory from the download's source directory, empty when
// the build is read without a configure. The stable source is linted with
// the headers in use, added after the build's own, not "headers not found".
TEST(ProjectMode, TorchHeadersFromADownloadAreTheOnesInUse) {
  const std::string dir = make_temp_dir();
  write_file(dir, "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.18)\nproject(oeq_shaped CXX)\ninclude(FetchContent)\n"
             "FetchContent_Declare(libtorch URL https://download.pytorch.org/libtorch/cpu/libtorch-2.10.0.zip)\n"
             "FetchContent_MakeAvailable(libtorch)\n"
             "set(LIBTORCH_INCLUDE_DIR \"${libtorch_SOURCE_DIR}/include\")\n"
             "add_library(oeq_stable MODULE ops.cpp)\n"
             "target_include_directories(oeq_stable PRIVATE ${LIBTORCH_INCLUDE_DIR})\n"
             "target_compile_definitions(oeq_stable PRIVATE TORCH_TARGET_VERSION=0x020a000000000000)\n");
  write_file(dir, "ops.cpp", "#include <torch/csrc/stable/library.h>\nint ops() { return 0; }\n");
  auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--torch-include", lint::stand_ins(), dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  for (const auto& f : j["findings"]) EXPECT_NE(f["rule"], "source-torch-headers-not-found") << f.dump(1);
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->at("facts").at("torch headers added").get<std::string>().rfind("target oeq_stable (cxx): ", 0), 0u)
      << p->dump(1);
}

// No green without analysis, at the level of `check`: a stable source whose
// PyTorch headers are nowhere (no --torch-include, an interpreter without
// torch) is an error whether the build is read or swept, never exit 0.
TEST(ProjectMode, AStableSourceWithoutItsHeadersCannotPassTheCheck) {
  for (const bool with_setup_py : {true, false}) {
    const std::string dir = make_temp_dir();
    write_file(dir, "ops.cpp", "#include <torch/csrc/stable/library.h>\nint ops() { return 0; }\n");
    if (with_setup_py)
      write_file(dir, "setup.py",
                 "from torch.utils.cpp_extension import CppExtension\n"
                 "ext = CppExtension('x._C', ['ops.cpp'], extra_compile_args={'cxx': ['-DTORCH_TARGET_VERSION=0x020a000000000000']})\n");
    auto r = run_torchabi({"check", "--format", "json", "--no-run-build", "--python", "/bin/false", dir});
    ASSERT_EQ(r.exit_code, 1) << (with_setup_py ? "setup.py: " : "swept: ") << r.err << r.out;
    const auto j = r.json();
    bool error = false;
    for (const auto& f : j["findings"])
      error |= f["rule"] == "source-torch-headers-not-found" && f["severity"] == "error";
    EXPECT_TRUE(error) << j.dump(1);
  }
}

TEST(ProjectMode, NothingToAnalyseIsExitTwoButOtherInputsStillCount) {
  const std::string empty = make_temp_dir();
  auto none = run_torchabi({"check", empty});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("nothing to check"), std::string::npos) << none.err;
  // A broken project next to a library that can be audited: a note, not exit 2.
  const std::string broken = make_temp_dir();
  write_file(broken, "setup.py", "CppExtension('x', [\n");
  auto partial = run_torchabi({"check", "--torch-include", lint::stand_ins(), broken,
                               build_dir() + "/fixtures/stable_ext/libstable_ext.so"});
  EXPECT_NE(partial.exit_code, 2) << partial.err;
  EXPECT_NE(partial.err.find("not analysed"), std::string::npos) << partial.err;
}

}  // namespace
}  // namespace torchabi::e2e

namespace torchabi::e2e {
namespace {

// -D, -I, -isystem and -std of a command: what decides how a file parses.
std::set<std::string> parse_flags(const std::vector<std::string>& argv) {
  std::set<std::string> out;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-isystem" && i + 1 < argv.size()) out.insert("-isystem" + argv[++i]);
    else if (a.starts_with("-D") || a.starts_with("-I") || a.starts_with("-std=")) out.insert(a);
  }
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The CMake sample read without CMake gives the flags a real configure
// writes into its compile database, and the same findings as that database.
TEST(ProjectMode, CMakeSampleMatchesARealConfigure) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  if (std::system("cmake --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "cmake is not installed";
  const std::string inc = test::real_torch_include();
  const std::string configured = make_temp_dir() + "/cmake_ext";
  fs::copy(source_dir() + "/fixtures/projects/cmake_ext", configured, fs::copy_options::recursive);
  const std::string cmd = "cmake -S '" + configured + "' -B '" + configured + "/build' -DCMAKE_CXX_COMPILER=g++ " +
                          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON '-DTORCH_STABLE_INCLUDE=" + inc + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto db = nlohmann::json::parse(read_all(configured + "/build/compile_commands.json"));
  ASSERT_EQ(db.size(), 2u);
  const std::set<std::string> real = parse_flags(words(db[0]["command"].get<std::string>()));

  const std::string read = make_temp_dir() + "/cmake_ext";
  fs::copy(source_dir() + "/fixtures/projects/cmake_ext", read, fs::copy_options::recursive);
  auto r = run_torchabi({"check", "--format", "json", "-D", "TORCH_STABLE_INCLUDE=" + inc, read});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  const auto* project = project_subject(j);
  ASSERT_NE(project, nullptr) << j.dump(1);
  std::set<std::string> ours = parse_flags(words(project->at("facts").at("target cmake_ext c++ flags").get<std::string>()));
  // Same flags, modulo where the copy lives.
  std::set<std::string> real_here;
  for (std::string f : real) {
    for (size_t p = f.find(configured); p != std::string::npos; p = f.find(configured)) f.replace(p, configured.size(), read);
    real_here.insert(f);
  }
  EXPECT_EQ(ours, real_here);
  // contiguous needs 2.10; the option's default targets 2.9.
  EXPECT_EQ(findings(j), (std::set<Found>{{"version-api-after-target", "ops.cpp", 12}})) << j.dump(1);
  auto with_db = run_torchabi({"check", "--format", "json", configured});
  ASSERT_EQ(with_db.exit_code, 1) << with_db.err;
  EXPECT_EQ(findings(with_db.json()), findings(j));
  EXPECT_EQ(project_subject(with_db.json()), nullptr);
  // A cache value given with -D changes the configuration as `cmake -D` would.
  auto at_2_10 = run_torchabi({"check", "--format", "json", "-D", "TORCH_STABLE_INCLUDE=" + inc, "-D",
                               "CMAKE_EXT_FOR_2_9=OFF", read});
  EXPECT_EQ(at_2_10.exit_code, 0) << at_2_10.out;
}

// scikit-build-core passes its cmake.define values to the configure: with
// the include directory there, no -D is needed and the verdict is the same.
TEST(ProjectMode, ScikitBuildDefinesReachTheCMakeProject) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string inc = test::real_torch_include();
  const std::string dir = make_temp_dir() + "/cmake_ext";
  fs::copy(source_dir() + "/fixtures/projects/cmake_ext", dir, fs::copy_options::recursive);
  write_file(dir, "pyproject.toml",
             "[build-system]\nrequires = [\"scikit-build-core\"]\nbuild-backend = \"scikit_build_core.build\"\n"
             "[tool.scikit-build.cmake.define]\nTORCH_STABLE_INCLUDE = \"" + inc + "\"\n");
  auto r = run_torchabi({"check", "--format", "json", dir});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"version-api-after-target", "ops.cpp", 12}})) << j.dump(1);
  EXPECT_NE(project_subject(j)->at("facts").at("pyproject.toml").get<std::string>().find("TORCH_STABLE_INCLUDE="),
            std::string::npos);
  // The user's -D wins over pyproject.toml, as on the command line of cmake.
  auto at_2_10 = run_torchabi({"check", "--format", "json", "-D", "CMAKE_EXT_FOR_2_9=OFF", dir});
  EXPECT_EQ(at_2_10.exit_code, 0) << at_2_10.out;
}

// kernel-builder's build.toml: the binding and the CPU and CUDA kernels are
// linted at the stable-abi release; the Metal kernel is listed, not linted.
TEST(ProjectMode, KernelBuilderSampleIsLintedAtItsStableAbiRelease) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string dir = source_dir() + "/fixtures/projects/kernel_builder";
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings(j), (std::set<Found>{{"version-api-after-target", "scale.cpp", 13}})) << j.dump(1);
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(fs::path(s["path"].get<std::string>()).filename().string());
  EXPECT_EQ(units, (std::set<std::string>{"torch_binding.cpp", "scale.cpp", "scale.cu"}));
  const auto& facts = project_subject(j)->at("facts");
  EXPECT_EQ(facts.at("stable ABI").get<std::string>(), "2.9 -> TORCH_TARGET_VERSION=0x0209000000000000");
  EXPECT_NE(facts.at("kernel scale_metal").get<std::string>().find("not linted"), std::string::npos);
  EXPECT_NE(facts.at("kernel scale_cpu (cpu) c++ flags").get<std::string>().find("-DKB_SAMPLE_VECTOR_WIDTH=8"),
            std::string::npos);
  // The binding is built once per backend, each with its *_KERNEL macro.
  for (const char* backend : {"cpu", "cuda", "metal"}) {
    std::string macro = backend;
    for (auto& ch : macro) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_TRUE(facts.at(std::string("torch binding (") + backend + ") c++ flags").get<std::string>().starts_with(
        "-D" + macro + "_KERNEL "));
  }
}

TEST(ProjectMode, BrokenBuildTomlIsOneLineExitTwo) {
  const std::string dir = make_temp_dir();
  write_file(dir, "build.toml", "[general]\nname = \"k\"\n[torch\n");
  auto r = run_torchabi({"check", "--torch-include", lint::stand_ins(), dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(dir + "/build.toml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace torchabi::e2e
