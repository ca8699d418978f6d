// Issue 10's acceptance test: correct stable-ABI code, compiled against
// Debian's newest real PyTorch headers, gets no error and no warning from
// `torchabi lint` / `check`, while real defects are still reported where they
// are. The code is fixtures/real_stable (our own extension, see its README):
// every file states its lowest TORCH_TARGET_VERSION, and is linted through the
// real binary at that target and at the headers' own release (read from
// torch/headeronly/version.h), file by file and as a whole project (compile
// databases written here), plus `check` on a copy of the project with the
// libraries CMake built from it. Every false finding is printed as
// "rule file:line:col message" so a failure says what to fix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lint_fixtures.h"
#include "real_torch.h"

namespace torchabi::e2e::real_stable {
namespace {

namespace fs = std::filesystem;
using lint::read_all;
using nlohmann::json;

std::string root() { return source_dir() + "/fixtures/real_stable"; }

// A PyTorch release as TORCH_TARGET_VERSION spells it.
struct Release {
  int major = 0;
  int minor = 0;
  auto operator<=>(const Release&) const = default;
  std::string dotted() const { return std::to_string(major) + "." + std::to_string(minor); }
  std::string hex() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%02x%02x000000000000", major, minor);
    return buf;
  }
};

void PrintTo(const Release& r, std::ostream* os) { *os << r.dotted(); }

// The release of the headers in use, from their own version.h.
Release headers_release() {
  const std::string text = read_all(test::real_torch_include() + "/torch/headeronly/version.h");
  std::smatch ma, mi;
  static const std::regex major_re(R"(#define TORCH_VERSION_MAJOR (\d+))"), minor_re(R"(#define TORCH_VERSION_MINOR (\d+))");
  if (!std::regex_search(text, ma, major_re) || !std::regex_search(text, mi, minor_re)) {
    ADD_FAILURE() << "no TORCH_VERSION_MAJOR/MINOR in torch/headeronly/version.h";
    return {};
  }
  return {std::stoi(ma[1]), std::stoi(mi[1])};
}

// One fixture file and what its `// torchabi-fixture:` lines say.
struct FixtureFile {
  std::string path;  // absolute
  std::string rel;   // under fixtures/real_stable
  Release lowest;
  bool target_in_source = false;  // the file #defines TORCH_TARGET_VERSION itself
  std::vector<std::string> flags;
  bool needs_cuda = false;
  bool header = false;
};

FixtureFile read_markers(const fs::path& p) {
  FixtureFile f;
  f.path = p.string();
  f.rel = fs::relative(p, root()).string();
  f.header = p.extension() == ".h";
  static const std::regex lowest_re(R"(torchabi-fixture: lowest-target (\d+)\.(\d+)( in-source)?)");
  static const std::regex flags_re(R"(torchabi-fixture: flags (.*)$)");
  bool has_lowest = false;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, lowest_re)) {
      f.lowest = {std::stoi(m[1]), std::stoi(m[2])};
      f.target_in_source = m[3].matched;
      has_lowest = true;
    } else if (std::regex_search(line, m, flags_re)) {
      std::istringstream words(m[1].str());
      for (std::string w; words >> w;) f.flags.push_back(w);
    } else if (line.find("torchabi-fixture: needs cuda") != std::string::npos) {
      f.needs_cuda = true;
    }
  }
  EXPECT_TRUE(has_lowest) << f.rel << ": no '// torchabi-fixture: lowest-target X.Y' line";
  return f;
}

// A CUDA toolkit whose headers clang can be pointed at (the .cu fixture is
// only built and linted with one, as its marker says).
std::optional<std::string> cuda_home() {
  for (const char* dir : {"/usr/local/cuda", "/usr"})
    if (fs::exists(fs::path(dir) / "include/cuda_runtime.h")) return std::string(dir);
  return std::nullopt;
}

