// Case files, argument conversion, output comparison and schema signatures:
// the parts of the driver that need no extension loaded.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "analyzers/runtime/driver/cases.h"
#include "analyzers/runtime/driver/compare.h"
#include "analyzers/runtime/driver/signatures.h"
#include "parsed_signature.h"
#include "analyzers/runtime/driver/values.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace {

namespace rd = torchabi::runtime_driver;
namespace rt = torchabi::runtime;
using ::testing::HasSubstr;

std::string write_temp(const std::string& text) {
  char path[] = "/tmp/torchabi-cases-XXXXXX.yaml";
  int fd = mkstemps(path, 5);
  std::ofstream(path) << text;
  close(fd);
  return path;
}

std::string load_error(const std::string& text) {
  std::string p = write_temp(text);
  try {
    rd::load_case_file(p);
  } catch (const torchabi::InputError& e) {
    std::remove(p.c_str());
    return e.line().substr(p.size());
  }
  std::remove(p.c_str());
  return "<no error>";
}

rt::OpSignature sig(const std::string& schema) { return runtime_test::parsed_signature(schema); }

TEST(RuntimeCases, ReadsCasesWithInputsAndExpectations) {
  std::string p = write_temp(
      "cases:\n"
      "  - name: a\n    op: t::f\n    inputs: [1, 2]\n    expect: {outputs: [3]}\n"
      "  - name: b\n    op: t::f.over\n    expect: {error: boom}\n");
  rd::CaseFile f = rd::load_case_file(p);
  std::remove(p.c_str());
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].op, "t::f");
  EXPECT_TRUE(f.cases[0].expects_outputs);
  EXPECT_EQ(f.cases[0].line, 2);
  EXPECT_EQ(f.cases[1].expect_error, "boom");
  EXPECT_FALSE(f.cases[1].expects_outputs);
}

TEST(RuntimeCases, RejectsMalformedFiles) {
  EXPECT_EQ(load_error("cases: [\n"), ":2: not valid YAML: end of sequence flow not found");
  EXPECT_EQ(load_error("foo: 1\n"), ": expected a 'cases:' list (see `torchabi run --help`)");
  EXPECT_EQ(load_error("cases:\n  - name: a\n"), ":2: each case needs 'op' (a non-empty string)");
  EXPECT_EQ(load_error("cases:\n  - {name: a, op: f}\n"), ":2: op 'f' must be qualified with its namespace (ns::name)");
  EXPECT_EQ(load_error("cases:\n  - {name: a, op: t::f}\n  - {name: a, op: t::g}\n"), ":3: two cases are named 'a'");
  EXPECT_EQ(load_error("cases:\n  - {name: a, op: t::f, expect: {outputs: [1], error: x}}\n"),
            ":2: a case expects either outputs or an error, not both");
  EXPECT_EQ(load_error("cases:\n  - {name: a, op: t::f, inptus: []}\n"),
            ":2: unknown case key 'inptus' (expected name, op, inputs, expect)");
  EXPECT_EQ(load_error("cases: []\n"), ": the case file has no cases");
}

TEST(RuntimeCases, MissingFileNamesIt) {
  try {
    rd::load_case_file("/nonexistent/cases.yaml");
    FAIL();
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.line(), "/nonexistent/cases.yaml: cannot read the case file");
  }
}

TEST(RuntimeValues, TensorsFromYaml) {
  auto t = rd::tensor_from_yaml(YAML::Load("{dtype: int32, values: [[1, 2], [3, 4]]}"), "here");
  EXPECT_EQ(t->sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t->dtype, rt::dtype::kInt32);
  EXPECT_EQ(rt::read_int(*t, 3), 4);

  auto nc = rd::tensor_from_yaml(YAML::Load("{shape: [2, 3], arange: 1, contiguous: false}"), "here");
  EXPECT_FALSE(nc->is_contiguous());
  EXPECT_DOUBLE_EQ(rt::read_double(*nc, 4), 5.0) << "logical order is preserved";

  auto r1 = rd::tensor_from_yaml(YAML::Load("{shape: [4], random: {seed: 7}}"), "here");
  auto r2 = rd::tensor_from_yaml(YAML::Load("{shape: [4], random: {seed: 7}}"), "here");
  EXPECT_DOUBLE_EQ(rt::read_double(*r1, 2), rt::read_double(*r2, 2)) << "seeded generators are reproducible";

  EXPECT_THROW(rd::tensor_from_yaml(YAML::Load("{shape: [3], values: [1, 2]}"), "here"), torchabi::InputError);
  EXPECT_THROW(rd::tensor_from_yaml(YAML::Load("{shape: [3], fill: 1, arange: true}"), "here"), torchabi::InputError);
  EXPECT_THROW(rd::tensor_from_yaml(YAML::Load("{dtype: complex64, shape: [3]}"), "here"), torchabi::InputError);
}

