// version-api-after-target dates each use by the declaration clang resolved:
// the TORCH_FEATURE_VERSION guards around it, not the name. On the stand-in
// headers and on PyTorch's real ones (Debian's newest,
// tests/support/real_torch.h): FeatureGuards agrees with clang's own
// preprocessor on every line at every target; the 2.9 overloads of
// new_empty/new_zeros are no finding at any target from 2.9 to the headers'
// own release, while an API above the target is reported where it is used;
// the rules' name table decides only for headers without guards.
#include <gtest/gtest.h>

#include <clang-c/Index.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "analyzers/source/feature_guards.h"
#include "analyzers/source/front_end.h"
#include "real_headers.h"

namespace torchabi::source::test {
namespace {

namespace fs = std::filesystem;
using Positions = std::vector<std::pair<uint32_t, uint32_t>>;

std::string target_flag(TorchVersion v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "-DTORCH_TARGET_VERSION=0x%016llx", static_cast<unsigned long long>(v.encoded()));
  return buf;
}

// Lints fixtures/lint/version-api-after-target/<fixture> (with its .flags)
// against the headers under `include`, with the rules of `e`.
TuResult lint_with(const std::string& fixture, const LintEnv& e, const std::string& include,
                   std::vector<std::string> extra = {}) {
  const std::string cpp = lint_fixture("version-api-after-target/" + fixture);
  std::vector<std::string> flags = {"-std=c++17", "-I", include};
  for (auto& f : fixture_flags(cpp)) flags.push_back(f);
  for (auto& f : extra) flags.push_back(f);
  auto args = inputs::translate_flags(cpp, flags, fs::path(cpp).parent_path().string());
  return analyze_translation_unit(args, e, {fs::path(cpp).parent_path().string()});
}

TuResult lint_real(const std::string& fixture, const LintEnv& e, std::vector<std::string> extra = {}) {
  return lint_with(fixture, e, ::torchabi::test::real_torch_include(), std::move(extra));
}

// The shipped rules overlaid with what `rules import` read from the real
// headers: what `torchabi lint -I <real include>` uses.
const LintEnv& imported_env() {
  static const LintEnv e = [] {
    LintEnv x = env();
    merge_imported(x.stable_apis, real_import());
    return x;
  }();
  return e;
}

// A name table that dates every name by its newest overload, as the import
// did before it saw `< 2.10` branches, and says baseline for reshape: the
// declaration must win over both.
LintEnv misleading_env() {
  LintEnv x = env();
  const TorchVersion own = real_release();
  for (const char* name : {"torch::stable::new_empty", "torch::stable::new_zeros", "torch::stable::copy_",
                           "torch::stable::transpose"})
    x.stable_apis.add(StableApi{name, own, false, "function", "torch/csrc/stable/ops.h"}, true);
  x.stable_apis.add(StableApi{"torch::stable::reshape", x.stable_apis.baseline(), true, "function", "torch/csrc/stable/ops.h"},
                    true);
  return x;
}

bool parse_complete(const TuResult& r) {
  for (const auto& f : r.findings)
    if (f.rule == "source-parse-incomplete") return false;
  return r.failure.empty();
}

std::string listing(const TuResult& r) {
  std::string s;
  for (const auto& f : r.findings)
    s += f.rule + " " + std::to_string(f.location.line) + ":" + std::to_string(f.location.column) + " " + f.message + "\n";
  return s;
}

TEST(VersionDating, StandInOverloadForOldTargetsIsDatedByItsGuard) {
  LintEnv misleading = env();
  misleading.stable_apis.add(StableApi{"torch::stable::new_empty", TorchVersion{2, 10, 0}, false, "function",
                                       "torch/csrc/stable/ops.h"},
                             true);
  for (const LintEnv* e : {&env(), static_cast<const LintEnv*>(&misleading)}) {
    TuResult r = lint_with("overloads_2_9.cpp", *e, stand_in_include());
    ASSERT_TRUE(parse_complete(r)) << listing(r);
    EXPECT_TRUE(positions(r, "version-api-after-target").empty()) << listing(r);
    ASSERT_TRUE(r.subject.floor.has_value());
    EXPECT_TRUE(r.subject.floor_is_baseline) << r.subject.loads_on;
  }
}

TEST(VersionDating, HeadersWithoutTheMechanismAreDatedByTheRules) {
  TuResult r = lint_file(lint_fixture("version-api-after-target/unversioned.cpp"), {}, false);
  ASSERT_TRUE(parse_complete(r)) << listing(r);
  EXPECT_EQ(positions(r, "version-api-after-target"), (Positions{{8, 3}})) << listing(r);
}

TEST(RealHeaderVersions, TwoNineOverloadsAreNoFindingAtAnyTarget) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto targets = real_targets();
  ASSERT_GE(targets.size(), 2u) << "headers' release " << real_release().str();
  const LintEnv misleading = misleading_env();
  for (const TorchVersion& t : targets) {
    for (const LintEnv* e : {&imported_env(), &misleading}) {
      TuResult r = lint_real("real_overloads.cpp", *e, {target_flag(t)});
      ASSERT_TRUE(parse_complete(r)) << t.str() << "\n" << r.failure << listing(r);
      EXPECT_TRUE(positions(r, "version-api-after-target").empty()) << t.str() << "\n" << listing(r);
      EXPECT_TRUE(positions(r, "version-target-implausible").empty()) << t.str() << "\n" << listing(r);
      if (e == &imported_env() && t != targets.front()) {
        // The 2.10 overloads resolved here set the floor; the summary says
        // older overloads exist rather than claiming 2.10 is the lowest.
        bool noted = false;
        for (const auto& [k, v] : r.subject.facts) noted = noted || v.find("also declared for older targets") != std::string::npos;
        EXPECT_TRUE(noted) << t.str() << " " << r.subject.loads_on;
      }
    }
  }
  // At the baseline nothing newer is used: the 2.9 overloads were resolved.
  TuResult r = lint_real("real_overloads.cpp", misleading, {target_flag(targets.front())});
  ASSERT_TRUE(r.subject.floor.has_value());
  EXPECT_EQ(*r.subject.floor, targets.front());
  EXPECT_TRUE(r.subject.floor_is_baseline);
}

