// MSVC-mangled symbols (Windows imports) are classified by their declaration
// context, as Itanium ones are: the same namespaces, the same header-only
// exceptions.
#include <gtest/gtest.h>

#include "analyzers/binary/msvc_scope.h"
#include "analyzers/binary/symbol_classifier.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

using namespace torchabi;
using binary::SymbolClassifier;
using binary::SymbolKind;

namespace {

SymbolClassifier& classifier() {
  static SymbolClassifier c =
      SymbolClassifier::from_rules(inputs::ApiCatalog::current(), inputs::RulesSource::current());
  return c;
}

TEST(MsvcScope, ContextIsEveryComponentButTheEntity) {
  auto s = binary::analyse_msvc("?torchCheckFail@detail@c10@@YAXPEBD0I0@Z", true);
  ASSERT_TRUE(s.demangled);
  EXPECT_EQ(s.context, "c10::detail");
  EXPECT_EQ(s.qualified, "c10::detail::torchCheckFail");
  EXPECT_EQ(s.text, "void c10::detail::torchCheckFail(char const *, char const *, unsigned int, char const *)");
  EXPECT_FALSE(s.is_template_instance);
  // A constructor and a vftable belong to their class.
  EXPECT_EQ(binary::analyse_msvc("??0Error@c10@@QEAA@PEBD@Z", false).context, "c10::Error");
  EXPECT_EQ(binary::analyse_msvc("??_7Error@c10@@6B@", false).context, "c10::Error");
  EXPECT_FALSE(binary::analyse_msvc("?broken@@", false).demangled);
  EXPECT_FALSE(binary::analyse_msvc("?", false).demangled);
}

TEST(MsvcSymbols, UnstableCxxByNamespace) {
  auto c = classifier().classify("?torchCheckFail@detail@c10@@YAXPEBD0I0@Z", true);
  ASSERT_EQ(c.kind, SymbolKind::UnstableCxx);
  EXPECT_EQ(c.ns, "c10");
  EXPECT_EQ(c.context, "c10::detail");
  EXPECT_EQ(classifier().classify("??0Error@c10@@QEAA@PEBD@Z").kind, SymbolKind::UnstableCxx);
  // at::Tensor inside std::vector: std's, like the Itanium spelling.
  EXPECT_EQ(classifier().classify("??0?$vector@VTensor@at@@V?$allocator@VTensor@at@@@std@@@std@@QEAA@XZ").kind,
            SymbolKind::Other);
  EXPECT_EQ(classifier().classify("?helper@mylib@@YAXXZ").kind, SymbolKind::Other);
}

TEST(MsvcSymbols, HeaderOnlyClassesAreStableUnderAnySpelling) {
  // c10::Half is defined by torch/headeronly: its Itanium and MSVC members agree.
  const auto itanium = classifier().classify("_ZN3c104HalfC1Ef");
  const auto msvc = classifier().classify("??0Half@c10@@QEAA@M@Z");
  ASSERT_EQ(itanium.kind, SymbolKind::StableCxx);
  ASSERT_TRUE(itanium.header_only);
  EXPECT_EQ(msvc.kind, itanium.kind);
  EXPECT_EQ(msvc.header_only, itanium.header_only);
}

TEST(MsvcSymbols, CShimNamesAreTheSameOnEveryPlatform) {
  EXPECT_EQ(classifier().classify("aoti_torch_get_numel").kind, SymbolKind::StableShim);
}

}  // namespace
