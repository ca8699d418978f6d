// #if conditions evaluated for a chosen set of macros (pp_condition.h), and
// the version macro data version-macro-missing-at-target reads them with
// (rules/api/version_macros.tsv) against Debian's real 2.14.1 headers.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "analyzers/source/pp_condition.h"
#include "analyzers/source/version_macros.h"
#include "inputs/rules_source.h"
#include "real_torch.h"

namespace torchabi::source {
namespace {

// FEATURE = 2.9 (as meant) or undefined (as 2.9's headers read it); every
// other identifier is unknown.
PpMacros macros(bool feature_defined) {
  PpMacros m;
  m.defined = [=](std::string_view n) -> std::optional<bool> {
    if (n == "FEATURE") return feature_defined;
    return std::nullopt;
  };
  m.value = [=](std::string_view n) -> std::optional<uint64_t> {
    if (n == "FEATURE") return feature_defined ? 0x0209000000000000ull : 0;
    if (n == "V2_10") return feature_defined ? 0x020a000000000000ull : 0;
    return std::nullopt;
  };
  return m;
}

TEST(PpCondition, ArithmeticAndComparisonsAsThePreprocessor) {
  const PpMacros m = macros(true);
  EXPECT_EQ(evaluate_pp_condition("(((0ULL + 2) << 56) | ((0ULL + 10) << 48)) == 0x020a000000000000", m), 1);
  EXPECT_EQ(evaluate_pp_condition("1 + 2 * 3 == 7 && 10 / 3 == 3 && 10 % 3 == 1", m), 1);
  EXPECT_EQ(evaluate_pp_condition("-1 < 0 && ~0 != 0 && !0", m), 1);
  EXPECT_EQ(evaluate_pp_condition("1 ? 2 : 3", m), 2);
  EXPECT_EQ(evaluate_pp_condition("FEATURE >= V2_10", m), 0);
  EXPECT_EQ(evaluate_pp_condition("true && !false", m), 1);
}

TEST(PpCondition, UndefinedMacrosReadAsZero) {
  // The trap: at the target's headers both sides are 0.
  EXPECT_EQ(evaluate_pp_condition("FEATURE >= V2_10", macros(false)), 1);
  EXPECT_EQ(evaluate_pp_condition("defined(FEATURE) && FEATURE >= V2_10", macros(false)), 0);
  EXPECT_EQ(evaluate_pp_condition("defined FEATURE", macros(false)), 0);
}

TEST(PpCondition, UnknownsDecideNothingUnlessShortCircuited) {
  const PpMacros m = macros(true);
  EXPECT_EQ(evaluate_pp_condition("USE_CUDA", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("defined(USE_CUDA)", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("USE_CUDA && FEATURE >= V2_10", m), 0);
  EXPECT_EQ(evaluate_pp_condition("USE_CUDA || FEATURE < V2_10", m), 1);
  EXPECT_EQ(evaluate_pp_condition("__has_include(<cuda.h>) && 1", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("USE_CUDA ? 1 : 1", m), 1);
  EXPECT_EQ(evaluate_pp_condition("1 / USE_CUDA", m), std::nullopt);
}

TEST(PpCondition, TextThatIsNoConditionIsRejected) {
  const PpMacros m = macros(true);
  EXPECT_EQ(evaluate_pp_condition("(1", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("1 +", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("", m), std::nullopt);
  EXPECT_EQ(evaluate_pp_condition("defined(", m), std::nullopt);
}

TEST(VersionMacros, ShippedDataDatesEachMacro) {
  auto data = VersionMacros::load(inputs::RulesSource::embedded());
  const VersionMacro* feature = data.find("TORCH_FEATURE_VERSION");
  ASSERT_NE(feature, nullptr);
  EXPECT_EQ(feature->since, TorchVersion::parse_dotted("2.10"));
  EXPECT_EQ(feature->release_value, std::nullopt);
  const VersionMacro* v11 = data.find("TORCH_VERSION_2_11_0");
  ASSERT_NE(v11, nullptr);
  EXPECT_EQ(v11->since, TorchVersion::parse_dotted("2.11"));
  EXPECT_EQ(v11->release_value, 0x020b000000000000ull);
  EXPECT_TRUE(data.defined_at("TORCH_ABI_VERSION", *TorchVersion::parse_dotted("2.9")));
  EXPECT_FALSE(data.defined_at("TORCH_VERSION_2_11_0", *TorchVersion::parse_dotted("2.10")));
  EXPECT_TRUE(data.defined_at("TORCH_VERSION_2_11_0", *TorchVersion::parse_dotted("2.11")));
  EXPECT_FALSE(data.defined_at("NOT_A_VERSION_MACRO", *TorchVersion::parse_dotted("2.14")));
  EXPECT_THROW(VersionMacros::parse("# name\tsince\theader\nX\tsoon\th.h\n", "t.tsv"), std::exception);
}

// scripts/version-macros.py derives the table from these headers: every macro
// they define is listed, each TORCH_VERSION_X_Y_Z dated X.Y.
TEST(VersionMacros, ShippedDataCoversTheRealHeaders) {
  TORCHABI_REQUIRE_REAL_TORCH();
  auto data = VersionMacros::load(inputs::RulesSource::embedded());
  std::set<std::string> seen;  // TORCH_FEATURE_VERSION is defined in both arms of an #ifdef
  for (const char* header : {"torch/csrc/stable/version.h", "torch/headeronly/version.h"}) {
    std::ifstream in(::torchabi::test::real_torch_include() + "/" + header);
    ASSERT_TRUE(in) << header;
    static const std::regex define(R"(^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*))");
    for (std::string line; std::getline(in, line);) {  // a #define in a comment is no definition
      std::smatch match;
      if (!std::regex_search(line, match, define)) continue;
      const std::string name = match[1];
      const VersionMacro* m = data.find(name);
      ASSERT_NE(m, nullptr) << name << " of " << header << " is missing: run scripts/version-macros.py";
      EXPECT_EQ(m->header, header) << name;
      if (auto v = TorchVersion::parse_dotted(name)) {
        EXPECT_EQ(m->since, (TorchVersion{v->major, v->minor, 0})) << name;
      }
      seen.insert(name);
    }
  }
  EXPECT_EQ(seen.size(), data.all().size()) << "rules/api/version_macros.tsv lists macros the headers do not define";
}

}  // namespace
}  // namespace torchabi::source
