// `rules import` on the stand-in torch include directory: every stable C
// function and C++ API with the guard that introduces it, and a rules
// directory that the rest of torchabi loads. On PyTorch's real headers: the
// import agrees with the shipped rules (rules/api/stable_cxx_apis.tsv is
// derived from them by scripts/build-cxx-rules.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "analyzers/source/rules_import.h"
#include "common/input_error.h"
#include "findings/rule_registry.h"
#include "real_headers.h"
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

TEST(RulesImport, OverloadsOnlyOlderTargetsSeeAreFound) {
  // new_empty's 2.9 overload sits under `< 2.10`: the parse at the headers'
  // own version (2.12) does not see it, the one at the baseline does. (The
  // stand-in accelerator.h also guards Stream::nativeHandle by 2.13, its real
  // release, above the stand-ins' own 2.12: a parse at 2.13 sees it.)
  EXPECT_TRUE(imported().versioned);
  EXPECT_EQ(imported().targets_parsed, (std::vector<TorchVersion>{{2, 9, 0}, {2, 13, 0}}));
  ASSERT_NE(cxx("torch::stable::new_empty"), nullptr);
  EXPECT_TRUE(cxx("torch::stable::new_empty")->baseline);
}

TEST(RulesImport, MergeKeepsTheRulesOnlyForHeadersWithoutGuards) {
  for (bool versioned : {true, false}) {
    StableApiIndex index;
    index.add(StableApi{"torch::stable::f", TorchVersion{2, 11, 0}, false, "function", "torch/csrc/stable/ops.h"}, false);
    ImportedApis a;
    a.versioned = versioned;
    a.cxx.push_back(StableApi{"torch::stable::f", TorchVersion{2, 9, 0}, true, "function", "torch/csrc/stable/ops.h"});
    merge_imported(index, a);
    ASSERT_NE(index.find("torch::stable::f"), nullptr);
    EXPECT_EQ(index.find("torch::stable::f")->baseline, versioned);
  }
}

TEST(RulesImport, CxxTableAndJsonKeepEveryFact) {
  StableApiIndex idx;
  idx.add_cxx_tsv(imported_cxx_tsv(imported()), "table", false);
  ImportedApis back = imported_from_json(imported_to_json(imported()));
  EXPECT_EQ(back.versioned, imported().versioned);
  EXPECT_EQ(back.targets_parsed, imported().targets_parsed);
  ASSERT_EQ(back.cxx.size(), imported().cxx.size());
  for (size_t i = 0; i < back.cxx.size(); ++i) {
    const StableApi& a = imported().cxx[i];
    const StableApi* t = idx.find(a.name);
    ASSERT_NE(t, nullptr) << a.name;
    EXPECT_EQ(t->since_label(), a.since_label()) << a.name;
    EXPECT_EQ(t->kind, a.kind) << a.name;
    EXPECT_EQ(t->header, a.header) << a.name;
    EXPECT_EQ(back.cxx[i].since_label(), a.since_label()) << a.name;
  }
  EXPECT_THROW(imported_from_json("{}"), std::runtime_error);
}

// Every API of the shipped rules the headers declare has the release the
// headers' guards give it; every C++ name of the shipped table is declared.
// What the headers add that the rules do not know is listed, and is a
// failure only for a C++ API guarded for a release the rules already know
// (the table is stale: run scripts/build-cxx-rules.sh).
TEST(RulesImport, RealHeadersAgreeWithTheShippedRules) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const ImportedApis& a = real_import();
  EXPECT_TRUE(a.versioned);
  EXPECT_EQ(a.torch_version, real_release());
  std::map<std::string, const StableApi*> cxx_read, c_read;
  for (const auto& x : a.cxx) cxx_read[x.name] = &x;
  for (const auto& f : a.c_functions) c_read[f.api.name] = &f.api;

  StableApiIndex shipped_cxx;
  const auto& rules = inputs::RulesSource::embedded();
  shipped_cxx.add_cxx_tsv(rules.require("api/stable_cxx_apis.tsv"), "api/stable_cxx_apis.tsv", false);
  const auto& catalog = inputs::ApiCatalog::current();
  const TorchVersion latest = catalog.latest();

  std::string disagreements, newer, unknown_c;
  for (const auto& row : shipped_cxx.all()) {
    auto it = cxx_read.find(row.name);
    if (it == cxx_read.end()) disagreements += row.name + ": in the shipped C++ table, not declared by the headers\n";
    else if (it->second->since_label() != row.since_label())
      disagreements += row.name + ": shipped " + row.since_label() + ", headers " + it->second->since_label() + "\n";
  }
  for (const auto& f : catalog.c_functions()) {
    auto it = c_read.find(f.name);
    if (it == c_read.end()) continue;  // exported for dlopen users or helpers the headers do not declare in C
    if (it->second->baseline != f.baseline || (!f.baseline && it->second->since != f.since))
      disagreements += f.name + ": shipped " + f.since_label() + ", headers " + it->second->since_label() + "\n";
  }
  for (const auto& [name, x] : cxx_read) {
    if (shipped_cxx.find(name)) continue;
    if (!x->baseline && x->since > latest) newer += "  " + name + " " + x->since_label() + "\n";
    else disagreements += name + ": declared by the headers (" + x->since_label() + "), not in the shipped C++ table\n";
  }
  for (const auto& [name, x] : c_read)
    if (!catalog.find_c(name)) (!x->baseline && x->since > latest ? newer : unknown_c) += "  " + name + " " + x->since_label() + "\n";
  EXPECT_TRUE(disagreements.empty()) << disagreements << "(regenerate with scripts/build-cxx-rules.sh)";
  if (!newer.empty())
    std::cout << "APIs newer than the rules' latest release " << latest.str() << " (" << ::torchabi::test::real_torch_packages()
              << "):\n" << newer;
  if (!unknown_c.empty()) std::cout << "C functions and types the headers declare and the C catalog lacks:\n" << unknown_c;
}

TEST(RulesImport, RealHeadersDateEveryNameByItsOldestDeclaration) {
  TORCHABI_REQUIRE_REAL_TORCH();
  const ImportedApis& a = real_import();
  const TorchVersion own = real_release();
  for (const auto& x : a.cxx) EXPECT_LE(x.since, own) << x.name;
  for (const auto& f : a.c_functions) EXPECT_LE(f.api.since, own) << f.api.name;
  // A name whose only declaration for old targets sits under an upper bound
  // (`#if TORCH_FEATURE_VERSION < ...`) is found by a parse at an older target.
  const std::string ops = read_file(::torchabi::test::real_torch_include() + "/torch/csrc/stable/ops.h");
  if (ops.find("#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0") != std::string::npos) {
    EXPECT_FALSE(a.targets_parsed.empty());
    for (const char* name : {"torch::stable::new_empty", "torch::stable::new_zeros"}) {
      auto it = std::find_if(a.cxx.begin(), a.cxx.end(), [&](const StableApi& x) { return x.name == name; });
      ASSERT_NE(it, a.cxx.end()) << name;
      EXPECT_TRUE(it->baseline) << name << " " << it->since_label();
    }
  }
}

TEST(RulesImport, DirectoryWithoutStableHeadersIsAnInputError) {
  EXPECT_THROW(import_stable_headers("/usr/include", env().classifier, TorchVersion{2, 9, 0}), InputError);
}

}  // namespace
}  // namespace torchabi::source::test
