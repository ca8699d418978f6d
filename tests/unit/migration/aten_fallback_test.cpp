// ATen operators called by name (aten_fallback.h): which overload can be
// boxed, how Tensor's C++ operators map to named functions, and that the
// shipped rules agree with the real schemas they were derived from.
#include <gtest/gtest.h>

#include "analyzers/migration/aten_fallback.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

using namespace torchabi::migration;
using torchabi::InputError;
using torchabi::inputs::AtenOps;

namespace {

const char* kOps = R"(# release: 2.14.1
flip	backend	flip(Tensor self, int[] dims) -> Tensor
item	composite	item(Tensor self) -> Scalar
linspace	composite	linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None) -> Tensor
linspace.Tensor_Tensor	composite	linspace.Tensor_Tensor(Tensor start, Tensor end, int steps, *, ScalarType? dtype=None) -> Tensor
neg	backend	neg(Tensor self) -> Tensor
sum	composite	sum(Tensor self, *, ScalarType? dtype=None) -> Tensor
sum.IntList_out	backend	sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
max	backend	max(Tensor self) -> Tensor
max.dim	backend	max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
)";

const char* kTypes = "spelling\ttorch_type\tstable\nTensor\tTensorType\ttensor\nint\tIntType\tint\n"
                     "bool\tBoolType\tbool\nScalar\tNumberType\t-\nScalarType\tScalarTypeType\tscalar_type\n";

const char* kOperators = "api\tfunction\top\nat::Tensor::operator-\tat::neg\tneg\n";

AtenFallback fallback() { return AtenFallback::parse(AtenOps::parse(kOps, "ops"), kTypes, kOperators, "test"); }

}  // namespace

TEST(AtenFallback, NamesTheDefaultOverloadOfAnOperatorWithBoxableTypes) {
  auto call = fallback().dispatcher_call("at::Tensor::flip");
  ASSERT_TRUE(call);
  EXPECT_EQ(call->op, "aten::flip");
  EXPECT_EQ(call->overload, "");
  EXPECT_EQ(call->schema, "flip(Tensor self, int[] dims) -> Tensor");
  EXPECT_TRUE(call->instead_of.empty());
  const std::string w = AtenFallback::workaround(*call);
  EXPECT_NE(w.find("torch_call_dispatcher(\"aten::flip\", \"\", stack, TORCH_ABI_VERSION)"), std::string::npos) << w;
  EXPECT_NE(w.find("aoti_torch_call_dispatcher"), std::string::npos) << w;
}

TEST(AtenFallback, SkipsOverloadsWhoseTypesHaveNoStableIValue) {
  auto call = fallback().dispatcher_call("torch::linspace");  // the default takes Scalar
  ASSERT_TRUE(call);
  EXPECT_EQ(call->overload, "Tensor_Tensor");
  EXPECT_EQ(call->instead_of, "linspace");
  EXPECT_NE(AtenFallback::workaround(*call).find("Not linspace"), std::string::npos);
  EXPECT_FALSE(fallback().dispatcher_call("at::Tensor::item"));  // returns a Scalar: no overload works
}

TEST(AtenFallback, OutFunctionsUseTheOutOverloadsAndTuplesAreBoxable) {
  auto out = fallback().dispatcher_call("at::sum_out");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->overload, "IntList_out");
  auto plain = fallback().dispatcher_call("at::sum");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->overload, "");
  auto max = fallback().dispatcher_call("at::max");
  ASSERT_TRUE(max);
  EXPECT_EQ(max->overload, "");
}

TEST(AtenFallback, MapsTensorOperatorsToTheFunctionsTheyCall) {
  EXPECT_EQ(fallback().named_function("at::Tensor::operator-"), "at::neg");
  EXPECT_EQ(fallback().named_function("at::Tensor::flip"), "");
  auto call = fallback().dispatcher_call("at::Tensor::operator-");
  ASSERT_TRUE(call);
  EXPECT_EQ(call->op, "aten::neg");
}

TEST(AtenFallback, IgnoresNamesThatAreNoOperators) {
  EXPECT_FALSE(fallback().dispatcher_call("at::Tensor"));             // a type
  EXPECT_FALSE(fallback().dispatcher_call("at::native::flip"));       // internal namespace
  EXPECT_FALSE(fallback().dispatcher_call("c10::cuda::flip"));        // not at:: or torch::
  EXPECT_FALSE(fallback().dispatcher_call("at::Tensor::unknown_op"));
}

TEST(AtenFallback, AnOperatorRowNamingNoAtenOperatorIsAnError) {
  EXPECT_THROW(AtenFallback::parse(AtenOps::parse(kOps, "ops"), kTypes, "api\tfunction\top\nat::operator*\tat::mul\tmul.Tensor\n",
                                   "test"),
               InputError);
  EXPECT_THROW(AtenFallback::parse(AtenOps::parse(kOps, "ops"), kTypes, "api\tfunction\nx\ty\n", "test"), InputError);
}

// The shipped tables: every operator row names an ATen operator of the real
// native_functions.yaml the rules were derived from, and the common ops resolve.
TEST(AtenFallback, TheShippedRulesLoadAndResolveRealOperators) {
  const AtenFallback real = AtenFallback::load(torchabi::inputs::RulesSource::embedded());
  auto flip = real.dispatcher_call("at::Tensor::flip");
  ASSERT_TRUE(flip);
  EXPECT_EQ(flip->schema, "flip(Tensor self, int[] dims) -> Tensor");
  EXPECT_EQ(real.named_function("at::operator*"), "at::mul");
  EXPECT_FALSE(real.dispatcher_call("at::Tensor::item"));
  auto sub = real.dispatcher_call("at::operator-");  // sub.Tensor has a Scalar alpha
  EXPECT_FALSE(sub && sub->op == "aten::sub" && sub->overload == "Tensor");
}
