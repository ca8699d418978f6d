// Symbol classes against the shipped catalog (rules/api/): the decision is
// made on the demangled declaration context, never on a name prefix.
#include <gtest/gtest.h>

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

SymbolKind kind(const char* symbol) { return classifier().classify(symbol).kind; }

}  // namespace

TEST(SymbolClassifier, StableShimCarriesItsRelease) {
  auto c = classifier().classify("aoti_torch_get_sizes");
  ASSERT_EQ(c.kind, SymbolKind::StableShim);
  ASSERT_NE(c.function, nullptr);
  EXPECT_TRUE(c.function->baseline);

  auto newer = classifier().classify("aoti_torch_dtype_float8_e8m0fnu");
  ASSERT_EQ(newer.kind, SymbolKind::StableShim);
  EXPECT_FALSE(newer.function->baseline);
  EXPECT_EQ(newer.function->since.str(), "2.12");
  EXPECT_EQ(classifier().classify("torch_library_impl").function->since.str(), "2.10");
}

TEST(SymbolClassifier, UnknownShimLikeNames) {
  EXPECT_EQ(kind("aoti_torch_some_future_function"), SymbolKind::UnknownShim);
  EXPECT_EQ(kind("torch_brand_new_entry_point"), SymbolKind::UnknownShim);
  // Catalog type names are not entry points.
  EXPECT_EQ(kind("StableListHandle"), SymbolKind::Other);
}

TEST(SymbolClassifier, OtherSymbols) {
  EXPECT_EQ(kind("malloc"), SymbolKind::Other);
  EXPECT_EQ(kind("PyLong_FromLong"), SymbolKind::Other);
  EXPECT_EQ(kind("cudaMalloc"), SymbolKind::Other);
  EXPECT_EQ(kind("_ZdlPvm"), SymbolKind::Other);  // operator delete
  EXPECT_EQ(kind("_ZNSt6vectorIN2at6TensorESaIS1_EEC1Ev"), SymbolKind::Other);  // std::vector<at::Tensor>
}

TEST(SymbolClassifier, UnstableCxxByDeclarationContext) {
  auto c = classifier().classify("_ZN3c106detail14torchCheckFailEPKcS2_jS2_", true);
  ASSERT_EQ(c.kind, SymbolKind::UnstableCxx);
  EXPECT_EQ(c.ns, "c10");
  EXPECT_EQ(c.context, "c10::detail");
  EXPECT_EQ(c.demangled, "c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)");
  EXPECT_EQ(classifier().classify("_ZN2at4_ops10mul_Scalar4callERKNS_6TensorERKN3c106ScalarE").ns, "at");
  EXPECT_EQ(classifier().classify("_ZN6caffe28TypeMeta26error_unsupported_typemetaES0_").ns, "caffe2");
  EXPECT_EQ(classifier().classify("_ZN5torch3jit17parseSchemaOrNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE").ns,
            "torch");
}

TEST(SymbolClassifier, EdgeCasesAPrefixMatchWouldGetWrong) {
  EXPECT_EQ(kind("_ZN3c103fooIiEEvv"), SymbolKind::UnstableCxx);   // "void c10::foo<int>()"
  EXPECT_EQ(kind("_ZTIN3c105ErrorE"), SymbolKind::UnstableCxx);    // "typeinfo for c10::Error"
  EXPECT_EQ(kind("_ZTVN2at6TensorE"), SymbolKind::UnstableCxx);    // "vtable for at::Tensor"
  EXPECT_EQ(kind("_ZGVZN3c107counterEvE1c"), SymbolKind::UnstableCxx);  // guard variable
  EXPECT_EQ(kind("_ZZN3c103fooIiEEvvENKUlvE_clEv"), SymbolKind::UnstableCxx);  // lambda in c10::foo<int>
  EXPECT_EQ(kind("_Z3c10v"), SymbolKind::Other);          // ::c10()
  EXPECT_EQ(kind("_Z5torchv"), SymbolKind::Other);        // ::torch()
  EXPECT_EQ(kind("_ZN2my3c103fooEv"), SymbolKind::Other); // my::c10::foo()
  EXPECT_EQ(kind("_ZN4c10x3fooEv"), SymbolKind::Other);   // c10x::foo()
  EXPECT_EQ(kind("_Z10c10_globalPN3c105ErrorE"), SymbolKind::Other);  // ::c10_global(c10::Error*)
  EXPECT_EQ(kind("_ZN3c10"), SymbolKind::Other);          // malformed
}

TEST(SymbolClassifier, StableNamespacesWinOverTorch) {
  auto c = classifier().classify("_ZN5torch6stable6TensorD1Ev");
  EXPECT_EQ(c.kind, SymbolKind::StableCxx);
  EXPECT_EQ(c.ns, "torch::stable");
  EXPECT_EQ(kind("_ZN5torch10headeronly6detail3fooEv"), SymbolKind::StableCxx);
  EXPECT_EQ(kind("_ZN5torch8torch_fnEv"), SymbolKind::UnstableCxx);  // torch::torch_fn()
}

