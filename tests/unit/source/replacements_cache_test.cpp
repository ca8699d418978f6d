// The pre-parsed copy of replacements.yaml: it round-trips every field, it is
// rejected when truncated or made for other YAML, and a stale or corrupt copy
// never changes what lint sees.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "analyzers/source/lint_env.h"
#include "analyzers/source/replacements_cache.h"
#include "inputs/rules_source.h"

namespace torchabi::source {
namespace {

namespace fs = std::filesystem;

void expect_same(const Replacements& a, const Replacements& b) {
  ASSERT_EQ(a.entries().size(), b.entries().size());
  for (size_t i = 0; i < a.entries().size(); ++i) {
    const auto &x = a.entries()[i], &y = b.entries()[i];
    EXPECT_EQ(x.legacy, y.legacy) << i;
    EXPECT_EQ(x.kind, y.kind) << i;
    EXPECT_EQ(x.replacement, y.replacement) << i;
    EXPECT_EQ(x.header, y.header) << i;
    EXPECT_EQ(x.since, y.since) << i;
    EXPECT_EQ(x.fix, y.fix) << i;
    EXPECT_EQ(x.style, y.style) << i;
    EXPECT_EQ(x.note, y.note) << i;
  }
}

const Replacements& shipped() {
  static const Replacements r = Replacements::load(inputs::RulesSource::embedded());
  return r;
}

TEST(ReplacementsCache, RoundTripsTheShippedRules) {
  ASSERT_GT(shipped().entries().size(), 50u);
  auto back = decode_replacements(encode_replacements(shipped(), "d1"), "d1");
  ASSERT_TRUE(back);
  expect_same(shipped(), *back);
}

TEST(ReplacementsCache, RejectsEveryTruncationAndAnotherDigest) {
  const std::string bytes = encode_replacements(shipped(), "d1");
  EXPECT_FALSE(decode_replacements(bytes, "d2")) << "made from other YAML";
  for (size_t n = 0; n < bytes.size(); n += 7) EXPECT_FALSE(decode_replacements(bytes.substr(0, n), "d1")) << n;
  EXPECT_FALSE(decode_replacements(bytes + "x", "d1")) << "trailing bytes";
}

TEST(ReplacementsCache, WritesOnceThenReadsTheCopy) {
  const fs::path dir = fs::temp_directory_path() / ("torchabi-repl-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto& rules = inputs::RulesSource::embedded();
  expect_same(shipped(), load_replacements_cached(rules, dir.string()));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);

  // A copy with one entry under the right key is what the next load returns:
  // proof that the copy, not the YAML, is read.
  const std::string digest = replacements_digest(rules);
  std::vector<Replacement> one{shipped().entries().front()};
  {
    std::ofstream out(files[0], std::ios::binary | std::ios::trunc);
    out << encode_replacements(Replacements::from_entries(one), digest);
  }
  EXPECT_EQ(load_replacements_cached(rules, dir.string()).entries().size(), 1u);

  // A corrupt copy costs a parse and is replaced.
  {
    std::ofstream out(files[0], std::ios::binary | std::ios::trunc);
    out << "not a cache";
  }
  expect_same(shipped(), load_replacements_cached(rules, dir.string()));
  expect_same(shipped(), load_replacements_cached(rules, dir.string()));
  fs::remove_all(dir);
}

TEST(ReplacementsCache, UnwritableDirectoryOnlyCostsTheParse) {
  expect_same(shipped(), load_replacements_cached(inputs::RulesSource::embedded(), "/proc/torchabi-no-such-dir"));
}

}  // namespace
}  // namespace torchabi::source
