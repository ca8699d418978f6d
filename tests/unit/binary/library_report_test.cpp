// From an ELF image to verdict, floor, loads-on text and findings.
#include <gtest/gtest.h>

#include "analyzers/binary/library_report.h"
#include "analyzers/binary/library_scan.h"
#include "inputs/api_catalog.h"
#include "inputs/elf_image_builder.h"
#include "inputs/elf_view.h"
#include "inputs/rules_source.h"

using namespace torchabi;
using binary::LibraryScan;
using test_support::ElfImageSpec;
using test_support::ElfSymbolSpec;

namespace {

binary::SymbolClassifier& classifier() {
  static binary::SymbolClassifier c =
      binary::SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  return c;
}

LibraryScan scan(const ElfImageSpec& spec) {
  auto img = test_support::build_elf(spec);
  inputs::ElfView elf(img.bytes, "lib.so");
  return binary::scan_library(elf, classifier());
}

findings::Report report(const ElfImageSpec& spec, binary::AuditOptions options = {}) {
  findings::Report r;
  findings::Location where;
  where.file = "lib.so";
  binary::report_library(scan(spec), where, options, r);
  return r;
}

ElfImageSpec stable_212() {
  ElfImageSpec s;
  s.needed = {"libstdc++.so.6"};
  s.symbols = {{"aoti_torch_get_sizes"}, {"torch_library_impl"}, {"aoti_torch_dtype_float8_e8m0fnu"},
               {"memcpy"}, {"my_kernel", true}, {"_ZN3c107counterEv", true, STB_GLOBAL}};
  return s;
}

ElfImageSpec legacy() {
  ElfImageSpec s;
  s.needed = {"libtorch_cpu.so.1.13", "libc10.so.1.13"};
  s.symbols = {{"_ZN3c106detail14torchCheckFailEPKcS2_jS2_"},
               {"_ZN2at4_ops10mul_Scalar4callERKNS_6TensorERKN3c106ScalarE"},
               {"_ZN3c103fooIiEEvv", true, STB_WEAK},
               {"_ZTIN3c105ErrorE", true, STB_WEAK, STT_OBJECT},
               {"_ZN3c107counterEv", true, STB_WEAK, STT_FUNC, STV_HIDDEN},          // not exported
               {"_ZN3c103barEv", true, STB_WEAK, STT_FUNC, STV_DEFAULT, 0x8002},     // hidden version
               {"_ZNSt6vectorIN2at6TensorESaIS1_EED1Ev", true, STB_WEAK},            // std::, not torch
               {"_ZN3c103bazEv", true, STB_GNU_UNIQUE, STT_OBJECT}};
  return s;
}

}  // namespace

TEST(LibraryScan, SortsImportsAndCountsLeaks) {
  LibraryScan s = scan(legacy());
  EXPECT_EQ(s.unstable_imports.size(), 2u);
  EXPECT_EQ(s.unstable_imports[0].demangled, "at::_ops::mul_Scalar::call(at::Tensor const&, c10::Scalar const&)");
  EXPECT_EQ(s.unstable_imports[0].ns, "at");
  EXPECT_EQ(s.leaked_count, 3u);  // foo<int>, typeinfo for c10::Error, c10::baz (unique)
  ASSERT_EQ(s.leaked_examples.size(), 3u);
  EXPECT_EQ(s.leaked_examples[0].demangled, "void c10::foo<int>()");
  EXPECT_EQ(s.needed, (std::vector<std::string>{"libtorch_cpu.so.1.13", "libc10.so.1.13"}));
  EXPECT_STREQ(binary::verdict_of(s), binary::kVerdictUnstable);
}

TEST(LibraryScan, StrongDefinitionsAreIgnored) {
  LibraryScan s = scan(stable_212());
  EXPECT_EQ(s.stable_shims.size(), 3u);
  EXPECT_EQ(s.other_imports, 1u);  // memcpy; definitions are not imports
  EXPECT_EQ(s.leaked_count, 0u);   // a GLOBAL c10 definition is the library's own code, not an inline copy
}

TEST(LibraryReport, StableSubjectWithFloor) {
  findings::Report r = report(stable_212());
  ASSERT_EQ(r.subjects.size(), 1u);
  const auto& s = r.subjects[0];
  EXPECT_EQ(s.verdict, "STABLE");
  ASSERT_TRUE(s.floor);
  EXPECT_EQ(s.floor->str(), "2.12");
  EXPECT_EQ(s.floor_set_by, std::vector<std::string>{"aoti_torch_dtype_float8_e8m0fnu"});
  EXPECT_EQ(s.loads_on, "PyTorch >= 2.12");
  EXPECT_TRUE(r.findings.empty());
}