TEST(RuntimeValues, ArgumentsFollowTheSchemaAndItsDefaults) {
  auto s = sig("f(Tensor x, int[1] dims, float alpha=1, ScalarType? dtype=None, str mode=\"constant\") -> Tensor");
  auto args = rd::case_arguments(YAML::Load("{x: {shape: [2]}, dims: 1, dtype: float64}"), s, "here");
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[1].kind, rt::Value::Kind::List);
  EXPECT_EQ(args[1].list[0].i, 1);
  EXPECT_DOUBLE_EQ(args[2].d, 1.0);
  EXPECT_EQ(args[3].i, rt::dtype::kFloat64);
  EXPECT_EQ(args[4].s, "constant");
  try {
    rd::case_arguments(YAML::Load("[{shape: [2]}]"), s, "here");
    FAIL();
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.line(), "here: gives no value for argument 'dims' (int[1]), which has no default");
  }
}

TEST(RuntimeCompare, ToleranceAndMismatchDetails) {
  auto s = sig("f(Tensor x) -> Tensor");
  auto got = rt::make_tensor({3}, rt::dtype::kFloat32);
  for (int i = 0; i < 3; ++i) rt::write_double(*got, i, i + 0.5);
  rt::Value v = rt::Value::of_tensor(got);
  EXPECT_TRUE(rd::compare_outputs({v}, YAML::Load("[{values: [0.5, 1.5, 2.5000001]}]"), s, "here").empty());
  auto m = rd::compare_outputs({v}, YAML::Load("[{values: [0.5, 1.5, 3.5]}]"), s, "here");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].message, "output 0 differs from the expected values at 1 of 3 elements");
  EXPECT_EQ(m[0].notes[0], "largest difference at index [2]: got 2.5, expected 3.5 (rtol 1.3e-06, atol 1e-05)");
  EXPECT_TRUE(rd::compare_outputs({v}, YAML::Load("[{values: [0.5, 1.5, 3.5], atol: 2}]"), s, "here").empty());
  auto shape = rd::compare_outputs({v}, YAML::Load("[{shape: [1, 3]}]"), s, "here");
  ASSERT_EQ(shape.size(), 1u);
  EXPECT_EQ(shape[0].message, "output 0 has shape [3], expected [1, 3]");
  EXPECT_TRUE(rd::compare_outputs({v}, YAML::Load("[null]"), s, "here").empty()) << "null: not compared";
}

TEST(RuntimeSignatures, SchemaTypesMapToStableIValueEncodings) {
  auto s = sig("f(Tensor(a!) self, int[]? dims, Scalar alpha, Device d) -> Tensor(a!)");
  EXPECT_EQ(s.ns, "t");
  EXPECT_EQ(s.args[0].alias_set, "a");
  EXPECT_TRUE(s.args[0].is_write);
  EXPECT_EQ(s.args[0].type.spelling, "Tensor");
  EXPECT_EQ(s.args[1].type.kind, rt::TypeKind::Optional);
  EXPECT_EQ(s.args[1].type.elem().kind, rt::TypeKind::List);
  EXPECT_EQ(s.args[2].type.kind, rt::TypeKind::Unconvertible);
  EXPECT_EQ(s.args[3].type.kind, rt::TypeKind::Device);
  EXPECT_TRUE(s.returns[0].is_write);
  auto bad = rd::signature_from_schema("f(Tensr x) -> Tensor", "t");
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_THAT(std::get<std::string>(bad), HasSubstr("unknown type 'Tensr'"));
}

TEST(RuntimeSignatures, EveryAtenRowParses) {
  auto sigs = rd::load_aten_signatures(torchabi::inputs::RulesSource::current());
  EXPECT_GE(sigs.size(), 30u);
  for (const auto& s : sigs) EXPECT_EQ(s.ns, "aten") << s.qualified();
}

}  // namespace