// The files under `sub` (csrc, include, defects) with their markers, minus
// CUDA sources where no toolkit is installed.
std::vector<FixtureFile> fixture_files(const std::string& sub) {
  std::vector<FixtureFile> out;
  for (const auto& e : fs::recursive_directory_iterator(root() + "/" + sub)) {
    const auto ext = e.path().extension();
    if (ext != ".cpp" && ext != ".cu" && ext != ".h") continue;
    FixtureFile f = read_markers(e.path());
    if (f.needs_cuda && !cuda_home()) continue;
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.rel < b.rel; });
  return out;
}

// The project's translation units.
std::vector<FixtureFile> project_sources() { return fixture_files("csrc"); }

// The compiler arguments a build would use for `f` at `target` (none: the
// file's own #define decides). The operator namespace is a -D flag, as
// PyTorch's own stable test extensions pass theirs.
std::vector<std::string> compile_args(const FixtureFile& f, std::optional<Release> target) {
  std::vector<std::string> args = {"-std=c++17", "-I" + root() + "/include", "-I" + test::real_torch_include(),
                                   "-DRS_LIB_NAME=rstable"};
  if (target) args.push_back("-DTORCH_TARGET_VERSION=" + target->hex());
  args.insert(args.end(), f.flags.begin(), f.flags.end());
  return args;
}

// The target a file is built with at its lowest release: its own #define
// when it has one, else the flag.
std::optional<Release> lowest_flag(const FixtureFile& f) {
  if (f.target_in_source) return std::nullopt;
  return f.lowest;
}

// compile_commands.json for `files`, each at `target(f)`, as g++ / nvcc
// command lines (what CMake exports for fixtures/real_stable).
std::string write_compile_db(const std::string& dir, const std::vector<FixtureFile>& files,
                             const std::function<std::optional<Release>(const FixtureFile&)>& target,
                             const std::string& source_root = "") {
  json db = json::array();
  for (const auto& f : files) {
    const std::string file = source_root.empty() ? f.path : source_root + "/" + f.rel;
    const bool cu = fs::path(f.path).extension() == ".cu";
    std::vector<std::string> args = {cu ? cuda_home().value_or("/usr") + "/bin/nvcc" : "/usr/bin/g++"};
    for (auto& a : compile_args(f, target(f))) {
      if (!source_root.empty() && a == "-I" + root() + "/include") a = "-I" + source_root + "/include";
      args.push_back(a);
    }
    args.insert(args.end(), {"-c", file, "-o", fs::path(f.rel).stem().string() + ".o"});
    db.push_back({{"directory", dir}, {"file", file}, {"arguments", args}});
  }
  fs::create_directories(dir);
  std::ofstream(dir + "/compile_commands.json") << db.dump(2);
  return dir;
}

bool error_or_warning(const json& finding) {
  const std::string severity = finding.value("severity", "");
  // rstable is correct stable-ABI code, not a package ready for torch.compile: its
  // Python registers fakes for four ops, and some ops return views of their
  // input without an alias annotation. Those findings are true (compile readiness
  // has its own fixtures: fixtures/schema/compile-*).
  const std::string rule = finding.value("rule", "");
  if (rule == "compile-missing-fake" || rule == "compile-undeclared-alias") return false;
  return severity == "error" || severity == "warning";
}

// "severity rule file:line:col message"
std::string describe(const json& f) {
  const auto& l = f["location"];
  return f.value("severity", "") + " " + f.value("rule", "") + " " + l.value("file", "") + ":" +
         std::to_string(l.value("line", 0)) + ":" + std::to_string(l.value("column", 0)) + " " + f.value("message", "");
}

