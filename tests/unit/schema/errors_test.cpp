// Rejected schemas: each error names the problem and the column it starts at.
#include <gtest/gtest.h>

#include "test_helpers.h"

namespace torchabi::schema {
namespace {

using testing::must_fail;

struct BadSchema {
  const char* text;
  uint32_t column;
  const char* message_part;
};

class RejectedSchemas : public ::testing::TestWithParam<BadSchema> {};

TEST_P(RejectedSchemas, PointsAtTheColumn) {
  const BadSchema& c = GetParam();
  ParseError e = must_fail(c.text);
  EXPECT_EQ(e.column, c.column) << e.display();
  EXPECT_NE(e.message.find(c.message_part), std::string::npos) << e.display();
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.display().rfind("column " + std::to_string(c.column) + ": ", 0), 0u) << e.display();
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, RejectedSchemas,
    ::testing::Values(
        //          1234567890123456789012345678901234567890
        BadSchema{"myops::f(Tensr x) -> Tensor", 10, "did you mean 'Tensor'"},
        BadSchema{"myops::f(double x) -> Tensor", 10, "did you mean 'float'"},
        BadSchema{"myops::f(int64_t x) -> Tensor", 10, "did you mean 'int'"},
        BadSchema{"myops::f(Tensor x) Tensor", 20, "expected '->'"},
        BadSchema{"myops::f(Tensor x -> Tensor", 19, "')'"},
        BadSchema{"myops::f(Tensor) -> Tensor", 16, "expected an argument name"},
        BadSchema{"myops::f(Tensor x, int in) -> Tensor", 24, "reserved word"},
        BadSchema{"myops:f(Tensor x) -> Tensor", 7, "'::'"},
        BadSchema{"myops::f.default(Tensor x) -> Tensor", 10, "not a legal overload name"},
        BadSchema{"myops::f.__x(Tensor x) -> Tensor", 10, "not a legal overload name"},
        BadSchema{"myops::f(Tensor(a x) -> Tensor", 19, "to close the alias annotation"},
        BadSchema{"myops::f(Tensor() x) -> Tensor", 17, "alias set name"},
        BadSchema{"myops::f(Tensor(*|a) x) -> Tensor", 19, "wildcard"},
        BadSchema{"myops::f(int[x] y) -> Tensor", 14, "list size"},
        BadSchema{"myops::f(int[2][] y) -> Tensor", 16, "expected an argument name"},
        BadSchema{"myops::f(..., Tensor x) -> Tensor", 15, "last element of the argument list"},
        BadSchema{"myops::f(Tensor x, ...) -> (..., Tensor)", 34, "last element of the return list"},
        BadSchema{"myops::f(str s='abc) -> Tensor", 16, "unterminated string"},
        BadSchema{"myops::f(Tensor x) -> Tensor, Tensor", 29, "after the schema"},
        BadSchema{"myops::f(Tensor x) -> Tensor y z", 32, "after the schema"},
        BadSchema{"myops::f(__torch__.torch.klasses.ns.C x) -> Tensor", 26, "'classes'"},
        BadSchema{"myops::f(t x) -> Tensor", 10, "type variables are only allowed"},
        BadSchema{"myops::f(Tensor x) -> Tensor\x01", 29, "unexpected byte"},
        BadSchema{"(Tensor x) -> Tensor", 1, "expected an operator name"},
        BadSchema{"myops::f", 9, "'('"},
        BadSchema{"", 1, "expected an operator name"}));

TEST(SchemaErrors, MultiLineSchemaNamesTheLine) {
  ParseError e = must_fail("myops::f(Tensor x,\n         Tensr y) -> Tensor");
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 10u);
  EXPECT_EQ(e.display().rfind("line 2, column 10: ", 0), 0u) << e.display();
}

TEST(SchemaErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "myops::f(";
  for (int i = 0; i < 10000; ++i) deep += "(";
  deep += "int x) -> Tensor";
  ParseError e = must_fail(deep);
  EXPECT_NE(e.message.find("nested too deeply"), std::string::npos) << e.display();
}

TEST(SchemaErrors, VarargWithDefaultsIsRejected) {
  ParseError e = must_fail("prim::f(int x=1, ...) -> Tensor");
  EXPECT_NE(e.message.find("cannot have default values"), std::string::npos) << e.display();
}

}  // namespace
}  // namespace torchabi::schema
