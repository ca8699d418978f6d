// The declaration context comes from the demangler's AST: return types,
// template arguments, local entities and special names do not fool it.
#include <gtest/gtest.h>

#include "analyzers/binary/symbol_scope.h"

using torchabi::binary::ScopeDemangler;

namespace {

std::string context(const char* mangled) {
  static ScopeDemangler d;
  auto s = d.analyse(mangled, false);
  EXPECT_TRUE(s.demangled) << mangled;
  return s.context;
}

}  // namespace

TEST(SymbolScope, FunctionsAndData) {
  EXPECT_EQ(context("_ZN3c106detail14torchCheckFailEPKcS2_jS2_"), "c10::detail");
  EXPECT_EQ(context("_ZNK3c1010TensorImpl5sizesEv"), "c10::TensorImpl");
  EXPECT_EQ(context("_ZN3c1019UndefinedTensorImpl10_singletonE"), "c10::UndefinedTensorImpl");
  EXPECT_EQ(context("_ZN5torch6stable6TensorD1Ev"), "torch::stable::Tensor");
  EXPECT_EQ(context("_ZN2at6native12_GLOBAL__N_13addEv"), "at::native::(anonymous namespace)");
}

TEST(SymbolScope, TemplateFunctionReturnTypeIsNotAScope) {
  // Demangles to "void c10::foo<int>()": the text starts with the return type.
  EXPECT_EQ(context("_ZN3c103fooIiEEvv"), "c10");
  // std::unique_ptr<c10::FunctionSchema> c10::detail::inferFunctionSchemaFromFunctor<...>()
  EXPECT_EQ(context("_ZN3c106detail30inferFunctionSchemaFromFunctorIPFN2at6TensorERKS3_dEEESt10unique_ptrINS_"
                    "14FunctionSchemaESt14default_deleteIS9_EEv"),
            "c10::detail");
}

TEST(SymbolScope, TemplateArgumentsAreNotScopes) {
  // std::vector<at::Tensor>::vector(): declared in std, whatever it holds.
  EXPECT_EQ(context("_ZNSt6vectorIN2at6TensorESaIS1_EEC1Ev"), "std::vector");
  // c10::intrusive_ptr<c10::TensorImpl, ...>::reset_()
  EXPECT_EQ(context("_ZN3c1013intrusive_ptrINS_10TensorImplENS_19UndefinedTensorImplEE6reset_Ev"),
            "c10::intrusive_ptr");
  // A global function taking a c10 type is not in c10.
  EXPECT_EQ(context("_Z10c10_globalPN3c105ErrorE"), "");
}

TEST(SymbolScope, LocalEntitiesLiveInTheirFunction) {
  EXPECT_EQ(context("_ZZN3c103fooIiEEvvE1x"), "c10::foo");                  // c10::foo<int>()::x
  // Its lambda's call operator; LLVM spells the closure type 'lambda'().
  EXPECT_EQ(context("_ZZN3c103fooIiEEvvENKUlvE_clEv"), "c10::foo::'lambda'()");
  EXPECT_EQ(context("_ZZN2at4mainEvENKUlvE_clEv"), "at::main::'lambda'()");
}

TEST(SymbolScope, SpecialNamesNameTheirEntity) {
  EXPECT_EQ(context("_ZTIN3c105ErrorE"), "c10");              // typeinfo for c10::Error
  EXPECT_EQ(context("_ZTSN3c105ErrorE"), "c10");              // typeinfo name for c10::Error
  EXPECT_EQ(context("_ZTVN3c103FooE"), "c10");                // vtable for c10::Foo
  EXPECT_EQ(context("_ZTIPN3c105ErrorE"), "c10");             // typeinfo for c10::Error*
  EXPECT_EQ(context("_ZGVZN3c107counterEvE1c"), "c10::counter");  // guard variable for c10::counter()::c
  EXPECT_EQ(context("_ZThn16_N3c103Foo3barEv"), "c10::Foo");  // non-virtual thunk to c10::Foo::bar()
  EXPECT_EQ(context("_ZTv0_n24_N3c103Foo3barEv"), "c10::Foo");  // virtual thunk
  EXPECT_EQ(context("_ZTWN3c103tlsE"), "c10");                // TLS wrapper function for c10::tls
  EXPECT_EQ(context("_ZTCN3c103FooE0_NS_5Base1E"), "c10");    // construction vtable
  EXPECT_EQ(context("_ZTVN10__cxxabiv117__class_type_infoE"), "__cxxabiv1");
  EXPECT_EQ(context("_ZTIi"), "");                            // typeinfo for int
  EXPECT_EQ(context("_ZN3c103fooIiEEvv.cold"), "c10");        // a compiler clone
}

TEST(SymbolScope, NamesThatMerelyContainTorchWords) {
  EXPECT_EQ(context("_Z3c10v"), "");                  // a global function called c10
  EXPECT_EQ(context("_ZN2my3c103fooEv"), "my::c10");  // my::c10::foo()
  EXPECT_EQ(context("_ZN4c10x3fooEv"), "c10x");
}

TEST(SymbolScope, NotMangledOrMalformed) {
  ScopeDemangler d;
  EXPECT_FALSE(d.analyse("aoti_torch_get_sizes", false).demangled);
  EXPECT_FALSE(d.analyse("i", false).demangled);  // a bare type is not a symbol
  EXPECT_FALSE(d.analyse("_ZN3c10", false).demangled);
  EXPECT_FALSE(d.analyse("_Z", false).demangled);
  EXPECT_EQ(d.demangle("_ZN3c10"), "_ZN3c10");
}

TEST(SymbolScope, FullTextOnRequest) {
  ScopeDemangler d;
  auto s = d.analyse("_ZN3c103fooIiEEvv", true);
  EXPECT_EQ(s.text, "void c10::foo<int>()");
  EXPECT_TRUE(d.analyse("_ZN3c103fooIiEEvv", false).text.empty());
  EXPECT_EQ(d.demangle("_ZTIN3c105ErrorE"), "typeinfo for c10::Error");
}
