// CMake projects configured in a scratch copy and read through the File API
// (inputs/project/cmake_file_api.h): targets declared by the project's own
// functions, generator expressions, CUDA without nvcc, and the configures that
// fail, hang or write into their source tree.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "inputs/project/cmake_file_api.h"
#include "inputs/project/environment/newer_cmake.h"
#include "inputs/project/cmake_reply.h"
#include "inputs/project/environment/cmake_version_floor.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/project_build.h"
#include "real_torch.h"

namespace torchabi::inputs {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(TORCHABI_SOURCE_DIR) + "/fixtures/projects";
const std::string kModules = kFixtures + "/cmake_modules";
const std::string kMisbehaving = kFixtures + "/cmake_misbehaving";

bool have_cmake() { return std::system("cmake --version >/dev/null 2>&1") == 0; }

#define REQUIRE_CMAKE() \
  if (!have_cmake()) GTEST_SKIP() << "cmake is not installed"

struct TempTree {
  static inline int count = 0;
  fs::path dir = fs::temp_directory_path() / ("torchabi-fileapi-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
  TempTree() { fs::create_directories(dir); }
  ~TempTree() { fs::remove_all(dir); }
  TempTree& write(const std::string& rel, const std::string& text) {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
    return *this;
  }
  std::string p(const std::string& rel) const { return (dir / rel).string(); }
};

// Torch headers laid out as an install: the directories must exist for CMake
// to accept them on an imported target.
struct FakeTorch {
  TempTree tree;
  TorchLocation loc;
  FakeTorch() {
    tree.write("include/torch/csrc/api/include/torch/all.h", "").write("py/Python.h", "");
    loc.include_dirs = {tree.p("include"), tree.p("include/torch/csrc/api/include"), tree.p("py")};
    loc.how = "fake torch";
  }
};

const BuildConfiguration* find(const std::vector<BuildConfiguration>& cs, const std::string& unit,
                               const std::string& compiler) {
  for (const auto& c : cs)
    if (c.unit == unit && c.compiler == compiler) return &c;
  return nullptr;
}

std::string dump(const std::vector<BuildConfiguration>& cs) {
  std::string out;
  for (const auto& c : cs) {
    out += c.label() + " " + c.file + ":" + std::to_string(c.line) + " dir " + c.directory + "\n ";
    for (const auto& s : c.sources) out += " " + s;
    out += "\n ";
    for (const auto& a : c.arguments) out += " " + a;
    out += "\n";
  }
  return out;
}

// Every file under `dir` (relative), to compare a tree before and after.
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CMakeReply, FragmentsSplitAsTheShellWould) {
  EXPECT_EQ(split_fragment(" --generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC"),
            (std::vector<std::string>{"--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-Xcompiler=-fPIC"}));
  EXPECT_EQ(split_fragment("-DNAME=\"a b\" 'c d' e\\ f"), (std::vector<std::string>{"-DNAME=a b", "c d", "e f"}));
  EXPECT_TRUE(split_fragment("   ").empty());
}

TEST(CMakeFileApi, LastCMakeErrorIsOneLine) {
  EXPECT_EQ(last_cmake_error("-- ok\nCMake Error at CMakeLists.txt:3 (message):\n  first\n\nCMake Error at x.cmake:9 "
                             "(message):\n  needs\n  more\n\n-- Configuring incomplete\n"),
            "CMake Error at x.cmake:9 (message): needs more");
  EXPECT_EQ(last_cmake_error("something\nfailed badly\n"), "failed badly");
}

TEST(CMakeFileApi, TargetsFromTheProjectsOwnFunctionsAndSubdirectories) {
  REQUIRE_CMAKE();
  FakeTorch torch;
  const auto before = listing(kModules);
  FileApiResult r = configure_with_file_api(kModules + "/CMakeLists.txt", torch.loc, {});
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(listing(kModules), before);
  ASSERT_EQ(r.configurations.size(), 3u) << dump(r.configurations);
  const std::string inc = torch.tree.p("include"), api = torch.tree.p("include/torch/csrc/api/include");

  const BuildConfiguration* cxx = find(r.configurations, "target _C", "cxx");
  ASSERT_NE(cxx, nullptr) << dump(r.configurations);
  // Declared inside the function of cmake/ops.cmake, not at its call.
  EXPECT_EQ(cxx->file, kModules + "/cmake/ops.cmake");
  EXPECT_EQ(cxx->line, 4);
  EXPECT_EQ(cxx->platform, "linux");
  EXPECT_EQ(cxx->directory, kModules);
  EXPECT_EQ(cxx->method.rfind("CMake File API (cmake ", 0), 0u) << cxx->method;
  EXPECT_NE(cxx->method.find("stand-in TorchConfig"), std::string::npos);
  EXPECT_EQ(cxx->sources, (std::vector<std::string>{kModules + "/csrc/ops.cpp"}));
  // The torch target's include directories (not Python's), as -isystem, its
  // C++11 ABI flag, the helper library's usage requirement, the module's
  // _EXPORTS; the CUDA-only definition and option are not there.
  EXPECT_EQ(cxx->arguments,
            (std::vector<std::string>{"c++", "-DOPS_EXTRA=1", "-DOPS_HOST=1", "-DTORCH_EXTENSION_NAME=_C",
                                      "-DTORCH_TARGET_VERSION=0x020a000000000000", "-D_C_EXPORTS",
                                      "-I" + kModules + "/include", "-isystem", inc, "-isystem", api, "-fPIC",
                                      "-D_GLIBCXX_USE_CXX11_ABI=1", "-std=gnu++17"}))
      << dump(r.configurations);

  const BuildConfiguration* cu = find(r.configurations, "target _C", "nvcc");
  ASSERT_NE(cu, nullptr) << dump(r.configurations);
  EXPECT_EQ(cu->sources, (std::vector<std::string>{kModules + "/csrc/kernels.cu"}));
  EXPECT_EQ(cu->line, 4);
  EXPECT_EQ(cu->arguments.front(), "nvcc");
  const auto has = [&](const std::string& a) {
    return std::find(cu->arguments.begin(), cu->arguments.end(), a) != cu->arguments.end();
  };
  EXPECT_TRUE(has("-DOPS_CUDA=1")) << dump(r.configurations);
  EXPECT_FALSE(has("-DOPS_HOST=1"));
  EXPECT_TRUE(has("--expt-relaxed-constexpr"));
  EXPECT_TRUE(has("--generate-code=arch=compute_90,code=[compute_90,sm_90]"));
  EXPECT_TRUE(has("-std=c++17"));
  EXPECT_TRUE(has(api));

  const BuildConfiguration* extra = find(r.configurations, "target ops_extra", "cxx");
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(extra->file, kModules + "/csrc/extra/CMakeLists.txt");
  EXPECT_EQ(extra->line, 1);
  EXPECT_EQ(extra->directory, kModules + "/csrc/extra");
  EXPECT_EQ(extra->sources, (std::vector<std::string>{kModules + "/csrc/extra/extra.cpp"}));
  EXPECT_EQ(extra->arguments, (std::vector<std::string>{"c++", "-DOPS_EXTRA=1", "-fPIC", "-std=gnu++17"}));
}

// As on a machine without nvcc or a CUDA installation: the CUDA language,
// FindCUDAToolkit and its imported targets configure against the stand-ins,
// whose empty headers stay out of the flags.
TEST(CMakeFileApi, CudaConfiguresWithoutACudaInstallation) {
  REQUIRE_CMAKE();
  TempTree t;
  t.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\n"
                            "project(p LANGUAGES CXX)\n"
                            "enable_language(CUDA)\n"
                            "find_package(CUDAToolkit REQUIRED)\n"
                            "add_library(k SHARED host.cpp dev.cu)\n"
                            "target_link_libraries(k PRIVATE CUDA::cudart)\n"
                            "target_compile_definitions(k PRIVATE CUDA_MAJOR=${CUDAToolkit_VERSION_MAJOR})\n")
      .write("host.cpp", "")
      .write("dev.cu", "");
  FileApiOptions o;
  o.machine_cuda = false;
  FileApiResult r = configure_with_file_api(t.p("CMakeLists.txt"), FakeTorch().loc, o);
  ASSERT_TRUE(r.ok) << r.failure;
  ASSERT_EQ(r.configurations.size(), 2u) << dump(r.configurations);
  const BuildConfiguration* cu = find(r.configurations, "target k", "nvcc");
  ASSERT_NE(cu, nullptr);
  EXPECT_EQ(cu->sources, (std::vector<std::string>{t.p("dev.cu")}));
  EXPECT_EQ(cu->arguments, (std::vector<std::string>{"nvcc", "-DCUDA_MAJOR=12", "-Dk_EXPORTS",
                                                     "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                                                     "-Xcompiler=-fPIC", "-std=c++17"}))
      << dump(r.configurations);
  const BuildConfiguration* cxx = find(r.configurations, "target k", "cxx");
  ASSERT_NE(cxx, nullptr);
  EXPECT_EQ(cxx->arguments, (std::vector<std::string>{"c++", "-DCUDA_MAJOR=12", "-Dk_EXPORTS", "-fPIC"}));
  bool fact = false;
  for (const auto& [k, v] : r.facts) fact |= k == "CUDA compiler" && v.find("stand-in nvcc") != std::string::npos;
  EXPECT_TRUE(fact);
}

// vLLM's shape (fixtures/projects/cmake_vllm_shaped): its configure asks its
// own Python for torch, needs the CUDA a CUDA build of torch's config finds
// and the architectures it puts in CMAKE_CUDA_FLAGS, and downloads CUTLASS.
// On a machine with none of them the configure runs through on the first
// try: the stand-in torch importable by the configure's Python, the
// stand-in TorchConfig's CUDA, and an empty placeholder for the download,
// each named in the facts.
TEST(CMakeFileApi, AVllmShapedConfigureGetsTorchCudaAndItsDownloadsStoodIn) {
  REQUIRE_CMAKE();
  if (std::system("python3 -c 'import json' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  FakeTorch torch;
  // An interpreter without site-packages: no torch, whatever the machine has.
  torch.tree.write("py/python-without-torch", "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n");
  fs::permissions(torch.tree.p("py/python-without-torch"),
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                      fs::perms::others_exec);
  FileApiOptions o;
  o.machine_cuda = false;
  o.defines = {"Python_EXECUTABLE=" + torch.tree.p("py/python-without-torch")};
  FileApiResult r = configure_with_file_api(kFixtures + "/cmake_vllm_shaped/CMakeLists.txt", torch.loc, o);
  ASSERT_TRUE(r.ok) << r.failure;
  std::map<std::string, std::string> facts(r.facts.begin(), r.facts.end());
  EXPECT_FALSE(facts.count("continued past")) << facts["continued past"] << "\n" << (r.notes.empty() ? "" : r.notes[0].message);
  EXPECT_NE(facts["given to cmake: FetchContent"].find("cutlass"), std::string::npos);
  EXPECT_TRUE(facts.count("given to cmake's Python"));
  const BuildConfiguration* cu = find(r.configurations, "target _C_stable", "nvcc");
  ASSERT_NE(cu, nullptr) << dump(r.configurations);
  auto has = [&](const std::string& a) { return std::find(cu->arguments.begin(), cu->arguments.end(), a) != cu->arguments.end(); };
  // torch's COMMON_NVCC_FLAGS, as the configure's Python printed them.
  EXPECT_TRUE(has("-D__CUDA_NO_HALF_OPERATORS__")) << dump(r.configurations);
  EXPECT_TRUE(has("-DTORCH_TARGET_VERSION=0x020a000000000000ULL")) << dump(r.configurations);
  // TORCH_CUDA_ARCH_LIST, as -gencode flags a CUDA build of torch adds.
  bool gencode = false;
  for (const auto& a : cu->arguments) gencode |= a.find("arch=compute_90,code=sm_90") != std::string::npos;
  EXPECT_TRUE(gencode) << dump(r.configurations);
}

// find_package(Torch 2.3 REQUIRED) with headers whose version.h is absent:
// the stand-in takes the version asked for; with a version.h, its version.
// A project that chooses its CUDA backend by TORCH_CUDA_LIBRARIES after
// find_package(Torch) gets it: the stand-in torch is a CUDA build's.
TEST(CMakeFileApi, ACudaBackendChosenFromTorchsCudaLibrariesIsConfigured) {
  REQUIRE_CMAKE();
  FakeTorch torch;
  FileApiOptions o;
  o.machine_cuda = false;
  FileApiResult r = configure_with_file_api(kFixtures + "/cmake_cuda_from_torch/CMakeLists.txt", torch.loc, o);
  ASSERT_TRUE(r.ok) << r.failure;
  const BuildConfiguration* cu = find(r.configurations, "target _C", "nvcc");
  ASSERT_NE(cu, nullptr) << dump(r.configurations);
  EXPECT_EQ(cu->sources, (std::vector<std::string>{kFixtures + "/cmake_cuda_from_torch/csrc/kernel.cu"}));
  EXPECT_NE(std::find(cu->arguments.begin(), cu->arguments.end(), "-DUSE_CUDA"), cu->arguments.end());
}

TEST(CMakeFileApi, TheStandInTorchAnswersVersionRequests) {
  REQUIRE_CMAKE();
  TempTree t;
  t.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
                            "find_package(Torch 2.3 REQUIRED)\n"
                            "add_library(p MODULE a.cpp)\n"
                            "target_link_libraries(p PRIVATE torch)\n"
                            "target_compile_definitions(p PRIVATE TV=${Torch_VERSION} F=${TORCH_FOUND})\n")
      .write("a.cpp", "");
  FakeTorch torch;
  FileApiResult r = configure_with_file_api(t.p("CMakeLists.txt"), torch.loc, {});
  ASSERT_TRUE(r.ok) << r.failure;
  ASSERT_EQ(r.configurations.size(), 1u);
  EXPECT_EQ(r.configurations[0].arguments.at(1), "-DF=TRUE");
  EXPECT_EQ(r.configurations[0].arguments.at(2), "-DTV=2.3") << dump(r.configurations);
  torch.tree.write("include/torch/headeronly/version.h",
                   "#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 1\n#define TORCH_VERSION_PATCH 0\n");
  r = configure_with_file_api(t.p("CMakeLists.txt"), torch.loc, {});
  EXPECT_FALSE(r.ok);  // 2.1.0 is older than asked for
  EXPECT_NE(r.failure.find("Torch"), std::string::npos) << r.failure;
}

TEST(CMakeFileApi, CacheDefinitionsReachTheConfigure) {
  REQUIRE_CMAKE();
  FakeTorch torch;
  FileApiOptions o;
  o.defines = {"OPS_WITH_EXTRA=OFF", "CMAKE_CUDA_ARCHITECTURES=80"};
  FileApiResult r = configure_with_file_api(kModules + "/CMakeLists.txt", torch.loc, o);
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(find(r.configurations, "target ops_extra", "cxx"), nullptr) << dump(r.configurations);
  const BuildConfiguration* cxx = find(r.configurations, "target _C", "cxx");
  ASSERT_NE(cxx, nullptr);
  EXPECT_EQ(cxx->arguments.at(1), "-DOPS_HOST=1");
}

// A project that asks for a newer CMake than the machine's is configured
// with the one scripts/fetch-cmake.sh unpacked (Debian's bookworm-backports
// cmake; the README's test command fetches it), its floor left as written;
// the report names it. Skipped where none was fetched or the machine's is new.
TEST(CMakeFileApi, AProjectAskingForANewerCMakeIsConfiguredWithTheFetchedOne) {
  REQUIRE_CMAKE();
  const std::string fetched = fetched_cmake_path();
  std::error_code ec;
  if (fetched.empty() || !fs::is_regular_file(fetched, ec)) GTEST_SKIP() << "scripts/fetch-cmake.sh has not run";
  const std::string newer = machine_cmake_version(fetched), machine = machine_cmake_version("cmake");
  if (!version_below(machine, newer)) GTEST_SKIP() << "the machine's cmake is as new as the fetched one";
  ScratchDir scratch("newer-cmake");
  const fs::path dir = fs::path(scratch.path()) / "proj";
  fs::create_directories(dir);
  // The floor is the fetched release: only that CMake can configure it unlowered.
  std::ofstream(dir / "CMakeLists.txt") << "cmake_minimum_required(VERSION " << newer << ")\nproject(newer CXX)\n"
                                        << "add_library(newer_ops MODULE ops.cpp)\n"
                                        << "target_compile_definitions(newer_ops PRIVATE CONFIGURED_BY=${CMAKE_VERSION})\n";
  std::ofstream(dir / "ops.cpp") << "int f() { return 1; }\n";
  FileApiResult r = configure_with_file_api((dir / "CMakeLists.txt").string(), FakeTorch().loc, {});
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(r.cmake_version, newer);
  const BuildConfiguration* ops = find(r.configurations, "target newer_ops", "cxx");
  ASSERT_NE(ops, nullptr) << dump(r.configurations);
  EXPECT_NE(std::find(ops->arguments.begin(), ops->arguments.end(), "-DCONFIGURED_BY=" + newer), ops->arguments.end());
  bool named = false, lowered = false;
  for (const auto& [k, v] : r.facts) {
    named |= k == "cmake" && v.find(fetched) != std::string::npos;
    lowered |= k == "given to cmake";
  }
  EXPECT_TRUE(named);
  EXPECT_FALSE(lowered);
}

// A TORCHABI_CMAKE that cannot be run is the configure's one-line failure
// (the project is then read statically), not a crash.
TEST(CMakeFileApi, ATorchabiCMakeThatCannotRunIsTheFailure) {
  ::setenv("TORCHABI_CMAKE", "/nonexistent/cmake", 1);
  FileApiResult r = configure_with_file_api(kModules + "/CMakeLists.txt", FakeTorch().loc, {});
  ::unsetenv("TORCHABI_CMAKE");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "/nonexistent/cmake cannot be run");
}

TEST(CMakeFileApi, AConfigureErrorIsTheFailure) {
  REQUIRE_CMAKE();
  FileApiResult r = configure_with_file_api(kMisbehaving + "/configure_error/CMakeLists.txt", FakeTorch().loc, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "configure failed: CMake Error at CMakeLists.txt:4 (add_subdirectory): add_subdirectory given "
                       "source \"acme_sdk\" which is not an existing directory.");
}

// The configure a build machine would finish: configured again past what
// this machine lacks, each stand-in named, the flags unresolved.
TEST(CMakeFileApi, AConfigureStoppedByMissingPrerequisitesGoesOnPastThem) {
  REQUIRE_CMAKE();
  if (version_below(machine_cmake_version("cmake"), "3.24")) GTEST_SKIP() << "needs CMake 3.24 (dependency providers)";
  FileApiResult r = configure_with_file_api(kMisbehaving + "/missing_prerequisites/CMakeLists.txt", FakeTorch().loc, {});
  ASSERT_TRUE(r.ok) << r.failure;
  const BuildConfiguration* ops = find(r.configurations, "target ops", "cxx");
  ASSERT_NE(ops, nullptr) << dump(r.configurations);
  EXPECT_NE(std::find(ops->arguments.begin(), ops->arguments.end(), "-DTORCH_TARGET_VERSION=0x020a000000000000"),
            ops->arguments.end());
  for (const auto& a : ops->arguments) EXPECT_EQ(a.find("NOTFOUND"), std::string::npos) << a;
  for (const std::string named : {"find_package(AcmeCodec REQUIRED) in CMakeLists.txt: not found, taken as found",
                                  "message(FATAL_ERROR) in CMakeLists.txt: \"libgadget not found: install it or set BUILD_GADGET=0\"",
                                  "AcmeCodec::codec (linked by ops): never defined, an empty stand-in",
                                  "Gadget::gadget (linked by ops): never defined, an empty stand-in",
                                  "GADGET_INCLUDE_DIR-NOTFOUND (used by ops): dropped"})
    EXPECT_NE(ops->unresolved.find(named), std::string::npos) << named << "\n in: " << ops->unresolved;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_TRUE(r.notes[0].message.starts_with("the configure stopped at a prerequisite this machine lacks (CMake Error "
                                             "at CMakeLists.txt:5 (find_package)"))
      << r.notes[0].message;
}

TEST(CMakeFileApi, AHangingConfigureIsKilledAtTheTimeLimit) {
  REQUIRE_CMAKE();
  FileApiOptions o;
  o.timeout_seconds = 3;
  const auto start = std::chrono::steady_clock::now();
  FileApiResult r = configure_with_file_api(kMisbehaving + "/hangs/CMakeLists.txt", FakeTorch().loc, o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "cmake did not finish within 3 s");
}

TEST(CMakeFileApi, NoCMakeIsTheFailure) {
  FileApiOptions o;
  o.cmake = "/nonexistent/cmake";
  FileApiResult r = configure_with_file_api(kModules + "/CMakeLists.txt", FakeTorch().loc, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failure, "/nonexistent/cmake cannot be run");
}

TEST(CMakeFileApi, AConfigureThatWritesIntoItsSourcesLeavesTheUsersTreeAlone) {
  REQUIRE_CMAKE();
  const std::string dir = kMisbehaving + "/writes_source";
  const auto before = listing(dir);
  FileApiResult r = configure_with_file_api(dir + "/CMakeLists.txt", FakeTorch().loc, {});
  ASSERT_TRUE(r.ok) << r.failure;
  EXPECT_EQ(listing(dir), before);
  EXPECT_FALSE(fs::exists(dir + "/configured.stamp"));
  ASSERT_EQ(r.configurations.size(), 1u);
  // Mapped back onto the user's tree, as the project's own build would see it.
  EXPECT_EQ(r.configurations[0].arguments,
            (std::vector<std::string>{"c++", "-Dwrites_source_EXPORTS", "-I" + dir + "/csrc/generated", "-fPIC"}));
  EXPECT_EQ(r.configurations[0].line, 6);
}

TEST(CMakeFileApi, TheScratchCopyIsRemoved) {
  REQUIRE_CMAKE();
  // A temporary directory of this test's own: tests running in parallel make
  // and remove scratch copies of their own in the shared one.
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  const fs::path own = fs::temp_directory_path() / ("scratch-test-" + std::to_string(::getpid()));
  fs::create_directories(own);
  setenv("TMPDIR", own.c_str(), 1);
  FileApiResult r = configure_with_file_api(kMisbehaving + "/configure_error/CMakeLists.txt", FakeTorch().loc, {});
  if (old_tmpdir) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(fs::is_empty(own)) << "left behind in " << own;
  fs::remove_all(own);
}

// project mode with --run-build: the File API for the existing sample, and
// the static reader, with a note, when the configure fails.
TEST(CMakeFileApi, ProjectModeConfiguresTheCMakeSample) {
  REQUIRE_CMAKE();
  const std::string sample = kFixtures + "/cmake_ext";
  ProjectOptions o;
  o.run_build = true;
  FakeTorch torch;
  ProjectBuild b = read_project_build(sample + "/CMakeLists.txt", torch.loc, o);
  ASSERT_EQ(b.configurations.size(), 1u) << (b.notes.empty() ? "" : b.notes[0].message);
  const BuildConfiguration& c = b.configurations[0];
  EXPECT_EQ(c.unit, "target cmake_ext");
  EXPECT_EQ(c.line, 18);
  EXPECT_EQ(c.method.rfind("CMake File API", 0), 0u);
  EXPECT_EQ(c.sources, (std::vector<std::string>{sample + "/csrc/ops.cpp", sample + "/csrc/shapes.cpp"}));
  // TORCH_STABLE_INCLUDE's default, /usr/include, holds no torch headers on
  // this machine (CMake drops it as implicit): the headers in use come last.
  EXPECT_EQ(c.arguments, (std::vector<std::string>{"c++", "-DCMAKE_EXT_HEADERS=1", "-DCMAKE_EXT_NAME=cmake_ext",
                                                   "-DTORCH_TARGET_VERSION=0x0209000000000000", "-Dcmake_ext_EXPORTS",
                                                   "-I" + sample + "/include", "-fPIC", "-fvisibility=hidden",
                                                   "-std=gnu++17", "-isystem", torch.tree.p("include"), "-isystem",
                                                   torch.tree.p("include/torch/csrc/api/include")}))
      << dump(b.configurations);
  ASSERT_EQ(b.db.commands.size(), 2u);
  EXPECT_EQ(b.db.commands[0].label, "target cmake_ext (cxx)");
  EXPECT_TRUE(b.notes.empty());
}

// The flags, in order, are those of the compile command CMake's own
// Makefile generator writes for the same project (compile_commands.json).
TEST(CMakeFileApi, FlagsInTheOrderOfTheMakefileGenerator) {
  REQUIRE_CMAKE();
  FakeTorch torch;
  TempTree t;
  fs::copy(kFixtures + "/cmake_ext", t.dir / "p", fs::copy_options::recursive);
  const std::string dir = t.p("p");
  const std::string cmd = "cmake -S '" + dir + "' -B '" + t.p("build") + "' -DCMAKE_EXPORT_COMPILE_COMMANDS=ON '-DTORCH_STABLE_INCLUDE=" +
                          torch.tree.p("include") + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(t.p("build/compile_commands.json"));
  std::stringstream text;
  text << in.rdbuf();
  // "command": "/usr/bin/c++ FLAGS -o OBJ -c SRC": the flags between.
  const std::string all = text.str();
  const size_t start = all.find("\"command\": \"");
  ASSERT_NE(start, std::string::npos) << all;
  const std::string command = all.substr(start + 12, all.find("\"", start + 12) - start - 12);
  std::vector<std::string> real = split_fragment(command);
  ASSERT_GT(real.size(), 5u);
  real.erase(real.end() - 4, real.end());  // -o OBJ -c SRC
  real.front() = "c++";

  FileApiOptions o;
  o.defines = {"TORCH_STABLE_INCLUDE=" + torch.tree.p("include")};
  FileApiResult r = configure_with_file_api(dir + "/CMakeLists.txt", torch.loc, o);
  ASSERT_TRUE(r.ok) << r.failure;
  ASSERT_EQ(r.configurations.size(), 1u);
  EXPECT_EQ(r.configurations[0].arguments, real);
}

TEST(CMakeFileApi, ProjectModeFallsBackToTheStaticReaderWithANote) {
  REQUIRE_CMAKE();
  TempTree t;
  t.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
                            "add_subdirectory(sdk)\nadd_library(p SHARED a.cpp)\n")
      .write("a.cpp", "");
  ProjectOptions o;
  o.run_build = true;
  ProjectBuild b = read_project_build(t.p("CMakeLists.txt"), FakeTorch().loc, o);
  ASSERT_FALSE(b.notes.empty());
  EXPECT_EQ(b.notes[0].file, t.p("CMakeLists.txt"));
  EXPECT_EQ(b.notes[0].message, "CMakeLists.txt could not be configured (configure failed: CMake Error at "
                                "CMakeLists.txt:3 (add_subdirectory): add_subdirectory given source \"sdk\" which is "
                                "not an existing directory.): read statically instead");
  ASSERT_EQ(b.configurations.size(), 1u);
  EXPECT_EQ(b.configurations[0].method, "CMakeLists.txt read, not configured");
}

// What scikit-build-core gives the configure: its SKBUILD_* cache entries
// and the interpreter (Python3_EXECUTABLE), which the project asks for
// torch's CMake prefix; without them such a configure fails.
TEST(CMakeFileApi, ScikitBuildCoreProjectsGetWhatTheFrontendGives) {
  REQUIRE_CMAKE();
  if (std::system("python3 -c 'import json' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  TempTree t;
  t.write("pyproject.toml", "[build-system]\nrequires = [\"scikit-build-core\"]\nbuild-backend = "
                            "\"scikit_build_core.build\"\n[project]\nname = \"skb-demo\"\nversion = \"1.2.3\"\n")
      .write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.18)\n"
             "project(${SKBUILD_PROJECT_NAME} VERSION ${SKBUILD_PROJECT_VERSION} LANGUAGES CXX)\n"
             "execute_process(COMMAND \"${Python3_EXECUTABLE}\" -c \"import torch; print(torch.utils.cmake_prefix_path)\"\n"
             "  OUTPUT_VARIABLE prefix OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)\n"
             "if(failed)\n  message(FATAL_ERROR \"no torch from ${Python3_EXECUTABLE}\")\nendif()\n"
             "list(APPEND CMAKE_PREFIX_PATH \"${prefix}\")\n"
             "find_package(Torch REQUIRED)\n"
             "add_library(_C MODULE a.cpp)\n"
             "target_compile_definitions(_C PRIVATE NAME_${SKBUILD_PROJECT_NAME} VERSION=${PROJECT_VERSION})\n")
      .write("a.cpp", "");
  ProjectOptions o;
  o.run_build = true;
  o.python = "python3";
  ProjectBuild b = read_project_build(t.p("pyproject.toml"), FakeTorch().loc, o);
  ASSERT_EQ(b.configurations.size(), 1u) << (b.notes.empty() ? "" : b.notes[0].message);
  const auto& args = b.configurations[0].arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-DNAME_skb_demo"), args.end()) << b.configurations[0].label();
  EXPECT_NE(std::find(args.begin(), args.end(), "-DVERSION=1.2.3"), args.end());
}

TEST(CMakeFileApi, ScikitBuildCoreDefinesComeBeforeTheUsers) {
  REQUIRE_CMAKE();
  TempTree t;
  t.write("pyproject.toml", "[build-system]\nrequires = [\"scikit-build-core\"]\nbuild-backend = "
                            "\"scikit_build_core.build\"\n[tool.scikit-build.cmake.define]\nFLAVOR = \"fast\"\nLEVEL = \"1\"\n")
      .write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
                               "add_library(p MODULE a.cpp)\n"
                               "target_compile_definitions(p PRIVATE FLAVOR_${FLAVOR} LEVEL=${LEVEL})\n")
      .write("a.cpp", "");
  ProjectOptions o;
  o.run_build = true;
  o.defines = {"LEVEL=2"};
  ProjectBuild b = read_project_build(t.p("pyproject.toml"), FakeTorch().loc, o);
  ASSERT_EQ(b.configurations.size(), 1u) << (b.notes.empty() ? "" : b.notes[0].message);
  EXPECT_EQ(b.configurations[0].arguments,
            (std::vector<std::string>{"c++", "-DFLAVOR_fast", "-DLEVEL=2", "-Dp_EXPORTS", "-fPIC"}));
}

// Debian's libtorch-dev headers through the stand-in TorchConfig: the
// extension sees torch's include directories and the stable headers in them.
TEST(CMakeFileApiReal, RealTorchHeadersReachTheTargets) {
  REQUIRE_CMAKE();
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string inc = test::real_torch_include();
  TorchLocation torch;
  torch.include_dirs = {inc, inc + "/torch/csrc/api/include"};
  torch.how = "real";
  FileApiResult r = configure_with_file_api(kModules + "/CMakeLists.txt", torch, {});
  ASSERT_TRUE(r.ok) << r.failure;
  for (const char* compiler : {"cxx", "nvcc"}) {
    const BuildConfiguration* c = find(r.configurations, "target _C", compiler);
    ASSERT_NE(c, nullptr) << dump(r.configurations);
    std::vector<std::string> system;
    for (size_t i = 0; i + 1 < c->arguments.size(); ++i)
      if (c->arguments[i] == "-isystem") system.push_back(c->arguments[i + 1]);
    EXPECT_EQ(system, torch.include_dirs) << compiler;
    bool stable = false;
    for (const auto& d : system) stable |= fs::exists(d + "/torch/csrc/stable/library.h");
    EXPECT_TRUE(stable) << compiler;
  }
  bool version = false;
  for (const auto& [k, v] : r.facts) version |= k == "find_package(Torch)" && v.find(inc) != std::string::npos;
  EXPECT_TRUE(version);
}

}  // namespace
}  // namespace torchabi::inputs

