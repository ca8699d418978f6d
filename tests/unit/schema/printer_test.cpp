// Printing gives back the schema text in canonical layout, and that text
// parses to the same tree.
#include <gtest/gtest.h>

#include "analyzers/schema/printer.h"
#include "test_helpers.h"

namespace torchabi::schema {
namespace {

using testing::must_parse;

// Schemas already in canonical layout print back unchanged.
class CanonicalSchemas : public ::testing::TestWithParam<const char*> {};

TEST_P(CanonicalSchemas, PrintsBackVerbatim) {
  std::string text = GetParam();
  auto s = must_parse(text);
  EXPECT_EQ(to_string(s), text);
  EXPECT_EQ(must_parse(to_string(s)), s);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, CanonicalSchemas,
    ::testing::Values(
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "f(Tensor?[] indices, int[1]? dim=None, SymInt[2] pad=0, float[]? s=None) -> ()",
        "f(str a='\"\\'\\\\', str b=\"x\") -> Tensor output",
        "f(Tensor(a|b! -> b) x, Tensor! y) -> ((int, Tensor))",
        "prim::Print(...) -> ...",
        "prim::f(Tensor a, ...) -> (Tensor, ...)",
        "f(Dict(str, Tensor)(a) d, Union(int, float) u, Future(Tensor) fu, RRef(int) r) -> ()",
        "myops::m(__torch__.torch.classes.myops.Stack self) -> __torch__.torch.classes.myops.Stack",
        "f(int[2] stride=[1,1], float eps=1e-05, int reduction=Mean, complex c=-2j) -> ()"));

TEST(SchemaPrinter, NormalisesLayout) {
  auto s = must_parse("ns::f( Tensor  x,*,int y = 0 )->(Tensor z)");
  EXPECT_EQ(to_string(s), "ns::f(Tensor x, *, int y=0) -> Tensor z");
}

TEST(SchemaPrinter, DropsRedundantKeywordMarker) {
  // A `*` with nothing after it says nothing; the tree does not keep it.
  auto s = must_parse("f(Tensor x, *) -> Tensor");
  EXPECT_EQ(to_string(s), "f(Tensor x) -> Tensor");
}

TEST(SchemaPrinter, PrintsTypesAlone) {
  auto s = must_parse("f(Tensor(a!)?[] x) -> ()");
  EXPECT_EQ(to_string(s.arguments[0].type), "Tensor(a!)?[]");
  EXPECT_EQ(to_string(s.arguments[0]), "Tensor(a!)?[] x");
}

}  // namespace
}  // namespace torchabi::schema
