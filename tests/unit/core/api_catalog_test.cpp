#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/input_error.h"
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

TEST(ApiCatalog, SaysWhichBackendAndLibraryProvideEachShim) {
  const auto& cat = ApiCatalog::current();
  size_t per_backend = 0;
  for (const auto& f : cat.c_functions()) {
    if (f.is_type) continue;
    // torchgen's per-backend shims: aoti_torch_<backend>_<op>, from that backend's library.
    for (const char* b : {"cpu", "cuda", "mps", "xpu", "aten"})
      if (f.name.starts_with(std::string("aoti_torch_") + b + "_") && f.header.find("/generated/") != std::string::npos) {
        ++per_backend;
        EXPECT_EQ(f.backend, b) << f.name;
      }
    if (f.backend == "cuda") {
      EXPECT_EQ(f.library, "libtorch_cuda") << f.name;
      EXPECT_TRUE(f.build_condition.starts_with("USE_CUDA")) << f.name;
    } else if (f.backend == "xpu") {
      EXPECT_EQ(f.library, "libtorch_xpu") << f.name;
      EXPECT_TRUE(f.build_condition.starts_with("USE_XPU")) << f.name;
    } else if (f.backend == "mps") {
      EXPECT_EQ(f.library, "libtorch_cpu") << f.name;  // MPS builds put it there
      EXPECT_TRUE(f.build_condition.starts_with("USE_MPS")) << f.name;
    } else if (f.backend == "-") {
      EXPECT_TRUE(f.header.starts_with("torch/headeronly/")) << f.name << " has no provider";
    } else {
      EXPECT_EQ(f.library, "libtorch_cpu") << f.name;
    }
  }
  EXPECT_GT(per_backend, 0u);
}

TEST(ApiCatalog, RulesWithoutTheProviderColumnsStillLoad) {
  namespace fs = std::filesystem;
  std::string dir = (fs::temp_directory_path() / "torchabi-rules-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  fs::create_directories(dir + "/api");
  for (const char* f : {"api/releases.yaml", "api/namespaces.yaml"})
    fs::copy_file(std::string(TORCHABI_SOURCE_DIR) + "/rules/" + f, dir + "/" + f);
  std::ofstream(dir + "/api/stable_c_functions.tsv")
      << "# name\tsince\tkind\tdlopen_export\theader\tprototype\n"
      << "aoti_torch_x\t2.11.0\tfunction\tno\tshim.h\tint32_t aoti_torch_x()\n";
  auto cat = ApiCatalog::load(RulesSource::directory(dir));
  const CFunction* x = cat.find_c("aoti_torch_x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->since, (torchabi::TorchVersion{2, 11, 0}));
  EXPECT_EQ(x->backend, "-");
  EXPECT_EQ(x->library, "-");
  EXPECT_EQ(x->build_condition, "-");

  std::ofstream(dir + "/api/stable_c_functions.tsv") << "aoti_torch_x\t2.11.0\tfunction\tno\tshim.h\t-\tcpu\n";
  try {
    ApiCatalog::load(RulesSource::directory(dir));
    ADD_FAILURE() << "7 columns were accepted";
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.input(), "api/stable_c_functions.tsv:1");
  }
  fs::remove_all(dir);
}