namespace torchabi::inputs {
namespace {

// A project asking for a newer CMake than the machine's: the copy's floor
// is lowered so that the configure runs; the user's file is not touched.
TEST(CMakeVersionFloor, AFloorAboveTheMachinesCMakeIsLoweredInTheCopy) {
  ScratchDir d("floor-test");
  const std::string lists = d.path() + "/CMakeLists.txt";
  std::ofstream(lists) << "CMAKE_MINIMUM_REQUIRED(VERSION 3.26...3.30 FATAL_ERROR)\nproject(x)\n"
                          "cmake_minimum_required(VERSION 3.10)\n";
  const auto lowered = lower_cmake_floor(d.path(), "3.25.1");
  ASSERT_EQ(lowered.size(), 1u);
  EXPECT_EQ(lowered[0].asked, "3.26");
  std::ifstream in(lists);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "CMAKE_MINIMUM_REQUIRED(VERSION 3.25.1...3.30 FATAL_ERROR)\nproject(x)\n"
                        "cmake_minimum_required(VERSION 3.10)\n");
  EXPECT_TRUE(lower_cmake_floor(d.path(), "3.25.1").empty());  // nothing above it any more
  EXPECT_TRUE(version_below("3.25.1", "3.26"));
  EXPECT_FALSE(version_below("3.26", "3.26.0"));
  EXPECT_FALSE(version_below("4.0", "3.31.9"));
}

TEST(CMakeVersionFloor, AProjectAskingForANewerCMakeIsConfiguredAnyway) {
  const std::string machine = machine_cmake_version("cmake");
  if (machine.empty()) GTEST_SKIP() << "no cmake";
  ScratchDir d("floor-project");
  std::ofstream(d.path() + "/CMakeLists.txt")
      << "cmake_minimum_required(VERSION 99.1)\nproject(newer CXX)\nadd_library(ops SHARED ops.cpp)\n";
  std::ofstream(d.path() + "/ops.cpp") << "int ops() { return 1; }\n";
  TorchLocation torch;
  FileApiOptions options;
  options.machine_cuda = false;
  const FileApiResult r = configure_with_file_api(d.path() + "/CMakeLists.txt", torch, options);
  ASSERT_TRUE(r.ok) << r.failure;
  bool told = false;
  for (const auto& [k, v] : r.facts) told |= k == "given to cmake" && v.find("VERSION 99.1") != std::string::npos;
  EXPECT_TRUE(told);
  std::ifstream in(d.path() + "/CMakeLists.txt");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "cmake_minimum_required(VERSION 99.1)");  // the user's file is as it was
}

// When such a project then fails (it used what only the newer CMake has),
// the failure says what it asked for and what the machine has.
TEST(CMakeVersionFloor, AFailureAfterALoweredFloorNamesBothVersions) {
  const std::string machine = machine_cmake_version("cmake");
  if (machine.empty()) GTEST_SKIP() << "no cmake";
  ScratchDir d("floor-fails");
  std::ofstream(d.path() + "/CMakeLists.txt")
      << "cmake_minimum_required(VERSION 99.1)\nproject(newer CXX)\ncommand_of_cmake_99()\n";
  TorchLocation torch;
  FileApiOptions options;
  options.machine_cuda = false;
  const FileApiResult r = configure_with_file_api(d.path() + "/CMakeLists.txt", torch, options);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.failure.find("Unknown CMake command \"command_of_cmake_99\""), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("the project asks for CMake 99.1 and this machine has " + machine), std::string::npos)
      << r.failure;
  EXPECT_EQ(r.failure.find('\n'), std::string::npos) << r.failure;
}

}  // namespace
}  // namespace torchabi::inputs
