#include <gtest/gtest.h>

#include "analyzers/migration/blockers.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

using namespace torchabi::migration;
using torchabi::InputError;
using torchabi::inputs::RulesSource;

TEST(Blockers, TheShippedCatalogLoadsAndCoversTheKnownBlockers) {
  auto cat = BlockerCatalog::load(RulesSource::directory(TORCHABI_SOURCE_DIR "/rules"));
  for (const char* api : {"torch::CustomClassHolder", "torch::autograd::Function", "at::TensorIterator",
                          "c10::Scalar", "at::CUDAGeneratorImpl", "PYBIND11_MODULE"}) {
    const Blocker* b = cat.match(api);
    ASSERT_NE(b, nullptr) << api;
    EXPECT_FALSE(b->workaround.empty()) << api;
  }
  EXPECT_EQ(cat.match("at::Tensor"), nullptr);
  EXPECT_EQ(cat.match("at::Tensor::add"), nullptr);
}

TEST(Blockers, MembersAndTemplateArgumentsMatchTheirClass) {
  auto cat = BlockerCatalog::from_yaml(R"(
blockers:
  - {id: tb, title: TorchBind, apis: [torch::class_], workaround: w}
  - {id: gen, title: Gen, apis: [at::Generator], workaround: w, partial_since: "2.13"}
)", "test.yaml");
  ASSERT_NE(cat.match("torch::class_<MyStack>::def"), nullptr);
  EXPECT_EQ(cat.match("torch::class_<MyStack>::def")->id, "tb");
  EXPECT_EQ(cat.match("::torch::class_<Foo>")->id, "tb");
  EXPECT_EQ(cat.match("torch::class_x"), nullptr) << "a longer name is not a member";
  ASSERT_NE(cat.find("gen"), nullptr);
  EXPECT_EQ(cat.find("gen")->partial_since->str(), "2.13");
}

TEST(Blockers, MalformedEntriesNameTheFile) {
  try {
    BlockerCatalog::from_yaml("blockers:\n  - {id: x, title: y}\n", "rules/api/migration_blockers.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "rules/api/migration_blockers.yaml");
  }
  EXPECT_THROW(BlockerCatalog::from_yaml("blockers: [", "f"), InputError);
  EXPECT_THROW(BlockerCatalog::from_yaml("blockers:\n - {id: a, title: t, apis: [x], workaround: w, partial_since: soon}\n", "f"),
               InputError);
}

TEST(NormalizeApiName, DropsTemplatesParametersAndLeadingColons) {
  EXPECT_EQ(normalize_api_name("::at::Tensor"), "at::Tensor");
  EXPECT_EQ(normalize_api_name("at::Tensor::add(const at::Tensor &, const c10::Scalar &)"), "at::Tensor::add");
  EXPECT_EQ(normalize_api_name("torch::class_<ns::Foo<int>>::def"), "torch::class_::def");
}

TEST(Blockers, TheShippedGapsComeWithTheirWorkaroundAndSource) {
  auto cat = BlockerCatalog::load(RulesSource::directory(TORCHABI_SOURCE_DIR "/rules"));
  for (const char* api : {"at::Tensor::add_", "at::matmul_out", "c10::TensorOptions", "TORCH_WARN"}) {
    const Blocker* b = cat.match(api);
    ASSERT_NE(b, nullptr) << api;
    EXPECT_FALSE(b->source.empty()) << api;
  }
  EXPECT_NE(cat.match("at::Tensor::add_")->workaround.find("subtract(x, y, -alpha)"), std::string::npos);
}

TEST(Blockers, AGapNeedsASourceAndMayNameTheReleaseThatAddsIt) {
  auto gaps = BlockerCatalog::from_yaml(R"(
gaps:
  - {id: add, title: add, apis: [at::Tensor::add_], workaround: subtract, source: ops.h, added_in: "2.15"}
)", "gaps.yaml", "gaps");
  ASSERT_NE(gaps.find("add"), nullptr);
  EXPECT_EQ(gaps.find("add")->added_in->str(), "2.15");
  EXPECT_EQ(gaps.find("add")->source, "ops.h");
  EXPECT_THROW(BlockerCatalog::from_yaml("gaps:\n - {id: a, title: t, apis: [x], workaround: w}\n", "g", "gaps"),
               InputError);
  auto cat = BlockerCatalog::from_yaml("blockers:\n - {id: add, title: t, apis: [y], workaround: w}\n", "b");
  EXPECT_THROW(cat.merge(gaps, "gaps.yaml"), InputError) << "an id in both files";
}