// Every error and warning of a report: on correct code, each is a false finding.
std::vector<std::string> false_findings(const json& report) {
  std::vector<std::string> out;
  for (const auto& f : report.value("findings", json::array()))
    if (error_or_warning(f)) out.push_back(describe(f));
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

// Runs torchabi (lint and check with a fresh cache) and returns its JSON
// report, failing the test on a usage or input error (exit 2) or on a
// report without findings.
json run_json(std::vector<std::string> args, const std::string& what) {
  args.insert(args.begin() + 1, {"--format", "json"});
  if (args[0] != "audit") args.insert(args.begin() + 1, {"--cache-dir", make_temp_dir()});
  RunResult r = run_torchabi(args);
  EXPECT_NE(r.exit_code, 2) << what << ": torchabi could not analyse it\n" << r.err;
  json report = r.json();
  if (!report.is_object() || !report.contains("findings")) {
    ADD_FAILURE() << what << ": no report:\n" << r.out << r.err;
    return json{{"findings", json::array()}, {"subjects", json::array()}, {"summary", json::object()}};
  }
  // Exit code 1 exactly when an error is reported (the default --fail-on).
  EXPECT_EQ(r.exit_code == 1, report["summary"].value("error", 0) > 0) << what << "\n" << r.err;
  for (const auto& e : report.value("errors", json::array()))
    ADD_FAILURE() << what << ": not analysed: " << e.value("input", "") << ": " << e.value("message", "");
  return report;
}

// Every release a project-wide lint runs at: from 2.9, the stable ABI's
// first, up to the headers' own (after a major bump: the headers' only).
std::vector<Release> releases_up_to(const Release& last) {
  if (last.major != 2) return {last};
  std::vector<Release> out;
  for (int minor = 9; minor <= last.minor; ++minor) out.push_back({2, minor});
  return out;
}

TEST(RealStableFixture, EveryStableHeaderIsIncludedOrExcludedWithAReason) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string inc = test::real_torch_include();
  std::set<std::string> included;
  static const std::regex include_re(R"(#\s*include\s*<(torch/[^>]+)>)");
  for (const char* sub : {"csrc", "include"})
    for (const auto& e : fs::recursive_directory_iterator(root() + "/" + sub)) {
      const std::string text = read_all(e.path().string());
      for (std::sregex_iterator it(text.begin(), text.end(), include_re), end; it != end; ++it) included.insert((*it)[1]);
    }
  std::map<std::string, std::string> excluded;
  std::istringstream list(read_all(root() + "/excluded_headers.txt"));
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << "excluded_headers.txt: no reason after a tab: " << line;
    excluded[line.substr(0, tab)] = line.substr(tab + 1);
  }
  size_t headers = 0;
  for (const char* tree : {"torch/csrc/stable", "torch/headeronly"})
    for (const auto& e : fs::recursive_directory_iterator(inc + "/" + tree)) {
      if (e.path().extension() != ".h") continue;
      ++headers;
      const std::string rel = fs::relative(e.path(), inc).string();
      EXPECT_TRUE(included.count(rel) || excluded.count(rel))
          << rel << " (in the real headers) is included by no fixture under fixtures/real_stable and not listed in "
          << "excluded_headers.txt";
      EXPECT_FALSE(included.count(rel) && excluded.count(rel)) << rel << " is included, yet listed as excluded";
    }
  for (const auto& [rel, reason] : excluded)
    EXPECT_TRUE(fs::exists(inc + "/" + rel)) << "excluded_headers.txt lists " << rel << ", which the headers no longer have";
  EXPECT_GT(headers, 20u) << "the real stable headers look incomplete under " << inc;
}

TEST(RealStableFixture, TargetsSpanTheStableReleasesUpToTheHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const Release release = headers_release();
  std::set<Release> lowest;
  for (const auto& f : fixture_files("csrc")) {
    EXPECT_LE(f.lowest, release) << f.rel << " needs a newer release than the headers in use";
    EXPECT_GE(f.lowest, (Release{2, 9})) << f.rel << ": the stable ABI starts at 2.9";
    lowest.insert(f.lowest);
  }
  EXPECT_TRUE(lowest.count({2, 9})) << "no fixture targets the stable ABI's first release";
  EXPECT_GE(lowest.size(), 4u) << "the fixtures should target several releases";
}

