// The boxed-kernel checks against PyTorch's real stable headers
// (tests/support/real_torch.h): the StableIValue conversions are read from
// the headers each translation unit includes, rules/schema/kernel_types.yaml
// is what scripts/build-kernel-types.sh derives from them, a kernel for every
// convertible type is clean (and compiles with g++), and wrong types still
// fire. Fixtures: fixtures/schema/real-headers/<case>/{clean,fires}/, their
// flags in the file `real-torch`; fires fixtures mark each expected finding
// with `// expect: <rule>` on its line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzers/source/boxable_types.h"
#include "inputs/compile_db_args.h"
#include "inputs/rules_source.h"
#include "real_torch.h"
#include "registration_fixtures.h"

namespace torchabi::schema {
namespace {

namespace fs = std::filesystem;
using testing::describe;
using testing::fixture_dir;
using testing::run_fixture;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> flags_of(const std::string& dir) {
  std::vector<std::string> flags = {"-std=c++17", "-I" + test::real_torch_include()};
  std::ifstream in(fs::path(dir) / "real-torch");
  for (std::string f; in >> f;) flags.push_back(f);
  return flags;
}

const char* const kCases[] = {"real-headers/every-type/clean", "real-headers/old-target/clean"};

TEST(KernelTypesFile, MatchesTheRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const std::string derived = source::boxable_types_yaml(source::import_boxable_types(test::real_torch_include()));
  EXPECT_EQ(read_all(fs::path(TORCHABI_SOURCE_DIR) / "rules/schema/kernel_types.yaml"), derived)
      << "rules/schema/kernel_types.yaml is stale: run scripts/build-kernel-types.sh (" << test::real_torch_packages()
      << ")";
}

TEST(RealHeaders, ConversionsAreReadWithTheirReleases) {
  TORCHABI_REQUIRE_REAL_TORCH();
  source::BoxableTypes b = source::import_boxable_types(test::real_torch_include());
  ASSERT_TRUE(b.found);
  EXPECT_TRUE(b.catch_all);
  ASSERT_TRUE(b.torch_version);
  auto find = [](const std::vector<source::BoxableConversion>& l, const std::string& t) -> const source::BoxableConversion* {
    for (const auto& c : l)
      if (c.type == t) return &c;
    return nullptr;
  };
  // Facts of released headers: Tensor has always converted; lists came with 2.10.
  const auto* tensor = find(b.to, "torch::stable::Tensor");
  ASSERT_NE(tensor, nullptr);
  EXPECT_FALSE(tensor->since);
  const auto* vec = find(b.to, "std::vector<$T>");
  ASSERT_NE(vec, nullptr);
  ASSERT_TRUE(vec->since);
  EXPECT_EQ(vec->since->str(), "2.10");
  EXPECT_NE(find(b.from, "c10::HeaderOnlyArrayRef<$T>"), nullptr);
  EXPECT_EQ(find(b.to, "c10::HeaderOnlyArrayRef<$T>"), nullptr) << "to<HeaderOnlyArrayRef<T>> cannot exist";
  bool array_ref_unboxed = false;
  for (const auto& r : b.unbox) array_ref_unboxed |= r.from == "c10::HeaderOnlyArrayRef<$T>" && r.to == "std::vector<$T>";
  EXPECT_TRUE(array_ref_unboxed);
  EXPECT_TRUE(b.tuple_returns);
}

TEST(RealHeaders, CleanFixturesCompileWithGcc) {
  TORCHABI_REQUIRE_REAL_TORCH();
  if (std::system("g++ --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "g++ is not installed";
  for (const char* c : kCases) {
    const std::string dir = fixture_dir(c);
    std::string cmd = "g++ -fsyntax-only";
    for (const auto& f : flags_of(dir)) cmd += " '" + f + "'";
    cmd += " '" + dir + "/ops.cpp' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << c << ": " << cmd;
  }
}

TEST(RealHeaders, KernelsForEveryConvertibleTypeAreClean) {
  TORCHABI_REQUIRE_REAL_TORCH();
  for (const char* c : kCases) {
    const auto& run = run_fixture(c);
    EXPECT_TRUE(run.warnings.empty()) << c << ":\n" << describe(run);
    EXPECT_EQ(run.analysed, 1u) << c;
    // The kernels are stubs that return their input: whether that is declared
    // is the compile-readiness family's question, not the conversions'.
    for (const auto& f : run.findings)
      EXPECT_TRUE(f.rule.starts_with("compile-")) << c << ":\n" << describe(run);
  }
}

// "std::tuple<A, std::vector<B>>" -> {A, std::vector<B>}; anything else -> {itself}.
std::vector<std::string> tuple_parts(const std::string& t) {
  if (!t.starts_with("std::tuple<")) return {t};
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char ch : t.substr(11, t.size() - 12)) {
    if (ch == '<') ++depth;
    if (ch == '>') --depth;
    if (ch == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(ch == ' ' && cur.empty())) cur += ch;
  }
  out.push_back(cur);
  return out;
}

// What a conversion's type looks like in a kernel: "std::vector<$T>" is any
// std::vector<...>.
bool is_form_of(const std::string& cpp, const std::string& conversion) {
  const auto at = conversion.find("$T");
  return at == std::string::npos ? cpp == conversion : cpp.starts_with(conversion.substr(0, at));
}

TEST(RealHeaders, TheCleanFixtureUsesEveryConversionTheHeadersDeclare) {
  TORCHABI_REQUIRE_REAL_TORCH();
  // The fixture's own parse: which conversions its headers declare, and the
  // C++ types of its kernels.
  const std::string dir = fixture_dir("real-headers/every-type/clean");
  auto rules = inputs::RulesSource::directory((fs::path(TORCHABI_SOURCE_DIR) / "rules").string());
  auto classifier = source::HeaderClassifier::load(rules);
  TuExtraction e = extract_translation_unit(inputs::translate_flags(dir + "/ops.cpp", flags_of(dir), dir), classifier, {dir});
  ASSERT_TRUE(e.error.empty()) << e.error;
  ASSERT_TRUE(e.registrations.boxable && e.registrations.boxable->found);
  const source::BoxableTypes& b = *e.registrations.boxable;
  std::vector<std::string> params, results;
  for (const auto& i : e.registrations.impls) {
    ASSERT_TRUE(i.kernel.signature) << i.name.text;
    for (const auto& p : i.kernel.signature->params) params.push_back(p.normalized);
    for (const auto& r : tuple_parts(i.kernel.signature->result.normalized)) results.push_back(r);
  }
  // Types no schema type arrives as (DeviceType, Tag, nullopt_t) are not expected.
  KernelTypes types = KernelTypes::load(rules);
  std::set<std::string> expected;
  for (const auto& [name, leaves] : types.stable_map().types) expected.insert(leaves.begin(), leaves.end());
  const auto& map = types.stable_map();
  auto wanted = [&](const std::string& conversion) {
    if (expected.count(conversion)) return true;
    for (const auto* names : {&map.optional, &map.list, &map.tuple})
      for (const auto& n : *names)
        if (conversion == n + "<$T>") return true;
    return false;
  };
  auto used = [](const std::vector<std::string>& types_seen, const std::string& conversion) {
    return std::any_of(types_seen.begin(), types_seen.end(), [&](const auto& t) { return is_form_of(t, conversion); });
  };
  for (const auto& c : b.to)
    if (wanted(c.type)) {
      EXPECT_TRUE(used(params, c.type)) << "no kernel parameter is a " << c.type;
    }
  for (const auto& r : b.unbox) EXPECT_TRUE(used(params, r.from)) << "no kernel parameter is a " << r.from;
  for (const auto& c : b.from)
    if (wanted(c.type)) {
      EXPECT_TRUE(used(results, c.type)) << "no kernel returns a " << c.type;
    }
}

// `// expect: rule` comments of a fires fixture: (line, rule).
std::multiset<std::pair<uint32_t, std::string>> expected_findings(const std::string& file) {
  std::multiset<std::pair<uint32_t, std::string>> out;
  std::ifstream in(file);
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n)
    if (auto at = line.find("// expect: "); at != std::string::npos) {
      std::istringstream rules(line.substr(at + 11));
      for (std::string rule; rules >> rule;)
        if (rule.find('-') != std::string::npos &&
            std::all_of(rule.begin(), rule.end(), [](char c) { return std::islower(c) || c == '-'; }))
          out.emplace(n, rule);
    }
  return out;
}

TEST(RealHeaders, WrongTypesStillFireWhereTheyAre) {
  TORCHABI_REQUIRE_REAL_TORCH();
  for (const char* c : {"real-headers/every-type/fires", "real-headers/old-target/fires"}) {
    const auto& run = run_fixture(c);
    EXPECT_TRUE(run.warnings.empty()) << c << ":\n" << describe(run);
    std::multiset<std::pair<uint32_t, std::string>> found;
    for (const auto& f : run.findings)
      if (!f.rule.starts_with("compile-")) found.emplace(f.location.line, f.rule);  // stubs returning their input
    const auto want = expected_findings(fixture_dir(c) + "/ops.cpp");
    ASSERT_FALSE(want.empty()) << c;
    EXPECT_EQ(found, want) << c << ":\n" << describe(run);
  }
}

}  // namespace
}  // namespace torchabi::schema
