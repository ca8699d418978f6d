#include <gtest/gtest.h>

#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

using namespace torchabi::inputs;

TEST(SplitQualified, KeepsTemplateArgumentsTogether) {
  auto p = split_qualified("std::vector<at::Tensor, std::allocator<at::Tensor>>::size");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], "std");
  EXPECT_EQ(p[1], "vector<at::Tensor, std::allocator<at::Tensor>>");
  EXPECT_EQ(p[2], "size");
  auto op = split_qualified("c10::operator<<");
  ASSERT_EQ(op.size(), 2u);
  EXPECT_EQ(op[1], "operator<<");
}

TEST(ApiCatalog, ClassifiesByNamespaceComponentsNotPrefixes) {
  const auto& cat = ApiCatalog::current();
  EXPECT_EQ(cat.classify("c10::TensorImpl").kind, NamespaceKind::Unstable);
  EXPECT_EQ(cat.classify("at::native").kind, NamespaceKind::Unstable);
  EXPECT_EQ(cat.classify("torch::stable::Tensor").kind, NamespaceKind::Stable);
  EXPECT_EQ(cat.classify("torch::headeronly::ScalarType").kind, NamespaceKind::Stable);
  EXPECT_EQ(cat.classify("torch::autograd::Function<X>").kind, NamespaceKind::Unstable);
  // Prefix look-alikes are other code.
  EXPECT_EQ(cat.classify("c10x::Foo").kind, NamespaceKind::Other);
  EXPECT_EQ(cat.classify("attention::Foo").kind, NamespaceKind::Other);
  EXPECT_EQ(cat.classify("std::vector<at::Tensor>").kind, NamespaceKind::Other);
  EXPECT_EQ(cat.classify("::c10::Error").kind, NamespaceKind::Unstable);
  EXPECT_EQ(cat.classify("torch::stable::detail::from<c10::Foo>").ns, "torch::stable");
}

TEST(ApiCatalog, KnowsShimFunctionsAndTheirReleases) {
  const auto& cat = ApiCatalog::current();
  const CFunction* full = cat.find_c("aoti_torch_aten_full");
  ASSERT_NE(full, nullptr);
  EXPECT_FALSE(full->baseline);
  EXPECT_EQ(full->since, (torchabi::TorchVersion{2, 10, 0}));
  EXPECT_TRUE(full->dlopen_export);
  const CFunction* sizes = cat.find_c("aoti_torch_get_sizes");
  ASSERT_NE(sizes, nullptr);
  EXPECT_TRUE(sizes->baseline);
  EXPECT_EQ(sizes->since_label(), "<=2.9");
  EXPECT_EQ(cat.find_c("aoti_torch_does_not_exist"), nullptr);
  EXPECT_TRUE(ApiCatalog::looks_like_shim("aoti_torch_does_not_exist"));
  EXPECT_FALSE(ApiCatalog::looks_like_shim("malloc"));
  EXPECT_EQ(cat.latest(), (torchabi::TorchVersion{2, 14, 0}));
}

TEST(ApiCatalog, EveryReleaseInTheCatalogIsAKnownRelease) {
  const auto& cat = ApiCatalog::current();
  for (const auto& f : cat.c_functions()) {
    EXPECT_LE(f.since, cat.latest()) << f.name;
    EXPECT_TRUE(std::find(cat.releases().begin(), cat.releases().end(), f.since) != cat.releases().end()) << f.name;
  }
}

TEST(RulesSource, DirectoryAndEmbeddedAgree) {
  auto dir = RulesSource::directory(std::string(TORCHABI_SOURCE_DIR) + "/rules");
  auto emb = RulesSource::embedded();
  EXPECT_EQ(dir.list("checks/"), emb.list("checks/"));
  EXPECT_EQ(dir.read("api/stable_c_functions.tsv"), emb.read("api/stable_c_functions.tsv"));
  EXPECT_FALSE(emb.read("no/such/file"));
}
