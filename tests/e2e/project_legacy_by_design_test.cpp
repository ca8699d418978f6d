// Issue 49: "legacy by design" only for what is legacy by design. Two stable
// extensions of fixtures/projects/setup_two_stable, both built for
// TORCH_TARGET_VERSION and the limited API; an ATen include planted in one's
// registering source (a port in progress) is that extension's error, never
// an exemption that hides it.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "lint_fixtures.h"
#include "project_findings.h"
#include "real_torch.h"

namespace torchabi::e2e {
namespace {

namespace fs = std::filesystem;

std::string copy_fixture() {
  const std::string dir = make_temp_dir() + "/two_stable";
  fs::copy(source_dir() + "/fixtures/projects/setup_two_stable", dir, fs::copy_options::recursive);
  return dir;
}

// Inserts `line` as line `at` (1-based) of `file`.
void insert_line(const std::string& file, int at, const std::string& line) {
  std::string text = lint::read_all(file), out;
  size_t pos = 0;
  for (int l = 1; l < at; ++l) pos = text.find('\n', pos) + 1;
  text.insert(pos, line + "\n");
  std::ofstream(file, std::ios::trunc) << text;
}

std::set<Found> errors(const nlohmann::json& j) {
  std::set<Found> out;
  for (const auto& f : j["findings"])
    if (f["severity"] == "error")
      out.emplace(f["rule"].get<std::string>(), fs::path(f["location"].value("file", "")).filename().string(),
                  f["location"].value("line", 0));
  return out;
}

TEST(ProjectLegacyByDesign, TwoStableExtensionsAreBothLinted) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string dir = copy_fixture();
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = r.json();
  EXPECT_TRUE(errors(j).empty()) << j.dump(1);
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr) << j.dump(1);
  EXPECT_FALSE(p->at("facts").contains("legacy by design")) << p->dump(1);
}

// The planted include is an error at its line and the extension is linted
// (all three of its sources), exit 1: the same error the extension alone gives.
TEST(ProjectLegacyByDesign, AnAtenIncludeInAStableSourceIsAnErrorNotAnExemption) {
  if (!test::real_torch_root()) GTEST_SKIP() << test::real_torch_missing_reason();
  const std::string dir = copy_fixture();
  insert_line(dir + "/csrc/resize/ops.cpp", 4, "#include <ATen/core/Tensor.h>");
  auto r = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = r.json();
  EXPECT_EQ(errors(j), (std::set<Found>{{"source-unstable-include", "ops.cpp", 4}})) << j.dump(1);
  const auto* p = project_subject(j);
  ASSERT_NE(p, nullptr) << j.dump(1);
  EXPECT_FALSE(p->at("facts").contains("legacy by design")) << p->dump(1);
  std::set<std::string> units;
  for (const auto& s : j["subjects"])
    if (s["kind"] == "translation-unit") units.insert(s["path"].get<std::string>());
  EXPECT_EQ(units.size(), 4u) << j.dump(1);

  // The extension alone (the other one removed) gives the same error.
  std::string setup = lint::read_all(dir + "/setup.py");
  const size_t blend = setup.find("        CppExtension(\n            \"two_stable._blend\"");
  ASSERT_NE(blend, std::string::npos);
  setup.erase(blend, setup.find("        ),\n", blend) + 11 - blend);
  std::ofstream(dir + "/setup.py", std::ios::trunc) << setup;
  auto alone = run_torchabi({"check", "--format", "json", "--torch-include", test::real_torch_include(), dir});
  ASSERT_EQ(alone.exit_code, 1) << alone.err << alone.out;
  EXPECT_EQ(errors(alone.json()), errors(j)) << alone.out;
}

}  // namespace
}  // namespace torchabi::e2e