TEST(LibraryReport, TargetVersionFlagsEveryNewerImport) {
  binary::AuditOptions o;
  o.target = TorchVersion{2, 10, 0};
  findings::Report r = report(stable_212(), o);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].rule, "version-import-after-target");
  EXPECT_EQ(r.findings[0].location.symbol, "aoti_torch_dtype_float8_e8m0fnu");
  EXPECT_EQ(r.findings[0].message,
            "imports aoti_torch_dtype_float8_e8m0fnu, introduced in PyTorch 2.12, after the target 2.10");
  o.target = TorchVersion{2, 12, 0};
  EXPECT_TRUE(report(stable_212(), o).findings.empty());
  o.target = TorchVersion{2, 9, 0};
  EXPECT_EQ(report(stable_212(), o).findings.size(), 2u);  // torch_library_impl (2.10) too; baseline never
}

TEST(LibraryReport, UnstableLibraryFindings) {
  findings::Report r = report(legacy());
  ASSERT_EQ(r.subjects.size(), 1u);
  EXPECT_EQ(r.subjects[0].verdict, "UNSTABLE");
  EXPECT_EQ(r.subjects[0].loads_on,
            "only the PyTorch release it was built against (it links libtorch_cpu.so.1.13, libc10.so.1.13)");
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].rule, "binary-unstable-import");
  EXPECT_EQ(r.findings[0].location.symbol, "at::_ops::mul_Scalar::call(at::Tensor const&, c10::Scalar const&)");
  EXPECT_EQ(r.findings[1].location.symbol,
            "c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)");
  EXPECT_EQ(r.findings[2].rule, "binary-leaked-inline-cxx");
  EXPECT_NE(r.findings[2].message.find("exports 3 weak definition(s)"), std::string::npos);
  for (const auto& f : r.findings) EXPECT_FALSE(f.help.empty()) << f.rule;
}

TEST(LibraryReport, UnknownShimAndNoTorch) {
  ElfImageSpec s;
  s.symbols = {{"aoti_torch_get_sizes"}, {"aoti_torch_from_the_future"}};
  findings::Report r = report(s);
  EXPECT_EQ(r.subjects[0].verdict, "STABLE");
  EXPECT_TRUE(r.subjects[0].floor_is_baseline);
  EXPECT_NE(r.subjects[0].loads_on.find("1 shim-like import(s) unknown to torchabi"), std::string::npos);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].rule, "binary-unknown-shim");

  ElfImageSpec plain;
  plain.symbols = {{"malloc"}, {"_ZdlPvm"}, {"_ZN2my3c103fooEv"}};
  findings::Report p = report(plain);
  EXPECT_EQ(p.subjects[0].verdict, "NO-TORCH");
  EXPECT_FALSE(p.subjects[0].floor);
  EXPECT_TRUE(p.findings.empty());
}

TEST(LibraryReport, BackendShimImportsSayWhichBuildTheyNeed) {
  // Every catalog function libtorch_cuda defines (read from the rules, not named here).
  std::vector<std::string> cuda;
  for (const auto& f : inputs::ApiCatalog::current().c_functions())
    if (!f.is_type && f.library == "libtorch_cuda" && f.build_condition == "USE_CUDA") cuda.push_back(f.name);
  ASSERT_GT(cuda.size(), 6u);
  ElfImageSpec s;
  s.symbols = {{"aoti_torch_get_sizes"}};
  for (const auto& n : cuda) s.symbols.push_back({n});
  findings::Report r = report(s);
  ASSERT_EQ(r.subjects.size(), 1u);
  EXPECT_EQ(r.subjects[0].verdict, "STABLE");
  EXPECT_TRUE(r.findings.empty());  // all known: no binary-unknown-shim
  EXPECT_NE(r.subjects[0].loads_on.find(", built with USE_CUDA"), std::string::npos) << r.subjects[0].loads_on;
  std::string need;
  for (const auto& [k, v] : r.subjects[0].facts)
    if (k == "needs a build with") need = v;
  EXPECT_TRUE(need.starts_with("USE_CUDA (libtorch_cuda): " + cuda[0])) << need;
  EXPECT_TRUE(need.ends_with(" and " + std::to_string(cuda.size() - 5) + " more")) << need;
  // A library of common shims alone needs no particular build.
  EXPECT_EQ(report(stable_212()).subjects[0].loads_on, "PyTorch >= 2.12");
}
