// The floor is the newest introducing release among the stable shim imports.
#include <gtest/gtest.h>

#include "analyzers/binary/version_floor.h"
#include "inputs/api_catalog.h"

using namespace torchabi;
using binary::compute_floor;
using binary::ShimImport;
using binary::VersionFloor;

namespace {

ShimImport imp(const char* name) {
  const auto* fn = inputs::ApiCatalog::current().find_c(name);
  EXPECT_NE(fn, nullptr) << name;
  return {name, fn};
}

}  // namespace

TEST(VersionFloor, NoImportsNoFloor) {
  VersionFloor f = compute_floor({});
  EXPECT_FALSE(f.version);
  EXPECT_EQ(f.label(), "");
}

TEST(VersionFloor, BaselineOnly) {
  VersionFloor f = compute_floor({imp("aoti_torch_get_sizes"), imp("aoti_torch_get_numel")});
  ASSERT_TRUE(f.version);
  EXPECT_TRUE(f.baseline);
  EXPECT_EQ(f.label(), "<=2.9");
  EXPECT_TRUE(f.set_by.empty());
}

TEST(VersionFloor, NewestReleaseAndEverySymbolThatSetsIt) {
  VersionFloor f = compute_floor({imp("aoti_torch_get_sizes"), imp("torch_library_impl"),
                                  imp("aoti_torch_dtype_float8_e8m0fnu"), imp("torch_tag_core")});
  ASSERT_TRUE(f.version);
  EXPECT_FALSE(f.baseline);
  EXPECT_EQ(f.label(), "2.12");
  EXPECT_EQ(f.set_by, (std::vector<std::string>{"aoti_torch_dtype_float8_e8m0fnu", "torch_tag_core"}));
}

TEST(VersionFloor, RaiseKeepsTheNewer) {
  VersionFloor a = compute_floor({imp("torch_library_impl")});
  VersionFloor b = compute_floor({imp("aoti_torch_get_sizes")});
  VersionFloor merged = b;
  merged.raise_to(a);
  EXPECT_EQ(merged.label(), "2.10");
  merged.raise_to(b);  // a baseline floor never lowers a dated one
  EXPECT_EQ(merged.label(), "2.10");
  merged.raise_to(compute_floor({imp("torch_delete_list")}));  // also 2.10: merged
  EXPECT_EQ(merged.set_by, (std::vector<std::string>{"torch_library_impl", "torch_delete_list"}));
  merged.raise_to(VersionFloor{});
  EXPECT_EQ(merged.label(), "2.10");
}

namespace {

// The first catalog function whose build_condition is `condition` (read from
// the catalog, so the test follows the rules rather than naming functions).
ShimImport with_condition(const std::string& condition, size_t skip = 0) {
  for (const auto& f : inputs::ApiCatalog::current().c_functions())
    if (!f.is_type && f.build_condition == condition && skip-- == 0) return {f.name, &f};
  ADD_FAILURE() << "no catalog function needs " << condition;
  static inputs::CFunction none;
  return {"", &none};
}

}  // namespace

TEST(BuildNeeds, NoneWhenEveryImportIsInEveryBuild) {
  EXPECT_TRUE(binary::compute_build_needs({imp("aoti_torch_get_sizes"), with_condition("-")}).empty());
}

TEST(BuildNeeds, BackendShimsNeedTheirBuildAndLibrary) {
  auto a = with_condition("USE_CUDA"), b = with_condition("USE_CUDA", 1), c = with_condition("USE_XPU");
  auto needs = binary::compute_build_needs({imp("aoti_torch_get_sizes"), a, c, b});
  ASSERT_EQ(needs.size(), 2u);
  EXPECT_EQ(needs[0].condition, "USE_CUDA");
  EXPECT_EQ(needs[0].library, "libtorch_cuda");
  EXPECT_EQ(needs[0].imports, (std::vector<std::string>{a.symbol, b.symbol}));
  EXPECT_EQ(needs[1].condition, "USE_XPU");
  EXPECT_EQ(needs[1].library, "libtorch_xpu");
  EXPECT_EQ(needs[1].imports, (std::vector<std::string>{c.symbol}));
}
