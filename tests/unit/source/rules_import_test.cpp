// `rules import` on the stand-in torch include directory: every stable C
// function and C++ API with the guard that introduces it, and a rules
// directory that the rest of torchabi loads.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzers/source/rules_import.h"
#include "common/input_error.h"
#include "findings/rule_registry.h"
#include "test_helpers.h"

namespace torchabi::source::test {
namespace {

namespace fs = std::filesystem;

const ImportedApis& imported() {
  static const ImportedApis a = import_stable_headers(stand_in_include(), env().classifier, TorchVersion{2, 9, 0});
  return a;
}

const StableApi* cxx(const std::string& name) {
  for (const auto& a : imported().cxx)
    if (a.name == name) return &a;
  return nullptr;
}

const ImportedCFunction* cfun(const std::string& name) {
  for (const auto& f : imported().c_functions)
    if (f.api.name == name) return &f;
  return nullptr;
}

TEST(RulesImport, RecordsGuardsOfCFunctionsCxxApisAndMacros) {
  EXPECT_EQ(imported().torch_version, (TorchVersion{2, 12, 0}));
  ASSERT_NE(cfun("aoti_torch_get_dim"), nullptr);
  EXPECT_TRUE(cfun("aoti_torch_get_dim")->api.baseline);
  EXPECT_EQ(cfun("aoti_torch_get_dim")->prototype, "AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t * ret_dim)");
  ASSERT_NE(cfun("torch_dtype_float8_e8m0fnu"), nullptr);
  EXPECT_EQ(cfun("torch_dtype_float8_e8m0fnu")->api.since, (TorchVersion{2, 11, 0}));
  EXPECT_FALSE(cfun("torch_dtype_float8_e8m0fnu")->api.baseline);
  ASSERT_NE(cxx("torch::stable::reshape"), nullptr);
  EXPECT_EQ(cxx("torch::stable::reshape")->since, (TorchVersion{2, 10, 0}));
  EXPECT_EQ(cxx("torch::stable::reshape")->header, "torch/csrc/stable/ops.h");
  ASSERT_NE(cxx("torch::stable::transpose"), nullptr);
  EXPECT_TRUE(cxx("torch::stable::transpose")->baseline);
  ASSERT_NE(cxx("torch::stable::Tensor::dim"), nullptr);
  EXPECT_EQ(cxx("torch::stable::Tensor::dim")->kind, "method");
  ASSERT_NE(cxx("STD_CUDA_KERNEL_LAUNCH_CHECK"), nullptr);
  EXPECT_EQ(cxx("STD_CUDA_KERNEL_LAUNCH_CHECK")->since, (TorchVersion{2, 10, 0}));
  EXPECT_EQ(cxx("STD_CUDA_KERNEL_LAUNCH_CHECK")->kind, "macro");
}

TEST(RulesImport, MergeOverridesShippedFacts) {
  StableApiIndex index = env().stable_apis;
  merge_imported(index, imported());
  ASSERT_NE(index.find("torch::stable::reshape"), nullptr);
  EXPECT_EQ(index.find("torch::stable::reshape")->since, (TorchVersion{2, 10, 0}));
  // A declaration without a guard keeps the later release the rules know of.
  ASSERT_NE(index.find("torch_call_dispatcher"), nullptr);
  EXPECT_EQ(index.find("torch_call_dispatcher")->since, (TorchVersion{2, 10, 0}));
}

TEST(RulesImport, WrittenDirectoryIsACompleteRulesDirectory) {
  const std::string out = ::testing::TempDir() + "/imported_rules_" + std::to_string(::getpid());
  fs::remove_all(out);
  write_imported_rules(out, imported(), inputs::RulesSource::embedded(), inputs::ApiCatalog::current());
  auto src = inputs::RulesSource::directory(out);
  auto catalog = inputs::ApiCatalog::load(src);
  ASSERT_NE(catalog.find_c("torch_dtype_float8_e8m0fnu"), nullptr);
  EXPECT_EQ(catalog.find_c("torch_dtype_float8_e8m0fnu")->since, (TorchVersion{2, 11, 0}));
  auto index = StableApiIndex::load(src, catalog);
  ASSERT_NE(index.find("torch::stable::reshape"), nullptr);
  EXPECT_NO_THROW(findings::RuleRegistry::load(src));
  EXPECT_NO_THROW(LintEnv::load(src, catalog));
  EXPECT_TRUE(fs::exists(out + "/api/imported.yaml"));
  // Writing again over an earlier import is allowed; over anything else it is not.
  EXPECT_NO_THROW(write_imported_rules(out, imported(), inputs::RulesSource::embedded(), inputs::ApiCatalog::current()));
  const std::string other = out + "_other";
  fs::create_directories(other);
  std::ofstream(other + "/notes.txt") << "mine\n";
  EXPECT_THROW(write_imported_rules(other, imported(), inputs::RulesSource::embedded(), inputs::ApiCatalog::current()),
               InputError);
  EXPECT_TRUE(fs::exists(other + "/notes.txt"));
  fs::remove_all(out);
  fs::remove_all(other);
}

TEST(RulesImport, DirectoryWithoutStableHeadersIsAnInputError) {
  EXPECT_THROW(import_stable_headers("/usr/include", env().classifier, TorchVersion{2, 9, 0}), InputError);
}

}  // namespace
}  // namespace torchabi::source::test
