// --format github and the grouped text view, on reports built in memory:
// escaping the e2e fixtures cannot reach (CR, '%' in messages).
#include <gtest/gtest.h>

#include "findings/rule_registry.h"
#include "reporters/reporter.h"

using namespace torchabi;
using namespace torchabi::findings;

namespace {

Finding finding(std::string rule, std::string file, uint32_t line, uint32_t col, Severity sev, std::string message,
                std::string help) {
  Finding f;
  f.rule = std::move(rule);
  f.location.file = std::move(file);
  f.location.line = line;
  f.location.column = col;
  f.severity = sev;
  f.message = std::move(message);
  f.help = std::move(help);
  return f;
}

}  // namespace

TEST(GithubReporter, EscapesDataAndPropertiesAsTheRunnerUnescapes) {
  Report r;
  r.command = "lint";
  r.add(finding("source-x", "dir,a/b:c%.cpp", 3, 7, Severity::Warning, "100% of\r\nit", "do y"));
  const std::string out = reporters::render(reporters::Format::Github, r, RuleRegistry::current(), {});
  EXPECT_EQ(out,
            "::warning file=dir%2Ca/b%3Ac%25.cpp,line=3,col=7,title=source-x::100%25 of%0D%0Ait%0Ahelp: do y\n"
            "torchabi lint: 0 errors, 1 warning, 0 notes\n");
}

TEST(GithubReporter, SeverityPicksTheCommandAndAbsentPlacesAreLeftOut) {
  Report r;
  r.add(finding("a-rule", "", 0, 0, Severity::Note, "m", ""));
  r.add(finding("b-rule", "x.so", 0, 0, Severity::Error, "n", ""));
  r.add(finding("c-rule", "y.cpp", 4, 0, Severity::Warning, "o", ""));
  const std::string out = reporters::render(reporters::Format::Github, r, RuleRegistry::current(), {});
  EXPECT_NE(out.find("::notice title=a-rule::m\n"), std::string::npos) << out;
  EXPECT_NE(out.find("::error file=x.so,title=b-rule::n\n"), std::string::npos) << out;
  EXPECT_NE(out.find("::warning file=y.cpp,line=4,title=c-rule::o\n"), std::string::npos) << out;
  EXPECT_EQ(reporters::parse_format("github"), reporters::Format::Github);
}

TEST(SummaryReporter, CountsPerRuleAndEachHelpOnce) {
  Report r;
  for (int i = 0; i < 5; ++i)
    r.add(finding("binary-unstable-import", "lib" + std::to_string(i % 2) + ".so", 0, 0, Severity::Error, "m",
                  i == 4 ? "other help" : "same help"));
  r.add(finding("binary-unknown-shim", "lib0.so", 0, 0, Severity::Warning, "w", "shim help"));
  reporters::RenderOptions o;
  o.quiet = true;
  o.group_by = "rule";
  EXPECT_EQ(reporters::render_text(r, RuleRegistry::current(), o),
            "binary-unstable-import (error): 5 findings in 2 subjects\n"
            "  help (4): same help\n"
            "  help (1): other help\n"
            "binary-unknown-shim (warning): 1 finding in 1 subject\n"
            "  help: shim help\n");
  o.group_by = "subject";
  const std::string by_subject = reporters::render_text(r, RuleRegistry::current(), o);
  EXPECT_TRUE(by_subject.starts_with("lib0.so: 4 findings\n"
                                     "  binary-unstable-import (error): 3\n"
                                     "  binary-unknown-shim (warning): 1\n"
                                     "lib1.so: 2 findings\n"
                                     "  binary-unstable-import (error): 2\n\n"))
      << by_subject;
}