// A test name for a fixture path: csrc/boxed_by_hand.cpp -> csrc_boxed_by_hand_cpp.
std::string test_name(const std::string& rel) {
  std::string name = rel;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// The files of `subs` (relative paths), for parameterised tests: listed
// without reading their markers, so that a bad marker fails a test rather
// than the listing.
std::vector<std::string> fixture_paths(std::initializer_list<const char*> subs) {
  std::vector<std::string> out;
  for (const char* sub : subs) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root() + "/" + sub, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext != ".cpp" && ext != ".cu" && ext != ".h") continue;
      if (ext == ".cu" && !cuda_home()) continue;  // needs cuda (the .cu files say so)
      out.push_back(fs::relative(it->path(), root()).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Each file alone, at its lowest target and at the headers' release: a
// partial view of the project, so cross-file registration checks may only
// be notes here.
class RealStableFile : public ::testing::TestWithParam<std::string> {};

TEST_P(RealStableFile, LintedAloneHasNoFalseFindings) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const Release release = headers_release();
  const FixtureFile f = read_markers(root() + "/" + GetParam());
  std::vector<std::optional<Release>> targets = {lowest_flag(f)};
  if (f.lowest != release) targets.push_back(release);
  for (const auto& target : targets) {
    std::vector<std::string> args = {"lint", f.path, "--"};
    for (auto& a : compile_args(f, target)) args.push_back(a);
    const std::string what = f.rel + " at " + (target ? target->dotted() : f.lowest.dotted() + " (set in the source)");
    json report = run_json(args, what);
    auto wrong = false_findings(report);
    EXPECT_TRUE(wrong.empty()) << what << ": " << wrong.size() << " false finding(s):\n" << joined(wrong);
  }
}

INSTANTIATE_TEST_SUITE_P(RealStable, RealStableFile, ::testing::ValuesIn(fixture_paths({"csrc", "include"})),
                         [](const auto& info) { return test_name(info.param); });

// The whole project through a compile database, each file at its lowest
// target: defs meet their impls across files, so every registration check
// runs at full strength.
TEST(RealStableLint, WholeProjectAtEachFilesLowestTargetHasNoFalseFindings) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto files = project_sources();
  const std::string db = write_compile_db(make_temp_dir() + "/build", files, lowest_flag);
  json report = run_json({"lint", "-p", db, "--project-root", root()}, "the project at each file's lowest target");
  auto wrong = false_findings(report);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " false finding(s):\n" << joined(wrong);
  size_t tus = 0;
  for (const auto& s : report["subjects"]) tus += s.value("kind", "") == "translation-unit";
  EXPECT_EQ(tus, files.size()) << "every source of the database is a translation unit of the report";
}

// The whole project built for one release at a time, from 2.9 to the
// headers' own: the files that support that release, all at it (as a
// package built for that release would compile them).
class RealStableRelease : public ::testing::TestWithParam<Release> {};

TEST_P(RealStableRelease, WholeProjectHasNoFalseFindings) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const Release target = GetParam();
  std::vector<FixtureFile> supported;
  for (const auto& f : project_sources())
    if (f.lowest <= target) supported.push_back(f);
  const std::string db = write_compile_db(make_temp_dir() + "/build", supported, [&](const FixtureFile&) { return target; });
  json report = run_json({"lint", "-p", db, "--project-root", root()}, "the project at " + target.dotted());
  auto wrong = false_findings(report);
  EXPECT_TRUE(wrong.empty()) << "at " << target.dotted() << " (" << supported.size() << " files): " << wrong.size()
                             << " false finding(s):\n"
                             << joined(wrong);
}

// 2.9 up to the headers' release; 2.9 alone (skipped) without real PyTorch.
std::vector<Release> project_releases() {
  if (!test::real_torch_root()) return {{2, 9}};
  return releases_up_to(headers_release());
}

INSTANTIATE_TEST_SUITE_P(RealStable, RealStableRelease, ::testing::ValuesIn(project_releases()),
                         [](const auto& info) { return "at_" + std::to_string(info.param.major) + "_" +
                                                       std::to_string(info.param.minor); });

