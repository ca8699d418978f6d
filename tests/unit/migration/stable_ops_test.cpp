// The generator of the project's stable_ops.h (stable_ops/stable_ops.h):
// helpers typed from the schema, compositions for Scalar schemas, and a
// header that is the same for the same helpers and keeps an earlier run's.
#include <gtest/gtest.h>

#include "analyzers/migration/stable_ops/op_schema.h"
#include "analyzers/migration/stable_ops/stable_ops.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

using namespace torchabi::migration::stable_ops;
using torchabi::InputError;
using torchabi::inputs::RulesSource;

namespace {

const Generator& real() {
  static const Generator g = Generator::load(RulesSource::directory(TORCHABI_SOURCE_DIR "/rules"));
  return g;
}

}  // namespace

TEST(OpSchema, ReadsTypesDefaultsAndReturns) {
  auto s = parse_op_schema("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "sum");
  EXPECT_EQ(s->overload, "dim_IntList");
  ASSERT_EQ(s->arguments.size(), 4u);
  EXPECT_TRUE(s->arguments[1].type.list);
  EXPECT_TRUE(s->arguments[1].type.optional);
  EXPECT_EQ(s->arguments[1].type.list_size, "1");
  EXPECT_EQ(s->arguments[2].default_value, "False");
  EXPECT_TRUE(s->arguments[3].keyword_only);
  auto c = parse_op_schema("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]");
  ASSERT_TRUE(c);
  ASSERT_EQ(c->returns.size(), 1u);
  EXPECT_TRUE(c->returns[0].list);
  auto m = parse_op_schema("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->returns.size(), 2u);
  EXPECT_TRUE(parse_op_schema("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")->arguments[0].type.mutated);
  EXPECT_FALSE(parse_op_schema("not a schema"));
}

TEST(StableOps, BoxesTheSchemasArgumentsInOrderWithItsDefaults) {
  auto h = real().helper("chunk");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->name, "chunk");
  EXPECT_NE(h->text.find("inline std::vector<torch::stable::Tensor> chunk(const torch::stable::Tensor& self, "
                         "int64_t chunks, int64_t dim = 0)"),
            std::string::npos)
      << h->text;
  EXPECT_NE(h->text.find("std::array<StableIValue, 3> stack{torch::stable::detail::from(self), "
                         "torch::stable::detail::from(chunks), torch::stable::detail::from(dim)}"),
            std::string::npos)
      << h->text;
  EXPECT_NE(h->text.find("detail::call_dispatcher(\"aten::chunk\", \"\", stack.data())"), std::string::npos);
  EXPECT_NE(h->text.find("return torch::stable::detail::to<std::vector<torch::stable::Tensor>>(stack[0]);"),
            std::string::npos);
  EXPECT_EQ(h->min_written, 2u);
  EXPECT_EQ(h->max_written, 3u);
  EXPECT_EQ(h->since.str(), "2.10");  // a list result
  auto s = real().helper("sigmoid");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->since.str(), "2.9");
  auto sum = real().helper("sum.dim_IntList");
  ASSERT_TRUE(sum);
  EXPECT_NE(sum->text.find("const std::optional<std::vector<int64_t>>& dim, bool keepdim = false, "
                           "const std::optional<torch::headeronly::ScalarType>& dtype = std::nullopt"),
            std::string::npos)
      << sum->text;
  EXPECT_NE(sum->text.find("\"aten::sum\", \"dim_IntList\""), std::string::npos);
}

TEST(StableOps, TupleResultsAndNoHelperForTypesNoStableIValueCarries) {
  auto m = real().helper("max.dim");
  ASSERT_TRUE(m);
  EXPECT_NE(m->text.find("inline std::tuple<torch::stable::Tensor, torch::stable::Tensor> max("), std::string::npos);
  EXPECT_NE(m->text.find("torch::stable::detail::to<torch::stable::Tensor>(stack[1])"), std::string::npos);
  EXPECT_FALSE(real().helper("lt.Scalar"));  // Scalar other: no composition either
  EXPECT_FALSE(real().helper("no_such_op"));
}

