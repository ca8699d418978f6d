// What `torchabi lint` reads and how it fails: compile databases written by
// CMake, bear and setuptools (ninja -t compdb), explicit flags after --, bad
// input (exit 2 only when nothing could be analysed), -j and the cache.
#include <gtest/gtest.h>

#include <thread>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

// A light TU using c10: the same findings whichever tool wrote the database.
std::string light_project() {
  const std::string src = make_temp_dir();
  write_file(src, "csrc/checks.cpp",
             "#include <c10/util/Exception.h>\n"
             "#include \"local.h\"\n"
             "void check(int n) { TORCH_CHECK(n > LIMIT, \"n too small\"); }\n");
  write_file(src, "csrc/include/local.h", "#pragma once\n#define LIMIT 0\n");
  return src;
}

std::vector<Found> expected_light(const std::string& src) {
  return {{src + "/csrc/checks.cpp", 1, 1, "c10/util/Exception.h"}};
}

TEST(LintInputs, CMakeCommandString) {
  const std::string src = light_project();
  const std::string build = src + "/build";
  std::filesystem::create_directories(build);
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << build << "\", \"command\": \"/usr/bin/c++ -I" << src
      << "/csrc/include -O2 -std=gnu++17 -o CMakeFiles/x.dir/csrc/checks.cpp.o -c " << src
      << "/csrc/checks.cpp\", \"file\": \"" << src << "/csrc/checks.cpp\"}]";
  auto r = lint_json({"-p", build});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-unstable-include"), expected_light(src));
  EXPECT_EQ(findings_of(j, "source-unstable-macro").size(), 1u);
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty());  // local.h was found through -I
}

TEST(LintInputs, BearArgumentsWithRelativePaths) {
  const std::string src = light_project();
  std::ofstream(src + "/compile_commands.json")
      << "[{\"arguments\": [\"g++\", \"-c\", \"-Icsrc/include\", \"-std=c++17\", \"-o\", \"checks.o\", \"csrc/checks.cpp\"],"
      << " \"directory\": \"" << src << "\", \"file\": \"csrc/checks.cpp\"}]";
  auto r = lint_json({"-p", src});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-unstable-include"), expected_light(src));
  EXPECT_TRUE(findings_of(j, "source-parse-incomplete").empty());
}

