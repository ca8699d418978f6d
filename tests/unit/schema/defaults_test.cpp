// Defaults must suit their argument's type. What PyTorch rejects at
// registration is a parse error; what it accepts although it cannot be meant
// is reported by questionable_defaults().
#include <gtest/gtest.h>

#include "analyzers/schema/default_rules.h"
#include "test_helpers.h"

namespace torchabi::schema {
namespace {

using testing::must_fail;
using testing::must_parse;

class AcceptedDefaults : public ::testing::TestWithParam<const char*> {};
TEST_P(AcceptedDefaults, ParseWithoutWarnings) {
  auto s = must_parse(std::string("f(") + GetParam() + ") -> ()");
  auto warnings = questionable_defaults(s);
  EXPECT_TRUE(warnings.empty()) << warnings.front().message;
}

INSTANTIATE_TEST_SUITE_P(
    Types, AcceptedDefaults,
    ::testing::Values("Tensor x=None", "Tensor? x=None", "Generator? g=None", "int x=-3",
                      "int x=0x10", "int x=Mean", "SymInt x=1", "float x=1", "float x=-1.5e-3",
                      "complex x=1.5j", "bool x=False", "bool? x=None", "str x='a'",
                      "str? x=None", "Dimname x=\"n\"", "Scalar x=1", "Scalar x=0.5",
                      "Scalar x=True", "ScalarType x=long", "ScalarType? x=float32",
                      "ScalarType? x=bfloat16", "Layout x=strided",
                      "MemoryFormat x=contiguous_format", "Device x=\"cuda:0\"",
                      "Device? x=None", "Stream? x=None", "int[] x=[]", "int[2] x=1",
                      "int[2] x=[1,2]", "float[] x=[1.0,2]", "bool[3] x=[True,False,True]",
                      "SymInt[] x=[]", "int[1]? x=None", "float[]? x=None"));

struct BadDefault {
  const char* argument;
  const char* message_part;
};

// PyTorch 1.13's torch._C.parse_schema rejects each of these too.
class RejectedDefaults : public ::testing::TestWithParam<BadDefault> {};
TEST_P(RejectedDefaults, NameTheArgumentAndColumn) {
  std::string text = std::string("f(") + GetParam().argument + ") -> ()";
  ParseError e = must_fail(text);
  EXPECT_NE(e.message.find(GetParam().message_part), std::string::npos) << e.display();
  EXPECT_NE(e.message.find("bad default for 'x'"), std::string::npos) << e.display();
  // The column is that of the default value, just after '='.
  EXPECT_EQ(e.column, text.find('=') + 2) << e.display();
}

INSTANTIATE_TEST_SUITE_P(
    Types, RejectedDefaults,
    ::testing::Values(BadDefault{"Tensor x=1", "can only default to None"},
                      BadDefault{"int x=99999999999999999999", "does not fit in 64 bits"},
                      BadDefault{"int x=Median", "not a known constant name"},
                      BadDefault{"ScalarType x=flaot32", "not a known constant name"},
                      BadDefault{"Device x=cpu", "string such as"},
                      BadDefault{"int[] x=1", "list literal"},
                      BadDefault{"int[] x=None", "cannot default to None"},
                      BadDefault{"int[]? x=[1]", "cannot default to a list"},
                      BadDefault{"Tensor[] x=[]", "only supported for lists of int"},
                      BadDefault{"int[] x=[1.5]", "must be an integer"},
                      BadDefault{"bool[2] x=[1,0]", "must be True or False"},
                      BadDefault{"int x=[1]", "needs a list type"},
                      BadDefault{"Any x=None", "cannot have a default value"},
                      BadDefault{"Stream x=None", "cannot have a default value"},
                      BadDefault{"(int, int) x=None", "cannot have a default value"}));

// PyTorch registers these, but the default cannot be what the author meant.
class QuestionableDefaults : public ::testing::TestWithParam<BadDefault> {};
TEST_P(QuestionableDefaults, ParseButWarn) {
  auto s = must_parse(std::string("f(Tensor self, ") + GetParam().argument + ") -> ()");
  auto warnings = questionable_defaults(s);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].argument, 1u);
  EXPECT_NE(warnings[0].message.find(GetParam().message_part), std::string::npos)
      << warnings[0].message;
}

INSTANTIATE_TEST_SUITE_P(
    Types, QuestionableDefaults,
    ::testing::Values(BadDefault{"int x=None", "only a valid default for optional"},
                      BadDefault{"int x=1.5", "takes an integer"},
                      BadDefault{"bool x=1", "True or False"},
                      BadDefault{"str x=1", "takes a string"},
                      BadDefault{"str x=None", "only a valid default for optional"},
                      BadDefault{"float x='a'", "takes a number"},
                      BadDefault{"Scalar x='a'", "a number or True/False"},
                      BadDefault{"int[]? x=1", "optional list can only default to None"}));

TEST(SchemaDefaults, MissingValueAfterEquals) {
  ParseError e = must_fail("f(int x=) -> ()");
  EXPECT_EQ(e.column, 9u);
  EXPECT_NE(e.message.find("expected a default value"), std::string::npos) << e.display();
}

TEST(SchemaDefaults, SpansLocateArgumentsAndDefaults) {
  SchemaSpans spans;
  //                  0         1         2         3
  //                  0123456789012345678901234567890123456
  std::string text = "f(Tensor self, int x=None) -> (int a, int b)";
  auto r = parse_schema(text, {}, &spans);
  ASSERT_TRUE(std::holds_alternative<FunctionSchema>(r));
  EXPECT_EQ(spans.arguments, (std::vector<uint32_t>{2, 15}));
  EXPECT_EQ(spans.defaults, (std::vector<uint32_t>{0, 21}));
  EXPECT_EQ(spans.returns, (std::vector<uint32_t>{31, 38}));
  EXPECT_EQ(line_and_column(text, spans.defaults[1]), (std::pair<uint32_t, uint32_t>{1, 22}));
}

}  // namespace
}  // namespace torchabi::schema