TEST(SymbolClassifier, PrefilterNeverChangesTheAnswer) {
  // Oracle: demangle every name and classify its context, no shortcut.
  const char* names[] = {
      "_ZN3c103fooIiEEvv", "_ZTIN3c105ErrorE", "_ZN5torch6stable6TensorD1Ev", "_ZN2my3c103fooEv",
      "_ZNSt6vectorIN2at6TensorESaIS1_EEC1Ev", "_ZN12attribute_ns3catEv", "_ZN2at4_ops10mul_Scalar4callERKNS_6TensorERKN3c106ScalarE",
      "_ZZN3c103fooIiEEvvENKUlvE_clEv", "_ZThn16_N3c103Foo3barEv", "_Z3c10v", "_ZN4c10x3fooEv", "_ZdlPvm",
      "_ZN6caffe28TypeMeta26error_unsupported_typemetaES0_", "_ZN5torch10headeronly6detail3fooEv",
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm", "_ZTVN10__cxxabiv117__class_type_infoE"};
  binary::ScopeDemangler oracle;
  const auto& catalog = inputs::ApiCatalog::current();
  for (const char* n : names) {
    auto scope = oracle.analyse(n, false);
    auto m = catalog.classify(scope.context);
    SymbolKind expected = scope.context.empty() || m.kind == inputs::NamespaceKind::Other ? SymbolKind::Other
                          : m.kind == inputs::NamespaceKind::Stable                      ? SymbolKind::StableCxx
                                                                                         : SymbolKind::UnstableCxx;
    EXPECT_EQ(kind(n), expected) << n;
  }
}

TEST(SymbolClassifier, RootsDecideWhatIsDemangled) {
  // Without the c10 root, a c10 symbol is never demangled and stays "other".
  SymbolClassifier no_c10(inputs::ApiCatalog::current(), {"at"});
  SymbolClassifier with_c10(inputs::ApiCatalog::current(), {"c10"});
  EXPECT_EQ(no_c10.classify("_ZN3c103fooIiEEvv").kind, SymbolKind::Other);
  EXPECT_EQ(with_c10.classify("_ZN3c103fooIiEEvv").kind, SymbolKind::UnstableCxx);
}

// torch/headeronly defines code in namespace c10 (rules/api/headeronly_cxx.tsv,
// derived from the real headers by scripts/headeronly-cxx.py): where it lives
// decides, not its namespace.
TEST(SymbolClassifier, HeaderOnlyC10CodeIsStable) {
  auto to_string = classifier().classify("_ZN3c108toStringENS_10ScalarTypeE", true);
  EXPECT_EQ(to_string.kind, SymbolKind::StableCxx);
  EXPECT_TRUE(to_string.header_only);
  EXPECT_EQ(to_string.demangled, "c10::toString(c10::ScalarType)");
  // An overload of the same name declared in c10/core/Backend.h is not.
  auto backend = classifier().classify("_ZN3c108toStringENS_7BackendE");
  EXPECT_EQ(backend.kind, SymbolKind::UnstableCxx);
  EXPECT_FALSE(backend.header_only);
  EXPECT_EQ(kind("_ZN3c1011elementSizeENS_10ScalarTypeE"), SymbolKind::UnstableCxx);
  // A class defined there: its members, typeinfo and vtable.
  EXPECT_EQ(kind("_ZNK3c104HalfcvfEv"), SymbolKind::StableCxx);  // c10::Half::operator float() const
  EXPECT_EQ(kind("_ZTIN3c104HalfE"), SymbolKind::StableCxx);     // typeinfo for c10::Half
  EXPECT_EQ(kind("_ZN3c108BFloat16C1Ef"), SymbolKind::StableCxx);
  // Instances of its function templates, unless they mention unstable types.
  EXPECT_EQ(kind("_ZN3c10mlIfEENS_7complexIT_EERKS3_S5_"), SymbolKind::StableCxx);  // operator*<float>(complex...)
  EXPECT_EQ(kind("_ZN3c10lsIlEERSoS1_NS_8ArrayRefIT_EE"), SymbolKind::UnstableCxx);  // operator<< <long>(ArrayRef)
  // Local entities of its functions.
  EXPECT_EQ(kind("_ZZN3c108toStringENS_10ScalarTypeEE5names"), SymbolKind::StableCxx);
  EXPECT_EQ(kind("_ZZN3c108toStringENS_7BackendEE5names"), SymbolKind::UnstableCxx);
  // Unstable code elsewhere in c10 stays unstable.
  EXPECT_EQ(kind("_ZN3c106detail14torchCheckFailEPKcS2_jS2_"), SymbolKind::UnstableCxx);
}

TEST(SymbolClassifier, WithoutHeaderOnlyDataC10IsUnstableByNamespace) {
  SymbolClassifier bare(inputs::ApiCatalog::current(), {"at", "c10", "caffe2", "torch"});
  EXPECT_EQ(bare.classify("_ZN3c108toStringENS_10ScalarTypeE").kind, SymbolKind::UnstableCxx);
}
