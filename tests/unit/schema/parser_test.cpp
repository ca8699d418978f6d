// The tree the parser builds for each construct of the schema language.
#include <gtest/gtest.h>

#include "analyzers/schema/parser.h"
#include "test_helpers.h"

namespace torchabi::schema {
namespace {

using testing::must_parse;

TEST(SchemaParser, NameNamespaceAndOverload) {
  auto s = must_parse("myops::add.Tensor(Tensor self, Tensor other) -> Tensor");
  EXPECT_EQ(s.name.ns, "myops");
  EXPECT_EQ(s.name.name, "add");
  EXPECT_EQ(s.name.overload, "Tensor");
  EXPECT_EQ(s.name.qualified(), "myops::add.Tensor");
  EXPECT_EQ(s.name.unqualified(), "add.Tensor");
  ASSERT_EQ(s.arguments.size(), 2u);
  EXPECT_EQ(s.arguments[1].name, "other");
  ASSERT_EQ(s.returns.size(), 1u);
  EXPECT_TRUE(s.returns[0].type.is_base(BaseType::Tensor));
}

TEST(SchemaParser, NameWithoutNamespaceOrOverload) {
  auto s = must_parse("relu(Tensor self) -> Tensor");
  EXPECT_EQ(s.name.ns, "");
  EXPECT_EQ(s.name.overload, "");
  EXPECT_EQ(s.name.qualified(), "relu");
}

TEST(SchemaParser, OptionalAndListSuffixes) {
  auto s = must_parse("f(Tensor? a, Tensor[] b, Tensor?[] c, int[]? d, int[2] e, SymInt[] g) -> ()");
  ASSERT_EQ(s.arguments.size(), 6u);
  EXPECT_TRUE(s.arguments[0].type.is_optional());
  EXPECT_TRUE(s.arguments[0].type.element().is_base(BaseType::Tensor));
  EXPECT_TRUE(s.arguments[1].type.is_list());
  EXPECT_FALSE(s.arguments[1].type.fixed_size.has_value());
  const Type& c = s.arguments[2].type;
  ASSERT_TRUE(c.is_list());
  EXPECT_TRUE(c.element().is_optional());
  const Type& d = s.arguments[3].type;
  ASSERT_TRUE(d.is_optional());
  EXPECT_TRUE(d.element().is_list());
  ASSERT_TRUE(s.arguments[4].type.is_list());
  EXPECT_EQ(s.arguments[4].type.fixed_size, 2);
  EXPECT_TRUE(s.arguments[5].type.element().is_base(BaseType::SymInt));
  EXPECT_TRUE(s.returns.empty());
}

TEST(SchemaParser, FixedSizeListThenOptional) {
  auto s = must_parse("f(int[1]? dim=None) -> Tensor");
  const Type& t = s.arguments[0].type;
  ASSERT_TRUE(t.is_optional());
  ASSERT_TRUE(t.element().is_list());
  EXPECT_EQ(t.element().fixed_size, 1);
}

TEST(SchemaParser, AliasAnnotations) {
  auto s = must_parse(
      "f(Tensor(a) x, Tensor(b!) y, Tensor(a -> *) z, Tensor(c|d! -> d) w, Tensor! v, "
      "Tensor(e!)[] list) -> Tensor(a)");
  const auto& a = *s.arguments[0].type.alias;
  EXPECT_EQ(a.before, std::vector<std::string>{"a"});
  EXPECT_FALSE(a.is_write);
  EXPECT_FALSE(s.arguments[0].is_mutable());

  const auto& b = *s.arguments[1].type.alias;
  EXPECT_TRUE(b.is_write);
  EXPECT_TRUE(s.arguments[1].is_mutable());

  const auto& z = *s.arguments[2].type.alias;
  EXPECT_TRUE(z.has_arrow);
  EXPECT_EQ(z.after, std::vector<std::string>{"*"});

  const auto& w = *s.arguments[3].type.alias;
  EXPECT_EQ(w.before, (std::vector<std::string>{"c", "d"}));
  EXPECT_TRUE(w.is_write);
  EXPECT_EQ(w.after, std::vector<std::string>{"d"});

  EXPECT_TRUE(s.arguments[4].type.alias->fresh);
  EXPECT_TRUE(s.arguments[4].is_mutable());

  // The annotation sits on the element; the list itself has none.
  const Type& list = s.arguments[5].type;
  EXPECT_FALSE(list.alias.has_value());
  ASSERT_NE(list.first_alias(), nullptr);
  EXPECT_TRUE(list.first_alias()->is_write);
}

TEST(SchemaParser, AliasOnOptionalTensor) {
  auto s = must_parse("f(Tensor(a!)? out) -> ()");
  EXPECT_TRUE(s.arguments[0].type.is_optional());
  EXPECT_TRUE(s.arguments[0].is_mutable());
}

TEST(SchemaParser, EveryBaseTypeOfTheIssue) {
  auto s = must_parse(
      "f(Tensor a, int b, SymInt c, float d, bool e, str f, ScalarType g, Layout h, "
      "MemoryFormat i, Device j, Scalar k, Generator? l, Dimname m, Storage n, Stream o, "
      "complex p, Any q, SymFloat r, SymBool s, QScheme t, DeviceIndex u) -> ()");
  const BaseType expected[] = {
      BaseType::Tensor,     BaseType::Int,     BaseType::SymInt,   BaseType::Float,
      BaseType::Bool,       BaseType::Str,     BaseType::ScalarType, BaseType::Layout,
      BaseType::MemoryFormat, BaseType::Device, BaseType::Scalar,  BaseType::Generator,
      BaseType::Dimname,    BaseType::Storage, BaseType::Stream,   BaseType::Complex,
      BaseType::Any,        BaseType::SymFloat, BaseType::SymBool, BaseType::QScheme,
      BaseType::DeviceIndex};
  ASSERT_EQ(s.arguments.size(), std::size(expected));
  for (size_t i = 0; i < s.arguments.size(); ++i)
    EXPECT_TRUE(s.arguments[i].type.strip_optional().is_base(expected[i])) << i;
}

TEST(SchemaParser, CustomClassType) {
  auto s = must_parse("myops::use(__torch__.torch.classes.myops.Stack x) -> __torch__.torch.classes.myops.Stack");
  EXPECT_EQ(s.arguments[0].type.kind, TypeKind::CustomClass);
  EXPECT_EQ(s.arguments[0].type.name, "myops.Stack");
  EXPECT_EQ(s.returns[0].type.kind, TypeKind::CustomClass);
}

TEST(SchemaParser, ContainerTypes) {
  auto s = must_parse("f((int, Tensor) t, Dict(str, Tensor) d, Union(int, float) u, Future(Tensor) fu) -> ()");
  EXPECT_EQ(s.arguments[0].type.kind, TypeKind::Tuple);
  EXPECT_EQ(s.arguments[0].type.contained.size(), 2u);
  EXPECT_EQ(s.arguments[1].type.kind, TypeKind::Dict);
  EXPECT_EQ(s.arguments[2].type.kind, TypeKind::Union);
  EXPECT_EQ(s.arguments[3].type.kind, TypeKind::Future);
  EXPECT_TRUE(s.arguments[0].type.mentions(BaseType::Tensor));
  EXPECT_FALSE(s.arguments[2].type.mentions(BaseType::Tensor));
}

TEST(SchemaParser, KeywordOnlyMarker) {
  auto s = must_parse("f(Tensor self, *, int dim=0, bool keepdim=False) -> Tensor");
  EXPECT_FALSE(s.arguments[0].kwarg_only);
  EXPECT_TRUE(s.arguments[1].kwarg_only);
  EXPECT_TRUE(s.arguments[2].kwarg_only);
}

TEST(SchemaParser, Returns) {
  EXPECT_TRUE(must_parse("f() -> ()").returns.empty());
  auto single_named = must_parse("f() -> Tensor out");
  ASSERT_EQ(single_named.returns.size(), 1u);
  EXPECT_EQ(single_named.returns[0].name, "out");
  auto tuple = must_parse("f() -> (Tensor values, Tensor indices)");
  ASSERT_EQ(tuple.returns.size(), 2u);
  EXPECT_EQ(tuple.returns[1].name, "indices");
  auto unnamed = must_parse("f() -> (Tensor, int)");
  EXPECT_EQ(unnamed.returns[1].name, "");
  // `(T x)` and `T x` are the same schema.
  EXPECT_EQ(must_parse("f() -> (Tensor x)"), must_parse("f() -> Tensor x"));
  auto tuple_type = must_parse("f() -> ((int, int))");
  ASSERT_EQ(tuple_type.returns.size(), 1u);
  EXPECT_EQ(tuple_type.returns[0].type.kind, TypeKind::Tuple);
}

TEST(SchemaParser, Varargs) {
  auto s = must_parse("prim::Print(...) -> ...");
  EXPECT_TRUE(s.is_vararg);
  EXPECT_TRUE(s.is_varret);
  auto t = must_parse("prim::f(Tensor a, ...) -> (Tensor, ...)");
  EXPECT_TRUE(t.is_vararg);
  EXPECT_TRUE(t.is_varret);
  EXPECT_EQ(t.returns.size(), 1u);
}

TEST(SchemaParser, DefaultValuesKeepTheirSpelling) {
  auto s = must_parse(
      "f(float eps=1e-05, int dim=-1, str mode='linear', int reduction=Mean, "
      "MemoryFormat? mf=contiguous_format, int[2] stride=1, int[] dims=[-2,-1], "
      "bool flag=True, Tensor? w=None, Device dev=\"cpu\", complex c=2j, ScalarType? dt=long) -> ()");
  auto def = [&](size_t i) { return *s.arguments[i].default_value; };
  EXPECT_EQ(def(0).kind, DefaultValue::Kind::Float);
  EXPECT_EQ(def(0).text, "1e-05");
  EXPECT_EQ(def(1).kind, DefaultValue::Kind::Int);
  EXPECT_EQ(def(1).text, "-1");
  EXPECT_EQ(def(2).kind, DefaultValue::Kind::String);
  EXPECT_EQ(def(2).text, "'linear'");
  EXPECT_EQ(def(3).kind, DefaultValue::Kind::Enum);
  EXPECT_EQ(def(4).text, "contiguous_format");
  EXPECT_EQ(def(5).kind, DefaultValue::Kind::Int);
  ASSERT_EQ(def(6).kind, DefaultValue::Kind::List);
  ASSERT_EQ(def(6).elements.size(), 2u);
  EXPECT_EQ(def(6).elements[1].text, "-1");
  EXPECT_EQ(def(7).kind, DefaultValue::Kind::True);
  EXPECT_EQ(def(8).kind, DefaultValue::Kind::None);
  EXPECT_EQ(def(9).kind, DefaultValue::Kind::String);
  EXPECT_EQ(def(10).kind, DefaultValue::Kind::Complex);
  EXPECT_EQ(def(11).kind, DefaultValue::Kind::Enum);
}

TEST(SchemaParser, WhitespaceAndCommentsDoNotMatter) {
  EXPECT_EQ(must_parse("ns::f( Tensor  self ,\n int[ 2 ] x = 1 )->Tensor"),
            must_parse("ns::f(Tensor self, int[2] x=1) -> Tensor"));
}

TEST(SchemaParser, TypeVariablesOnlyInAtenAndPrim) {
  auto s = must_parse("aten::append(t[](a!) self, t(c -> *) el) -> t[](a!)");
  EXPECT_TRUE(s.arguments[1].type.is_base(BaseType::TypeVariable));
  EXPECT_EQ(s.arguments[1].type.name, "t");
  ParseOptions implied;
  implied.implied_namespace = "prim";
  must_parse("f(t x) -> t", implied);
  auto r = parse_schema("myops::f(t x) -> t");
  EXPECT_TRUE(std::holds_alternative<ParseError>(r));
  ParseOptions always;
  always.type_variables = TypeVariables::Always;
  must_parse("myops::f(t x) -> t", always);
}

TEST(SchemaParser, OperatorNames) {
  auto n = parse_operator_name("myops::add.out");
  ASSERT_TRUE(std::holds_alternative<OperatorName>(n));
  EXPECT_EQ(std::get<OperatorName>(n).overload, "out");
  EXPECT_TRUE(std::holds_alternative<ParseError>(parse_operator_name("add(Tensor x) -> Tensor")));
  auto either = parse_schema_or_name("add");
  using Either = std::variant<OperatorName, FunctionSchema>;
  ASSERT_TRUE(std::holds_alternative<Either>(either));
  EXPECT_TRUE(std::holds_alternative<OperatorName>(std::get<0>(either)));
  auto full = parse_schema_or_name("add(Tensor x) -> Tensor");
  EXPECT_TRUE(std::holds_alternative<FunctionSchema>(std::get<0>(full)));
}

}  // namespace
}  // namespace torchabi::schema