TEST(RealHeaderVersions, ApiHiddenBelowItsReleaseIsReportedAtTheCall) {
  TORCHABI_REQUIRE_REAL_TORCH();
  for (const LintEnv* e : {&env(), &imported_env()}) {
    TuResult r = lint_real("real_fires.cpp", *e);
    EXPECT_EQ(positions(r, "version-api-after-target"), (Positions{{11, 84}})) << listing(r);
    const findings::Finding* f = find_finding(r, "version-api-after-target", 11, 84);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->location.symbol, "torch::stable::reshape");
    EXPECT_NE(f->message.find("introduced in PyTorch 2.10"), std::string::npos) << f->message;
  }
}

TEST(RealHeaderVersions, LateTargetIsComparedWithTheResolvedDeclarations) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const LintEnv misleading = misleading_env();
  for (const LintEnv* e : {&imported_env(), &misleading}) {
    TuResult r = lint_real("real_late_define.cpp", *e);
    // new_empty resolves to the 2.10 overload (no target when the headers
    // were read) and reshape is 2.10; transpose has no guard.
    EXPECT_EQ(positions(r, "version-api-after-target"), (Positions{{10, 29}, {11, 35}})) << listing(r);
    for (const auto& f : r.findings)
      if (f.rule == "version-api-after-target") {
        EXPECT_NE(f.message.find("introduced in PyTorch 2.10,"), std::string::npos) << f.message;
        ASSERT_EQ(f.notes.size(), 2u);
        EXPECT_NE(f.notes[1].find("compiled for TORCH_FEATURE_VERSION >= 2.10"), std::string::npos) << f.notes[1];
      }
  }
}