TEST(LintInputs, SetuptoolsNinjaDatabaseWithNvccAndCuda) {
  const std::string src = fixture("legacy_ext");
  const std::string build = make_compile_db("legacy_ext/compdb/setuptools.json", src, make_temp_dir());
  auto r = lint_json({"-p", build, src + "/csrc/kernel.cu"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = r.json();
  EXPECT_EQ(findings_of(j, "source-unstable-macro"),
            (std::vector<Found>{{src + "/csrc/kernel.cu", 12, 3, "C10_CUDA_KERNEL_LAUNCH_CHECK"}}));
  EXPECT_EQ(findings_of(j, "source-unstable-include"),
            (std::vector<Found>{{src + "/csrc/kernel.cu", 2, 1, "c10/cuda/CUDAException.h"}}));
  ASSERT_EQ(j["subjects"].size(), 1u);
  EXPECT_EQ(j["subjects"][0]["verdict"], "UNSTABLE");
}

TEST(LintInputs, ExplicitFlagsAfterDoubleDash) {
  const std::string src = light_project();
  auto without = lint_json({src + "/csrc/checks.cpp", "--", "-std=c++17"});
  EXPECT_EQ(findings_of(without.json(), "source-parse-incomplete").size(), 1u);  // local.h not found
  auto with = lint_json({src + "/csrc/checks.cpp", "--", "-std=c++17", "-I", src + "/csrc/include"});
  EXPECT_TRUE(findings_of(with.json(), "source-parse-incomplete").empty());
  EXPECT_EQ(findings_of(with.json(), "source-unstable-include"), expected_light(src));
}

// A -fopenmp source parses where g++ -fopenmp compiles it: <omp.h> from
// GCC's include directory, its deallocator attributes read as plain.
TEST(LintInputs, OpenMpSourcesFindOmpH) {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/omp_user.cpp") << "#include <omp.h>\nint threads() { return omp_get_max_threads(); }\n";
  if (std::system("g++ -fopenmp -fsyntax-only -x c++ /dev/null 2>/dev/null") != 0) GTEST_SKIP() << "no g++ -fopenmp";
  auto with = lint_json({dir + "/omp_user.cpp", "--", "-std=c++17", "-fopenmp"});
  EXPECT_TRUE(findings_of(with.json(), "source-parse-incomplete").empty()) << with.out;
}

TEST(LintInputs, MissingDatabaseIsOneLineExit2) {
  const std::string dir = make_temp_dir();
  auto r = run_torchabi({"lint", "-p", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(dir), std::string::npos);
  EXPECT_NE(r.err.find("no compile_commands.json"), std::string::npos);
  EXPECT_TRUE(r.out.empty());
}

TEST(LintInputs, MalformedDatabaseIsOneLineExit2) {
  const std::string dir = make_temp_dir();
  std::ofstream(dir + "/compile_commands.json") << "[{\"file\": \"a.cpp\",";
  auto r = run_torchabi({"lint", "-p", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("malformed compile database"), std::string::npos) << r.err;
}

TEST(LintInputs, NothingGivenIsExit2) {
  auto r = run_torchabi({"lint"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no compile_commands.json here"), std::string::npos) << r.err;
  auto unknown = run_torchabi({"lint", "--no-such-option", "a.cpp"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << unknown.err;
}

TEST(LintInputs, FileNotInDatabaseAndMissingFlagFileAreNotesWhenOthersWereAnalysed) {
  const std::string src = light_project();
  write_file(src, "csrc/other.cpp", "int other() { return 0; }\n");
  write_file(src, "csrc/rsp.cpp", "int rsp() { return 0; }\n");
  const std::string build = src + "/build";
  std::filesystem::create_directories(build);
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << build << "\", \"command\": \"c++ -I" << src << "/csrc/include -c " << src
      << "/csrc/checks.cpp\", \"file\": \"" << src << "/csrc/checks.cpp\"},"
      << " {\"directory\": \"" << build << "\", \"command\": \"c++ @missing_flags.rsp -c " << src
      << "/csrc/rsp.cpp\", \"file\": \"" << src << "/csrc/rsp.cpp\"}]";
  auto r = lint_json({"-p", build, src + "/csrc/checks.cpp", src + "/csrc/other.cpp", src + "/csrc/rsp.cpp"});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // checks.cpp's findings
  auto j = r.json();
  auto notes = findings_of(j, "source-tu-not-analysed");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(findings_of(j, "source-unstable-include"), expected_light(src));
  EXPECT_NE(r.err.find("other.cpp: not analysed: not in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing_flags.rsp: compiler flag file not found"), std::string::npos) << r.err;
}

TEST(LintInputs, NothingAnalysableIsExit2WithALinePerInput) {
  const std::string src = light_project();
  const std::string build = src + "/build";
  std::filesystem::create_directories(build);
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << build << "\", \"command\": \"c++ -c gone.cpp\", \"file\": \"gone.cpp\"}]";
  auto r = run_torchabi({"lint", "-p", build, "--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("gone.cpp: file not found"), std::string::npos) << r.err;
}

TEST(LintInputs, ParallelRunsGiveTheSameReport) {
  const std::string src = fixture("legacy_ext");
  const std::string build = make_temp_dir();
  std::ofstream(build + "/compile_commands.json")
      << "[{\"directory\": \"" << build << "\", \"command\": \"c++ -std=c++17 -c " << fixture("source-unstable-macro/fires.cpp")
      << "\", \"file\": \"" << fixture("source-unstable-macro/fires.cpp") << "\"},"
      << " {\"directory\": \"" << build << "\", \"command\": \"c++ -std=c++17 -c " << fixture("source-unstable-include/fires.cpp")
      << "\", \"file\": \"" << fixture("source-unstable-include/fires.cpp") << "\"},"
      << " {\"directory\": \"" << build << "\", \"command\": \"c++ -std=c++17 -c " << fixture("source-shim-declaration-mismatch/fires.cpp")
      << "\", \"file\": \"" << fixture("source-shim-declaration-mismatch/fires.cpp") << "\"}]";
  auto one = lint_json({"-p", build, "-j", "1"});
  auto three = lint_json({"-p", build, "-j", "3"});
  ASSERT_EQ(one.exit_code, 1) << one.err;
  auto a = one.json(), b = three.json();
  EXPECT_EQ(a["findings"], b["findings"]);
  EXPECT_EQ(a["subjects"], b["subjects"]);
  EXPECT_EQ(a["subjects"].size(), 3u);
}

TEST(LintInputs, UnchangedRerunComesFromTheCacheAndAnEditInvalidatesIt) {
  const std::string src = light_project();
  const std::string cache = make_temp_dir();
  const std::string file = src + "/csrc/checks.cpp";
  std::vector<std::string> args = {"lint", "-v", "--format", "json", "--cache-dir", cache, file, "--", "-I", src + "/csrc/include"};
  auto first = run_torchabi(args);
  EXPECT_NE(first.err.find("1 translation units analysed, 0 of them from the cache"), std::string::npos) << first.err;
  auto second = run_torchabi(args);
  EXPECT_NE(second.err.find("1 translation units analysed, 1 of them from the cache"), std::string::npos) << second.err;
  EXPECT_EQ(first.json()["findings"], second.json()["findings"]);
  // An edit to an included project header invalidates the entry.
  write_file(src, "csrc/include/local.h", "#pragma once\n#define LIMIT 1\n");
  auto third = run_torchabi(args);
  EXPECT_NE(third.err.find("0 of them from the cache"), std::string::npos) << third.err;
  auto no_cache = run_torchabi({"lint", "-v", "--no-cache", file, "--", "-I", src + "/csrc/include"});
  EXPECT_NE(no_cache.err.find("0 of them from the cache"), std::string::npos) << no_cache.err;
}

TEST(LintInputs, TorchHeadersInTheFlagsDefineApiVersions) {
  // Rules that do not know torch::stable::reshape: only the stand-in headers'
  // own guard (read by the automatic import) says it needs 2.10.
  const std::string rules = make_temp_dir() + "/rules";
  std::filesystem::copy(source_dir() + "/rules", rules, std::filesystem::copy_options::recursive);
  std::string cxx = read_all(rules + "/api/stable_cxx_apis.tsv");
  auto at = cxx.find("torch::stable::reshape\t");
  ASSERT_NE(at, std::string::npos);
  cxx.erase(at, cxx.find('\n', at) - at + 1);
  std::ofstream(rules + "/api/stable_cxx_apis.tsv") << cxx;
  const std::string file = write_file(make_temp_dir(), "r.cpp",
                                      "#include <torch/csrc/stable/ops.h>\n"
                                      "torch::stable::Tensor f(const torch::stable::Tensor& t) { return torch::stable::reshape(t, {-1}); }\n");
  std::vector<std::string> common = {"--rules-dir", rules, "lint", "--format", "json", "--cache-dir", make_temp_dir(), file, "--",
                                     "-std=c++17", "-I", stand_ins(), "-DTORCH_TARGET_VERSION=0x0209000000000000"};
  auto imported = run_torchabi(common);
  EXPECT_EQ(findings_of(imported.json(), "version-api-after-target"),
            (std::vector<Found>{{file, 2, 81, "torch::stable::reshape"}}))
      << imported.out;
  common.insert(common.begin() + 7, "--no-torch-import");
  auto shipped_only = run_torchabi(common);
  EXPECT_TRUE(findings_of(shipped_only.json(), "version-api-after-target").empty()) << shipped_only.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint

namespace torchabi::e2e::lint {
namespace {

// A file linted alone, as `lint csrc/op.cpp -- -Iinclude` from the project:
// its headers under include/ are the project's because the project is marked
// (setup.py here; .git or pyproject.toml alike), so the project macro defined
// there is followed to the torch macro it expands to.
TEST(LintInputs, AFileLintedAloneHasItsProjectsHeadersAsTheProjects) {
  const std::string src = make_temp_dir();
  write_file(src, "include/reg.h",
             "#pragma once\n#define LEGACY_IMPL(NAME, DEVICE, MODULE) \\\n  TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)\n");
  write_file(src, "csrc/op.cpp", "#include <reg.h>\nLEGACY_IMPL(ops, CPU, m) {\n}\n");
  auto lint = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"lint", "--format", "json", "--cache-dir", make_temp_dir()};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const char* a : {"csrc/op.cpp", "--", "-std=c++17", "-Iinclude"}) args.push_back(a);
    return run_torchabi(args, src).json();
  };
  // No marker: the project is csrc/, and include/reg.h is someone else's header.
  EXPECT_TRUE(findings_of(lint({}), "source-unstable-macro").empty());
  write_file(src, "setup.py", "# the project's packaging\n");
  // The project's LEGACY_IMPL: reported in its #define, not where it is expanded.
  const std::vector<Found> expected = {{"include/reg.h", 3, 3, "TORCH_LIBRARY_IMPL"}};
  EXPECT_EQ(findings_of(lint({}), "source-unstable-macro"), expected);
  std::filesystem::remove(src + "/setup.py");
  EXPECT_EQ(findings_of(lint({"--project-root", src}), "source-unstable-macro"), expected);
}

}  // namespace
}  // namespace torchabi::e2e::lint