TEST(StableOps, ScalarSchemasAreComposedAndOperatorsTakeANumberOnEitherSide) {
  auto add = real().helper("add.Tensor");
  ASSERT_TRUE(add);
  EXPECT_NE(add->text.find("torch::stable::subtract(self, other, -alpha)"), std::string::npos);
  EXPECT_FALSE(add->why.empty());
  auto mul = real().helper("mul.Tensor");
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul->since.str(), "2.9");  // tensor * tensor: no number overloads, no 2.10
  EXPECT_EQ(mul->text.find("double"), std::string::npos);
  auto mul_n = real().helper("mul.Tensor+scalar");
  ASSERT_TRUE(mul_n);
  EXPECT_EQ(mul_n->since.str(), "2.10");  // torch::stable::full
  EXPECT_NE(mul_n->text.find("mul(double self, const torch::stable::Tensor& other)"), std::string::npos);
  EXPECT_EQ(mul_n->uses, (std::vector<std::string>{"mul.Tensor", "scalar_like"}));
  auto inplace = real().helper("mul_.Tensor+scalar");
  ASSERT_TRUE(inplace);
  EXPECT_NE(inplace->text.find("mul_(const torch::stable::Tensor& self, double other)"), std::string::npos);
  EXPECT_EQ(inplace->text.find("mul_(double self"), std::string::npos);  // `2 *= x` is not C++
  EXPECT_FALSE(real().helper("sigmoid+scalar"));
  auto addmm = real().helper("addmm");
  ASSERT_TRUE(addmm);
  EXPECT_EQ(addmm->min_written, 3u);
  EXPECT_EQ(addmm->max_written, 5u);
}

// A Scalar overload with a sibling that takes Tensors in the Scalar's places
// is spelled through that sibling; one without (leaky_relu) has no helper.
TEST(StableOps, AScalarOverloadCallsItsTensorSiblingWithZeroDimTensors) {
  auto pow = real().helper("pow.Tensor_Scalar");
  ASSERT_TRUE(pow);
  EXPECT_NE(pow->text.find("inline torch::stable::Tensor pow(const torch::stable::Tensor& self, double exponent) {"),
            std::string::npos)
      << pow->text;
  EXPECT_NE(pow->text.find("return pow(self, scalar_like(exponent, self));"), std::string::npos) << pow->text;
  EXPECT_EQ(pow->uses, (std::vector<std::string>{"pow.Tensor_Tensor", "scalar_like"}));
  EXPECT_EQ(pow->since.str(), "2.10");
  EXPECT_NE(pow->why.find("pow.Tensor_Tensor"), std::string::npos) << pow->why;
  // The Scalar first: the like tensor is the exponent.
  auto base = real().helper("pow.Scalar");
  ASSERT_TRUE(base);
  EXPECT_NE(base->text.find("return pow(scalar_like(self, exponent), exponent);"), std::string::npos) << base->text;
  // Optional Scalars with their defaults, to optional tensors.
  auto clamp = real().helper("clamp");
  ASSERT_TRUE(clamp);
  EXPECT_NE(clamp->text.find("const std::optional<double>& min = std::nullopt"), std::string::npos) << clamp->text;
  EXPECT_NE(clamp->text.find("min ? std::optional<torch::stable::Tensor>(scalar_like(*min, self)) : std::nullopt"),
            std::string::npos)
      << clamp->text;
  EXPECT_EQ(clamp->min_written, 1u);
  EXPECT_EQ(clamp->max_written, 3u);
  EXPECT_FALSE(real().helper("leaky_relu"));  // no Tensor overload of negative_slope
  // The header holds the sibling before the helper that calls it.
  const std::string h = real().header({"pow.Tensor_Scalar"});
  EXPECT_LT(h.find("// op: pow.Tensor_Tensor"), h.find("// op: pow.Tensor_Scalar")) << h;
  EXPECT_LT(h.find("// op: scalar_like"), h.find("// op: pow.Tensor_Scalar")) << h;
}