// Lines of `file` clang skipped as inactive preprocessor branches.
std::vector<std::pair<unsigned, unsigned>> skipped_lines(CXTranslationUnit tu, const std::string& file) {
  std::vector<std::pair<unsigned, unsigned>> out;
  CXFile f = clang_getFile(tu, file.c_str());
  if (!f) return out;
  if (CXSourceRangeList* list = clang_getSkippedRanges(tu, f)) {
    for (unsigned i = 0; i < list->count; ++i) {
      unsigned b = 0, e = 0;
      clang_getSpellingLocation(clang_getRangeStart(list->ranges[i]), nullptr, &b, nullptr, nullptr);
      clang_getSpellingLocation(clang_getRangeEnd(list->ranges[i]), nullptr, &e, nullptr, nullptr);
      out.emplace_back(b, e);
    }
    clang_disposeSourceRangeList(list);
  }
  return out;
}

TEST(RealHeaderVersions, FeatureGuardsAgreeWithClangOnEveryLineAtEveryTarget) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const auto headers = stable_header_files(::torchabi::test::real_torch_include(), env().classifier);
  ASSERT_FALSE(headers.empty());
  const std::string main = ::testing::TempDir() + "/all_stable_headers_" + std::to_string(::getpid()) + ".cpp";
  {
    std::ofstream out(main);
    for (const auto& h : headers) out << "#include \"" << h << "\"\n";
  }
  std::map<std::string, FeatureGuards> guards;
  for (const auto& h : headers) guards.emplace(h, FeatureGuards::scan(read_file(h)));
  size_t guarded_lines_checked = 0;
  for (const TorchVersion& t : real_targets()) {
    auto args = inputs::translate_flags(main, {"-std=c++17", "-I", ::torchabi::test::real_torch_include(), target_flag(t)},
                                        fs::path(main).parent_path().string());
    ParseOutcome p = parse_translation_unit(ParseRequest{args, {}, &env().classifier});
    ASSERT_TRUE(p.tu) << p.error;
    size_t excluded = 0;
    for (const auto& h : headers) {
      const std::string text = read_file(h);
      auto skipped = skipped_lines(p.tu->raw(), h);
      const FeatureGuards& g = guards.at(h);
      unsigned line = 0;
      std::istringstream in(text);
      for (std::string l; std::getline(in, l);) {
        ++line;
        const size_t k = l.find_first_not_of(" \t\r");
        if (k == std::string::npos || l[k] == '#') continue;  // blank lines and directives
        bool clang_skipped = false;
        for (auto [b, e] : skipped) clang_skipped = clang_skipped || (line > b && line < e);
        const VersionSet& at = g.compiled_at(line);
        if (!at.contains(t.encoded())) {
          ++excluded;
          EXPECT_TRUE(clang_skipped) << h << ":" << line << " compiled by clang at " << t.str()
                                     << " but FeatureGuards says " << at.str();
        }
        if (!at.is_all()) ++guarded_lines_checked;
      }
    }
    EXPECT_GT(excluded, 0u) << "no line of the stable headers is hidden at " << t.str();
  }
  EXPECT_GT(guarded_lines_checked, 0u);
  fs::remove(main);
}

TEST(RealHeaderVersions, TwoNineOverloadsSitUnderAnUpperBound) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // Whatever the release, every declaration of new_empty in ops.h is either
  // for old targets only or guarded from its release on; with 2.14 there is
  // one of each.
  const std::string ops = ::torchabi::test::real_torch_include() + "/torch/csrc/stable/ops.h";
  const std::string text = read_file(ops);
  FeatureGuards g = FeatureGuards::scan(text);
  std::istringstream in(text);
  unsigned line = 0;
  std::vector<std::string> sets;
  for (std::string l; std::getline(in, l);) {
    ++line;
    if (l.find(" new_empty(") != std::string::npos && l.find("inline") != std::string::npos)
      sets.push_back(g.compiled_at(line).str());
  }
  ASSERT_FALSE(sets.empty());
  if (sets.size() == 2) {
    EXPECT_EQ(sets, (std::vector<std::string>{"< 2.10", ">= 2.10"}));
  }
}

}  // namespace
}  // namespace torchabi::source::test