// `torchabi check` on a copy of the project: its build directory holds the
// compile database and the two libraries CMake built from these sources
// (each file at its lowest target; every file at the headers' release).
std::string built_library(const std::string& variant) {
  return build_dir() + "/fixtures/real_stable/libreal_stable_" + variant + ".so";
}

#define REQUIRE_BUILT(path)                                                                         \
  ASSERT_TRUE(fs::exists(path)) << (path) << " was not built: configure the build after "           \
                                << "scripts/fetch-torch.sh (fixtures/real_stable is only added when " \
                                << "the real headers are there)"

TEST(RealStableCheck, ProjectAndItsLibrariesHaveNoFalseFindings) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const Release release = headers_release();
  const std::string project = make_temp_dir() + "/rstable";
  fs::create_directories(project);
  for (const char* sub : {"csrc", "include", "python"})
    fs::copy(root() + "/" + sub, project + "/" + sub, fs::copy_options::recursive);
  const std::string build = project + "/build";
  write_compile_db(build, project_sources(), lowest_flag, project);
  for (const char* variant : {"lowest", "release"}) {
    REQUIRE_BUILT(built_library(variant));
    fs::copy_file(built_library(variant), build + "/" + fs::path(built_library(variant)).filename().string());
  }
  json report = run_json({"check", "--target-version", release.dotted(), project}, "check on the project");
  auto wrong = false_findings(report);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " false finding(s):\n" << joined(wrong);
  size_t libs = 0, tus = 0;
  for (const auto& s : report["subjects"]) {
    libs += s.value("kind", "") == "library";
    tus += s.value("kind", "") == "translation-unit";
    if (s.value("kind", "") == "library") {
      EXPECT_EQ(s.value("verdict", ""), "STABLE") << s.dump();
    }
  }
  EXPECT_EQ(libs, 2u);
  EXPECT_EQ(tus, project_sources().size());
}

// The files that support 2.9, built at 2.9: the library loads on 2.9, so
// the audit finds nothing newer than 2.9 among its imports.
TEST(RealStableCheck, BaselineLibraryLoadsOnTheFirstStableRelease) {
  TORCHABI_REQUIRE_REAL_TORCH();
  REQUIRE_BUILT(built_library("baseline"));
  json report = run_json({"audit", "--target-version", "2.9", built_library("baseline")}, "the 2.9 library");
  auto wrong = false_findings(report);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " false finding(s):\n" << joined(wrong);
  ASSERT_EQ(report["subjects"].size(), 1u);
  const auto& lib = report["subjects"][0];
  EXPECT_EQ(lib.value("verdict", ""), "STABLE") << lib.dump();
  EXPECT_TRUE(lib.value("floor_is_baseline", false)) << "floor " << lib["floor"].dump() << ", set by "
                                                       << lib["floor_set_by"].dump();
}

// The deliberate-defect twins: each finding a `// DEFECT: rule [at FILE:LINE] [col N]`
// (several on a line separated by `; `)
// comment announces is reported on that line (and column), and nothing else
// is reported as an error or a warning.
struct Expected {
  std::string rule;
  bool note = false;  // announced as `NOTE: rule`: reported there at any severity
  int line = 0;
  int column = 0;    // 0: any
  std::string file;  // the file's name when not the announcing file (`at registration.h:20`)
};

std::vector<Expected> announced_defects(const std::string& path) {
  std::vector<Expected> out;
  // One line may announce several: `// DEFECT: rule-a; DEFECT: rule-b col 3`;
  // one reported in a header the line uses: `DEFECT: rule at header.h:20 col 3`.
  // A header's #error under the target is a note beside the include's error (one defect, one error):
  // `NOTE: build-header-error` announces it.
  static const std::regex defect_re(R"((DEFECT|NOTE): ([a-z0-9-]+)(?: at ([A-Za-z0-9_.]+):(\d+))?(?: col (\d+))?)");
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const size_t comment = line.find("// DEFECT: ");
    if (comment == std::string::npos) continue;
    const std::string tail = line.substr(comment);
    for (std::sregex_iterator it(tail.begin(), tail.end(), defect_re), end; it != end; ++it)
      out.push_back({(*it)[2], (*it)[1] == "NOTE", (*it)[4].matched ? std::stoi((*it)[4]) : n,
                     (*it)[5].matched ? std::stoi((*it)[5]) : 0, (*it)[3].matched ? std::string((*it)[3]) : std::string()});
  }
  return out;
}

