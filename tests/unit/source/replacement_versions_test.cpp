// rules/api/replacements.yaml promises a release for each suggested stable
// API ("since"), and rules/api/stable_cxx_apis.tsv records the release whose
// guard introduces it. Lint quotes the first and enforces the second, so the
// two must agree; these tests catch a fact corrected in one file only.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "analyzers/source/replacements.h"
#include "analyzers/source/stable_api_index.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::source {
namespace {

// "STD_TORCH_CHECK(false, " -> "STD_TORCH_CHECK": prefix-args replacements
// carry the start of the call.
std::string api_name(const std::string& replacement) {
  size_t n = 0;
  while (n < replacement.size() && (std::isalnum(static_cast<unsigned char>(replacement[n])) ||
                                    replacement[n] == '_' || replacement[n] == ':'))
    ++n;
  // "torch::stable::Tensor::operator=": an operator's name runs to the call.
  if (replacement.substr(0, n).ends_with("operator"))
    while (n < replacement.size() && replacement[n] != '(' && replacement[n] != ' ') ++n;
  return replacement.substr(0, n);
}

struct Conflict {
  std::string legacy, stable, problem;
};

// Every (legacy name -> stable API) pair whose stable API is a PyTorch C++
// type, function, method or macro: the API must be indexed, and the
// replacement's `since` must equal the index's release.
std::vector<Conflict> conflicts(const Replacements& reps, const StableApiIndex& idx) {
  std::vector<Conflict> out;
  for (const auto& e : reps.entries()) {
    if (!e.replacement || !e.since || e.kind == "header" || e.kind == "variable" || e.kind == "enumerator")
      continue;
    for (const auto& legacy : e.legacy) {
      if (legacy.ends_with("*")) continue;
      auto m = reps.find(legacy, e.kind == "macro" ? "macro" : "");
      if (!m || m->entry != &e || !m->replacement) continue;
      std::string name = api_name(*m->replacement);
      const StableApi* api = idx.find(name);
      if (!api) {
        out.push_back({legacy, name, "not in stable_cxx_apis.tsv"});
      } else if (api->since != *e.since) {
        out.push_back({legacy, name, "since " + e.since->str() + " but the tsv says " + api->since_label()});
      }
    }
  }
  return out;
}

std::string describe(const std::vector<Conflict>& cs) {
  std::string s;
  for (const auto& c : cs) s += c.legacy + " -> " + c.stable + ": " + c.problem + "\n";
  return s;
}

const StableApiIndex& shipped_index() {
  static const StableApiIndex idx =
      StableApiIndex::load(inputs::RulesSource::embedded(), inputs::ApiCatalog::current());
  return idx;
}

TEST(ReplacementVersions, ShippedReplacementsAgreeWithTheStableApiIndex) {
  auto reps = Replacements::load(inputs::RulesSource::embedded());
  auto cs = conflicts(reps, shipped_index());
  EXPECT_TRUE(cs.empty()) << describe(cs);
}

TEST(ReplacementVersions, AWrongSinceIsReported) {
  auto reps = Replacements::parse(R"(apis:
  - legacy: [c10::Device]
    kind: type
    replacement: torch::stable::Device
    header: torch/csrc/stable/device.h
    since: "2.10"
    fix: unsafe
  - legacy: [at::Tensor::narrow]
    kind: method
    replacement: torch::stable::narrow
    header: torch/csrc/stable/ops.h
    since: "2.9"
    fix: unsafe
    style: method-to-function
)",
                                  "test.yaml");
  auto cs = conflicts(reps, shipped_index());
  ASSERT_EQ(cs.size(), 1u) << describe(cs);
  EXPECT_EQ(cs[0].stable, "torch::stable::Device");
  EXPECT_NE(cs[0].problem.find("<=2.9"), std::string::npos) << cs[0].problem;
}

TEST(ReplacementVersions, AnUnindexedStableApiIsReported) {
  auto reps = Replacements::parse(R"(apis:
  - legacy: [AT_DISPATCH_V2]
    kind: macro
    replacement: STABLE_DISPATCH_V2
    header: torch/csrc/stable/Dispatch.h
    since: "2.9"
    fix: unsafe
)",
                                  "test.yaml");
  auto cs = conflicts(reps, shipped_index());
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].problem, "not in stable_cxx_apis.tsv");
}

// Facts read from PyTorch's headers (see the comment atop the tsv).
TEST(ReplacementVersions, ReleasesReadFromPyTorchHeaders) {
  const auto& idx = shipped_index();
  auto label = [&](const char* name) {
    const StableApi* a = idx.find(name);
    return a ? a->since_label() : std::string("missing");
  };
  EXPECT_EQ(label("TORCH_BOX"), "<=2.9");
  EXPECT_EQ(label("torch::stable::Device"), "<=2.9");
  EXPECT_EQ(label("torch::headeronly::Layout"), "<=2.9");
  EXPECT_EQ(label("torch::stable::reshape"), "2.10");
  EXPECT_EQ(label("torch::stable::from_blob"), "2.10");
  EXPECT_EQ(label("STD_CUDA_KERNEL_LAUNCH_CHECK"), "2.10");
  EXPECT_EQ(label("torch::stable::narrow"), "<=2.9");
}

}  // namespace
}  // namespace torchabi::source