TEST(StableOps, EluIsComposedWithTheFormulaOfItsKernel) {
  auto elu = real().helper("elu");
  ASSERT_TRUE(elu);
  EXPECT_NE(elu->text.find("double alpha = 1, double scale = 1"), std::string::npos) << elu->text;
  EXPECT_NE(elu->text.find("expm1("), std::string::npos) << elu->text;
  EXPECT_NE(elu->text.find("where(gt(self, 0.0), positive, negative)"), std::string::npos) << elu->text;
  EXPECT_EQ(elu->min_written, 1u);
  EXPECT_EQ(elu->max_written, 4u);
}

// `x.add(1)` writes a number where add.Tensor takes a Tensor: the check asks
// which schema positions are single tensors to pick the number overloads.
TEST(StableOps, TellsWhichArgumentsOfASchemaAreSingleTensors) {
  EXPECT_TRUE(real().tensor_argument("add.Tensor", 0));
  EXPECT_TRUE(real().tensor_argument("add.Tensor", 1));
  EXPECT_FALSE(real().tensor_argument("add.Tensor", 2));            // Scalar alpha
  EXPECT_FALSE(real().tensor_argument("sum.dim_IntList", 1));       // int[1]? dim
  EXPECT_FALSE(real().tensor_argument("cat", 0));                   // Tensor[]
  EXPECT_FALSE(real().tensor_argument("add.Tensor", 7));            // past the schema
  EXPECT_FALSE(real().tensor_argument("no_such_op", 0));
  auto n = real().helper("add.Tensor+scalar");
  ASSERT_TRUE(n);
  EXPECT_NE(n->why.find("scalar_like"), std::string::npos) << n->why;
  EXPECT_NE(n->why.find("subtract"), std::string::npos) << n->why;  // then add.Tensor's own composition
}

TEST(StableOps, HeaderPutsAHelperAfterWhatItCallsAndIsTheSameForTheSameKeys) {
  const std::string h = real().header({"addmm", "sigmoid"});
  const size_t mm = h.find("// op: mm "), add = h.find("// op: add.Tensor "), addmm = h.find("// op: addmm ");
  const size_t like = h.find("// op: scalar_like ");
  ASSERT_NE(mm, std::string::npos) << h;
  ASSERT_NE(add, std::string::npos);
  ASSERT_NE(like, std::string::npos);
  EXPECT_LT(mm, addmm);
  EXPECT_LT(add, addmm);
  EXPECT_LT(like, addmm);
  EXPECT_NE(h.find("// op: sigmoid "), std::string::npos);
  EXPECT_EQ(h, real().header({"sigmoid", "addmm"}));
  auto keys = Generator::keys_of(h);
  ASSERT_TRUE(keys);
  EXPECT_TRUE(keys->count("addmm") && keys->count("mm") && keys->count("sigmoid") && keys->count("scalar_like"));
  EXPECT_EQ(real().header(*keys), h);  // a re-run with the same helpers writes the same text
  EXPECT_FALSE(Generator::keys_of("#pragma once\n// op: sigmoid\n"));  // not ours
}

TEST(StableOps, RejectsACompositionOfAnUnknownOperatorNamingTheFile) {
  const std::string yaml = R"(conversions: [{schema: Tensor, cpp: "torch::stable::Tensor", since: "2.9"}]
list_since: "2.10"
compositions:
  - {key: scalar_like, since: "2.10", why: w, text: "x"}
  - {key: nope.Tensor, since: "2.10", why: w, text: "x"}
)";
  try {
    Generator::parse(torchabi::inputs::AtenOps::parse("# release: 2.14.1\n"
                                                     "neg\tbackend\tneg(Tensor self) -> Tensor\n", "ops"),
                     yaml, "rules/api/stable_ops.yaml");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.input(), "rules/api/stable_ops.yaml") << e.line();
    EXPECT_NE(std::string(e.what()).find("nope.Tensor"), std::string::npos) << e.what();
  }
}
