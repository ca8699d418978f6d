// Conventions of the command line as a whole: unknown subcommands named, and
// the shared options accepted by every command that should take them.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_harness.h"

using namespace torchabi::e2e;

TEST(UnknownCommand, NamedOnOneLineWithTheCommands) {
  auto r = run_torchabi({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "torchabi: unknown command 'frobnicate' (commands: audit, check, completion, explain, lint, migrate, "
            "rules, run, scan, schema, verify-port)\n");
  EXPECT_EQ(r.out, "");
}

TEST(UnknownCommand, SuggestsTheClosestCommand) {
  auto typo = run_torchabi({"lnt", "x.cpp"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("unknown command 'lnt'"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("did you mean 'lint'?"), std::string::npos) << typo.err;
  auto prefix = run_torchabi({"--rules-dir", source_dir() + "/rules", "mig"});
  EXPECT_EQ(prefix.exit_code, 2);
  EXPECT_NE(prefix.err.find("did you mean 'migrate'?"), std::string::npos) << prefix.err;
  EXPECT_EQ(std::count(prefix.err.begin(), prefix.err.end(), '\n'), 1) << prefix.err;
}

TEST(UnknownCommand, KnownCommandsAndGlobalOptionsStillParse) {
  EXPECT_EQ(run_torchabi({"--rules-dir", source_dir() + "/rules", "rules", "list"}).exit_code, 0);
  EXPECT_EQ(run_torchabi({"--version"}).exit_code, 0);
  EXPECT_EQ(run_torchabi({"--help"}).exit_code, 0);
}

namespace {

// A parse error names the option ("not expected", "unknown option"); an
// input error about the missing file is what a parsed command line gives.
bool rejected_as_option(const RunResult& r) {
  return r.err.find("was not expected") != std::string::npos ||
         r.err.find("unknown option") != std::string::npos ||
         (r.err.find("requires") != std::string::npos && r.err.find("argument") != std::string::npos);
}

}  // namespace

TEST(SharedOptions, EveryAnalysingCommandTakesThem) {
  const std::string dir = make_temp_dir();
  const std::string config = dir + "/torchabi.yaml";
  std::ofstream(config) << "fail-on: error\n";
  const std::string missing = dir + "/missing.cpp";
  // Every command and an input it fails on fast (or a quick valid one).
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"audit", {dir + "/missing.so"}},
      {"check", {missing}},
      {"lint", {missing}},
      {"migrate", {missing}},
      {"run", {dir + "/missing.so"}},
      {"schema", {"foo(Tensor x) -> Tensor"}},
  };
  for (const auto& [command, inputs] : commands) {
    const std::string format = command == "migrate" ? "json" : "text";
    const std::vector<std::vector<std::string>> options = {
        {"--format", format}, {"-o", dir + "/" + command + ".out"}, {"--fail-on", "warning"}, {"--config", config},
        {"--color", "never"}, {"-q"},                                {"-v"},                   {"--baseline", dir + "/none.json"},
        {"--write-baseline", dir + "/" + command + ".baseline"}};
    for (const auto& opt : options) {
      std::vector<std::string> args = {command};
      args.insert(args.end(), opt.begin(), opt.end());
      args.insert(args.end(), inputs.begin(), inputs.end());
      auto r = run_torchabi(args, dir);
      EXPECT_FALSE(rejected_as_option(r)) << command << " " << opt[0] << ": " << r.err;
    }
    // --rules-dir goes before the subcommand, for every command.
    std::vector<std::string> args = {"--rules-dir", source_dir() + "/rules", command};
    args.insert(args.end(), inputs.begin(), inputs.end());
    auto r = run_torchabi(args, dir);
    EXPECT_FALSE(rejected_as_option(r)) << command << " --rules-dir: " << r.err;
  }
}

TEST(SharedOptions, MigrateValidatesThemAsTheOthersDo) {
  auto r = run_torchabi({"migrate", "--fail-on", "sometimes", "x.cpp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fail-on"), std::string::npos) << r.err;
  auto c = run_torchabi({"migrate", "--color", "purple", "x.cpp"});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--color"), std::string::npos) << c.err;
}

TEST(SharedOptions, ReportCommandsListTheSummaryAndGithubFormat) {
  for (const char* command : {"audit", "check", "lint", "run", "schema"}) {
    auto r = run_torchabi({command, "--help"});
    EXPECT_EQ(r.exit_code, 0) << command;
    for (const char* opt : {"--summary", "--group-by", "github"})
      EXPECT_NE(r.out.find(opt), std::string::npos) << command << " --help lacks " << opt;
  }
}
