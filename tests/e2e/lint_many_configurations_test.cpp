// Bounded work (issue 38): a compile database that lists one file very many
// times. Commands that become the same clang invocation (they differ in -o)
// are linted once; of the distinct ones, 64 per file are linted and the rest
// are reported as not analysed, so the run ends in seconds, not hours.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lint_fixtures.h"

namespace torchabi::e2e::lint {
namespace {

size_t subjects_of(const nlohmann::json& j, const std::string& file) {
  size_t n = 0;
  for (const auto& s : j["subjects"])
    if (s.dump().find(file) != std::string::npos) ++n;
  return n;
}

TEST(LintManyConfigurations, DuplicatesOnceAndDistinctOnesUpToTheCap) {
  const std::string dir = make_temp_dir();
  const std::string src = write_file(dir, "a.cpp", "int f() { return X; }\n");
  nlohmann::json db = nlohmann::json::array();
  for (int i = 0; i < 300; ++i)  // one configuration, 300 object files
    db.push_back({{"directory", dir}, {"file", "a.cpp"},
                  {"arguments", {"c++", "-DX=1", "-c", "a.cpp", "-o", "a" + std::to_string(i) + ".o"}}});
  for (int i = 0; i < 100; ++i)  // 100 configurations
    db.push_back({{"directory", dir}, {"file", "a.cpp"},
                  {"arguments", {"c++", "-DX=" + std::to_string(i + 2), "-c", "a.cpp"}}});
  std::ofstream(dir + "/compile_commands.json") << db.dump();

  auto r = lint_json({"-p", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;  // what was not linted is a note
  auto j = r.json();
  EXPECT_EQ(subjects_of(j, src), 64u) << r.out;
  auto skipped = findings_of(j, "source-tu-not-analysed");
  ASSERT_EQ(skipped.size(), 1u) << r.out;
  bool said = false;
  for (const auto& f : j["findings"])
    if (f["rule"] == "source-tu-not-analysed")
      said = f["message"].get<std::string>().find("37 more configurations") != std::string::npos;
  EXPECT_TRUE(said) << r.out;  // 101 distinct, 64 linted
}

TEST(LintManyConfigurations, AFewDistinctOnesAreAllLinted) {
  const std::string dir = make_temp_dir();
  const std::string src = write_file(dir, "a.cpp", "int f() { return X; }\n");
  nlohmann::json db = nlohmann::json::array();
  for (int i = 0; i < 3; ++i)
    db.push_back({{"directory", dir}, {"file", "a.cpp"}, {"arguments", {"c++", "-DX=" + std::to_string(i), "-c", "a.cpp"}}});
  std::ofstream(dir + "/compile_commands.json") << db.dump();
  auto r = lint_json({"-p", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = r.json();
  EXPECT_EQ(subjects_of(j, src), 3u) << r.out;
  EXPECT_TRUE(findings_of(j, "source-tu-not-analysed").empty()) << r.out;
}

}  // namespace
}  // namespace torchabi::e2e::lint
