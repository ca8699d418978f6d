// Every `func:` of PyTorch's native_functions.yaml parses, and printing the
// tree gives a schema that parses back to the same tree. The YAML is Debian's:
// bookworm's python3-torch (1.13.1) and the newest one scripts/fetch-torch.sh
// unpacks; ../shared beside the checkout is only the fallback.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "analyzers/schema/printer.h"
#include "real_torch.h"
#include "test_helpers.h"

namespace torchabi::schema {
namespace {

struct RoundTrip {
  size_t funcs = 0;
  size_t verbatim = 0;  // printed text identical to the YAML's
  std::vector<std::string> failures;
};

RoundTrip round_trip_file(const std::filesystem::path& path) {
  RoundTrip r;
  YAML::Node doc = YAML::LoadFile(path.string());
  ParseOptions aten;
  aten.implied_namespace = "aten";
  for (const YAML::Node& entry : doc) {
    if (!entry.IsMap() || !entry["func"]) continue;
    std::string text = entry["func"].as<std::string>();
    ++r.funcs;
    auto first = parse_schema(text, aten);
    if (auto* e = std::get_if<ParseError>(&first)) {
      r.failures.push_back(text + "\n    parse: " + e->display());
      continue;
    }
    const FunctionSchema& tree = std::get<FunctionSchema>(first);
    std::string printed = to_string(tree);
    auto second = parse_schema(printed, aten);
    if (auto* e = std::get_if<ParseError>(&second)) {
      r.failures.push_back(text + "\n    printed: " + printed + "\n    reparse: " + e->display());
    } else if (!(std::get<FunctionSchema>(second) == tree)) {
      r.failures.push_back(text + "\n    printed: " + printed + "\n    reparsed to a different tree");
    } else if (to_string(std::get<FunctionSchema>(second)) != printed) {
      r.failures.push_back(text + "\n    printing is not stable: " + printed);
    }
    if (printed == text) ++r.verbatim;
  }
  return r;
}

// Debian's file first (`debian`), ../shared's copy only when it is absent.
void check_file(const std::string& debian, const char* name, size_t min_funcs) {
  const std::filesystem::path path = torchabi::test::first_existing(
      {debian, (std::filesystem::path(TORCHABI_SHARED_PYTORCH_DIR) / name).string()});
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not present";
  RoundTrip r = round_trip_file(path);
  EXPECT_GE(r.funcs, min_funcs) << "too few func: entries read from " << path;
  for (size_t i = 0; i < r.failures.size() && i < 20; ++i) ADD_FAILURE() << r.failures[i];
  EXPECT_EQ(r.failures.size(), 0u) << "of " << r.funcs << " schemas in " << path;
  // The YAML is written in the canonical layout the printer produces.
  EXPECT_EQ(r.verbatim, r.funcs) << "schemas printed differently from the YAML";
}

TEST(NativeFunctions, EveryFuncOf1_13_1RoundTrips) {
  check_file(torchabi::test::installed_native_functions(), "native_functions-1.13.1.yaml", 2400);
}

TEST(NativeFunctions, EveryFuncOfCurrentFileRoundTrips) {
  check_file(torchabi::test::real_native_functions(), "native_functions.yaml", 2400);
}

}  // namespace
}  // namespace torchabi::schema
