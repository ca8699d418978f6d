// `torchabi schema`: each schema- rule fires on a bad schema and stays quiet
// on its corrected twin; findings point at the column (and, for files, the
// line) where the schema goes wrong; bad inputs are one-line errors, exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_harness.h"
#include "real_torch.h"

using torchabi::e2e::first_block_line;
using torchabi::e2e::shell_words;
using torchabi::e2e::make_temp_dir;
using torchabi::e2e::run_torchabi;

namespace {

std::vector<std::string> schema_args(std::vector<std::string> schemas) {
  std::vector<std::string> args = {"schema", "--format", "json"};
  args.insert(args.end(), schemas.begin(), schemas.end());
  return args;
}

std::vector<nlohmann::json> findings_of(const torchabi::e2e::RunResult& r, const std::string& rule) {
  std::vector<nlohmann::json> out;
  const nlohmann::json report = r.json();
  for (const auto& f : report["findings"])
    if (f["rule"] == rule) out.push_back(f);
  return out;
}

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = make_temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(SchemaCli, ParseErrorPointsAtTheColumn) {
  auto r = run_torchabi(schema_args({"myops::scale(Tensor x, double factor=1.0) -> Tensor"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto f = findings_of(r, "schema-parse-error");
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["location"]["column"], 24);
  EXPECT_NE(f[0]["message"].get<std::string>().find("did you mean 'float'"), std::string::npos);
}

TEST(SchemaCli, CorrectedSchemaIsClean) {
  auto r = run_torchabi(schema_args({"myops::scale(Tensor x, float factor=1.0) -> Tensor"}));
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(r.json()["findings"].empty());
  EXPECT_EQ(r.json()["subjects"][0]["facts"]["schema"], "myops::scale(Tensor x, float factor=1.0) -> Tensor");
}

TEST(SchemaCli, DefaultMismatchIsAWarning) {
  auto fires = run_torchabi(schema_args({"myops::topk(Tensor x, int k=None) -> Tensor"}));
  EXPECT_EQ(fires.exit_code, 0) << "a warning is below the default --fail-on error";
  auto f = findings_of(fires, "schema-default-mismatch");
  ASSERT_EQ(f.size(), 1u) << fires.out;
  EXPECT_EQ(f[0]["location"]["column"], 29);
  auto strict = run_torchabi({"schema", "--fail-on", "warning", "myops::topk(Tensor x, int k=None) -> Tensor"});
  EXPECT_EQ(strict.exit_code, 1);
  auto clean = run_torchabi(schema_args({"myops::topk(Tensor x, int? k=None) -> Tensor"}));
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(findings_of(clean, "schema-default-mismatch").empty());
}

TEST(SchemaCli, DuplicateDefinition) {
  auto fires = run_torchabi(schema_args({"myops::f(Tensor x) -> Tensor", "myops::f(Tensor x, int n) -> Tensor"}));
  EXPECT_EQ(fires.exit_code, 1);
  ASSERT_EQ(findings_of(fires, "schema-duplicate-def").size(), 1u) << fires.out;
  auto clean = run_torchabi(schema_args({"myops::f(Tensor x) -> Tensor", "myops::f.n(Tensor x, int n) -> Tensor"}));
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_TRUE(findings_of(clean, "schema-duplicate-def").empty());
}

TEST(SchemaCli, YamlFindingsPointIntoTheFile) {
  std::string path = write_file("ops.yaml",
                                "- func: good(Tensor self) -> Tensor\n"
                                "  variants: function\n"
                                "\n"
                                "- func: bad(Tensor self, Tensr other) -> Tensor\n");
  auto r = run_torchabi(schema_args({"--file", path}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto f = findings_of(r, "schema-parse-error");
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["location"]["file"], path);
  EXPECT_EQ(f[0]["location"]["line"], 4);
  EXPECT_EQ(f[0]["location"]["column"], 26);  // the schema starts in column 9; 'Tensr' is its 18th character
  EXPECT_EQ(r.json()["subjects"][0]["verdict"], "INVALID");
}

TEST(SchemaCli, TextFileHasOneSchemaPerLine) {
  std::string path = write_file("ops.txt", "# my ops\nmyops::a(Tensor x) -> Tensor\n  myops::b(Tensor x, int[] s=None) -> Tensor\n");
  auto r = run_torchabi(schema_args({"--file", path}));
  EXPECT_EQ(r.exit_code, 1);
  auto f = findings_of(r, "schema-parse-error");
  ASSERT_EQ(f.size(), 1u) << r.out;
  EXPECT_EQ(f[0]["location"]["line"], 3);
  EXPECT_EQ(f[0]["location"]["column"], 30);  // the schema starts in column 3; 'None' is its 28th character
}

TEST(SchemaCli, WholeNativeFunctionsFileIsValid) {
  const std::string yaml = torchabi::test::first_existing(
      {torchabi::test::installed_native_functions(), torchabi::e2e::shared_data() + "/native_functions-1.13.1.yaml"});
  if (!std::filesystem::exists(yaml)) GTEST_SKIP() << yaml << " is not present";
  auto r = run_torchabi(schema_args({"--file", yaml}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto s = r.json()["subjects"][0];
  EXPECT_EQ(s["verdict"], "VALID");
  EXPECT_EQ(s["facts"]["rejected"], "0");
  EXPECT_GE(std::stoi(s["facts"]["schemas"].get<std::string>()), 2400);
}

TEST(SchemaCli, BadInputsAreOneLineErrors) {
  auto none = run_torchabi({"schema"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;

  auto missing = run_torchabi({"schema", "--file", "/nonexistent/ops.yaml"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/ops.yaml"), std::string::npos) << missing.err;

  std::string broken = write_file("broken.yaml", "- func: [unclosed\n");
  auto bad_yaml = run_torchabi({"schema", "--file", broken});
  EXPECT_EQ(bad_yaml.exit_code, 2);
  EXPECT_NE(bad_yaml.err.find("not valid YAML"), std::string::npos) << bad_yaml.err;
  EXPECT_EQ(std::count(bad_yaml.err.begin(), bad_yaml.err.end(), '\n'), 1) << bad_yaml.err;

  std::string not_list = write_file("map.yaml", "func: f(Tensor x) -> Tensor\n");
  auto wrong_shape = run_torchabi({"schema", "--file", not_list});
  EXPECT_EQ(wrong_shape.exit_code, 2);
  EXPECT_NE(wrong_shape.err.find("expected a list"), std::string::npos) << wrong_shape.err;
}

// The examples in rules/checks/schema-*.yaml are commands; run them, so the
// documentation cannot drift from what the tool does.
TEST(SchemaCli, RuleDocumentationExamplesBehaveAsDocumented) {
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(torchabi::e2e::source_dir() + "/rules/checks")) {
    std::string name = entry.path().filename().string();
    if (name.rfind("schema-", 0) != 0) continue;
    std::string rule = name.substr(0, name.size() - std::string(".yaml").size());
    for (std::string key : {"example_fires", "example_clean"}) {
      std::string example = first_block_line(entry.path().string(), key);
      auto words = shell_words(example);
      if (words.size() < 2 || words[0] != "torchabi" || words[1] != "schema") continue;
      words.erase(words.begin());
      words.insert(words.begin() + 1, {"--format", "json"});
      auto r = run_torchabi(words);
      bool fired = !findings_of(r, rule).empty();
      EXPECT_EQ(fired, key == "example_fires") << rule << " " << key << ": " << example;
      ++checked;
    }
  }
  EXPECT_GE(checked, 6u);
}

}  // namespace