class RealStableDefect : public ::testing::TestWithParam<std::string> {};

TEST_P(RealStableDefect, ReportedAtItsExactLocation) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const FixtureFile f = read_markers(root() + "/" + GetParam());
  const auto expected = announced_defects(f.path);
  ASSERT_FALSE(expected.empty()) << f.rel << " announces no DEFECT";
  std::vector<std::string> args = {"lint", f.path, "--"};
  for (auto& a : compile_args(f, lowest_flag(f))) args.push_back(a);
  json report = run_json(args, f.rel);
  std::vector<bool> matched(expected.size(), false);
  std::vector<std::string> unexpected;
  for (const auto& finding : report["findings"]) {
    const bool counts = error_or_warning(finding);
    const auto& l = finding["location"];
    bool hit = false;
    for (size_t i = 0; i < expected.size(); ++i) {
      const auto& e = expected[i];
      if (e.note == counts) continue;  // a DEFECT is an error or warning; a NOTE is a note
      if (finding.value("rule", "") == e.rule && l.value("line", 0) == e.line &&
          (e.column == 0 || l.value("column", 0) == e.column) &&
          fs::path(l.value("file", "")).filename() == (e.file.empty() ? fs::path(f.path).filename() : fs::path(e.file)))
        matched[i] = hit = true;
    }
    if (!hit && counts) unexpected.push_back(describe(finding));
  }
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(matched[i]) << f.rel << ":" << expected[i].line << ":" << expected[i].column << ": " << expected[i].rule
                            << " was not reported there; the report:\n"
                            << joined(false_findings(report));
  EXPECT_TRUE(unexpected.empty()) << f.rel << ": findings besides the announced defects:\n" << joined(unexpected);
}

INSTANTIATE_TEST_SUITE_P(RealStable, RealStableDefect, ::testing::ValuesIn(fixture_paths({"defects"})),
                         [](const auto& info) { return test_name(info.param); });

// A compile database can list a file more than once: one library per
// target built from the same sources (PyTorch's own libtorch_agn_2_10
// extension compiles the 2.9 extension's sources again at 2.10). Every
// configuration is linted: a defect of the 2.9 build is reported although
// the database lists the file's build at the headers' release first.
TEST(RealStableDefects, ReportedInEveryConfigurationOfTheDatabase) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const FixtureFile f = read_markers(root() + "/defects/api_above_target.cpp");
  const auto expected = announced_defects(f.path);
  ASSERT_EQ(expected.size(), 1u);
  const std::string dir = make_temp_dir() + "/build";
  json db = json::array();
  for (const Release& target : {headers_release(), f.lowest}) {
    std::vector<std::string> args = {"/usr/bin/g++"};
    for (auto& a : compile_args(f, target)) args.push_back(a);
    args.insert(args.end(), {"-c", f.path, "-o", "api_above_target_" + target.dotted() + ".o"});
    db.push_back({{"directory", dir}, {"file", f.path}, {"arguments", args}});
  }
  fs::create_directories(dir);
  std::ofstream(dir + "/compile_commands.json") << db.dump(2);
  json report = run_json({"lint", "-p", dir, "--project-root", root()}, "a database with two builds of " + f.rel);
  EXPECT_NE(lint::finding_at(report, expected[0].rule, expected[0].line, expected[0].column), nullptr)
      << f.rel << ":" << expected[0].line << ":" << expected[0].column << ": " << expected[0].rule
      << " (the " << f.lowest.dotted() << " build) was not reported; the report:\n"
      << joined(false_findings(report));
}

}  // namespace
}  // namespace torchabi::e2e::real_stable
