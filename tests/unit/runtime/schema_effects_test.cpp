// schema_effects on hand-made calls: which writes and aliases each schema
// allows, list arguments included, without running a kernel.
#include <gtest/gtest.h>

#include "analyzers/runtime/driver/schema_effects.h"
#include "analyzers/runtime/driver/signatures.h"
#include "parsed_signature.h"

namespace {

namespace rd = torchabi::runtime_driver;
namespace rt = torchabi::runtime;

rt::OpSignature sig(const std::string& schema) { return runtime_test::parsed_signature(schema); }

rt::Value tensor(double first) {
  rt::Tensor t = rt::make_tensor({3}, rt::dtype::kFloat32);
  for (int64_t i = 0; i < 3; ++i) rt::write_double(*t, i, first + i);
  return rt::Value::of_tensor(t);
}

rt::CallOutcome returned(std::vector<rt::Value> outputs) {
  rt::CallOutcome o;
  o.returned = o.outputs_valid = true;
  o.outputs = std::move(outputs);
  return o;
}

std::vector<std::string> rules(const rd::Effects& fx) {
  std::vector<std::string> out;
  for (const auto& f : fx.findings) out.push_back(f.rule);
  return out;
}

TEST(RuntimeSchemaEffects, WritesToAMutableListItemAreDeclared) {
  auto s = sig("f(Tensor(a!)[] self, Tensor[] other) -> ()");
  std::vector<rt::Value> args = {rt::Value::of_list({tensor(0), tensor(10)}), rt::Value::of_list({tensor(5)})};
  rd::InputSnapshot before(s, args);
  rt::write_double(*args[0].list[1].tensor, 2, 99);
  auto fx = rd::schema_effects(s, args, returned({}), before, "");
  EXPECT_TRUE(fx.findings.empty());
  EXPECT_EQ(fx.written_mutable, std::vector<std::string>{"self"});
}

TEST(RuntimeSchemaEffects, WriteToAPlainListItemNamesTheItem) {
  auto s = sig("f(Tensor(a!)[] self, Tensor[] other) -> ()");
  std::vector<rt::Value> args = {rt::Value::of_list({tensor(0)}), rt::Value::of_list({tensor(5), tensor(7)})};
  rd::InputSnapshot before(s, args);
  rt::write_double(*args[1].list[1].tensor, 0, 1);
  auto fx = rd::schema_effects(s, args, returned({}), before, "");
  ASSERT_EQ(rules(fx), std::vector<std::string>{"runtime-undeclared-mutation"});
  EXPECT_NE(fx.findings[0].message.find("argument 'other' item 1 (element [0] changed from 7 to 1)"),
            std::string::npos)
      << fx.findings[0].message;
}

TEST(RuntimeSchemaEffects, ViewsNeedTheAliasSetOfTheirInput) {
  auto plain = sig("f(Tensor x) -> Tensor");
  auto annotated = sig("f(Tensor(a) x) -> Tensor(a)");
  auto other_set = sig("f(Tensor(a) x, Tensor(b) y) -> Tensor(b)");
  std::vector<rt::Value> args = {tensor(0)};
  const auto& x = *args[0].tensor;
  rt::Value view = rt::Value::of_tensor(rt::make_view(x, {2}, {1}, 1));
  rd::InputSnapshot before(plain, args);
  EXPECT_EQ(rules(rd::schema_effects(plain, args, returned({view}), before, "")),
            std::vector<std::string>{"runtime-undeclared-alias"});
  EXPECT_TRUE(rd::schema_effects(annotated, args, returned({view}), before, "").findings.empty());
  std::vector<rt::Value> two = {tensor(0), tensor(5)};
  rt::Value view_of_x = rt::Value::of_tensor(rt::make_view(*two[0].tensor, {2}, {1}, 0));
  rd::InputSnapshot before_two(other_set, two);
  EXPECT_EQ(rules(rd::schema_effects(other_set, two, returned({view_of_x}), before_two, "")),
            (std::vector<std::string>{"runtime-undeclared-alias", "runtime-alias-not-aliasing"}));
}

TEST(RuntimeSchemaEffects, EmptyTensorsShareNothing) {
  auto s = sig("f(Tensor x) -> Tensor");
  rt::Tensor empty = rt::make_tensor({0}, rt::dtype::kFloat32);
  std::vector<rt::Value> args = {rt::Value::of_tensor(empty)};
  rd::InputSnapshot before(s, args);
  EXPECT_TRUE(rd::schema_effects(s, args, returned({args[0]}), before, "").findings.empty());
}

TEST(RuntimeSchemaEffects, TallyReportsOnlyArgumentsNoCallWrote) {
  rd::MutationTally tally;
  tally.record("t::f", {"a", "b"}, {"a"});
  tally.record("t::f", {"a", "b"}, {});
  auto notes = tally.never_written();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].message, "t::f declares argument 'b' mutable (`(a!)`), but none of its 2 completed calls changed it");
}

}  // namespace
