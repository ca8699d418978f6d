// The runtime's schema types come from rules/runtime/schema_types.tsv (checked
// against real torch by scripts/against-torch/schema_types.py), never from a
// hand-written mapping: aliases such as DeviceIndex take torch's reading.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyzers/runtime/driver/schema_types.h"
#include "analyzers/runtime/driver/signatures.h"
#include "parsed_signature.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace {

namespace rd = torchabi::runtime_driver;
namespace rt = torchabi::runtime;

rt::OpSignature sig(const std::string& schema) { return runtime_test::parsed_signature(schema); }

TEST(RuntimeSchemaTypes, AliasesTakeTorchsReading) {
  const auto& table = rd::SchemaTypeTable::current();
  ASSERT_NE(table.find("DeviceIndex"), nullptr);
  EXPECT_EQ(table.find("DeviceIndex")->torch_type, "IntType");
  EXPECT_EQ(sig("f(Device d, DeviceIndex i) -> DeviceIndex").args[1].type.kind, rt::TypeKind::Int);
  EXPECT_EQ(sig("f(DeviceIndex? i) -> ()").args[0].type.elem().kind, rt::TypeKind::Int);
  EXPECT_EQ(sig("f(ConstQuantizerPtr q) -> ()").args[0].type.kind, rt::TypeKind::Int);
  EXPECT_EQ(sig("f(SymInt[] s) -> ()").args[0].type.elem().kind, rt::TypeKind::Int);
}

TEST(RuntimeSchemaTypes, TypesLibtorchDoesNotConvertStayUnconvertible) {
  for (const char* t : {"Scalar", "SymBool", "complex", "Stream", "Storage", "Any"})
    EXPECT_NE(sig(std::string("f(") + t + " x) -> ()").args[0].type.unconvertible(), nullptr) << t;
}

TEST(RuntimeSchemaTypes, NamesTorchDoesNotParseMakeTheSchemaFail) {
  for (const char* t : {"SymFloat", "Dimname", "PyObject"}) {
    auto s = rd::signature_from_schema(std::string("f(") + t + " x) -> ()", "t");
    ASSERT_TRUE(std::holds_alternative<std::string>(s)) << t;
    EXPECT_NE(std::get<std::string>(s).find(std::string("'") + t + "'"), std::string::npos);
  }
  EXPECT_TRUE(std::holds_alternative<std::string>(rd::signature_from_schema("f(Tensor x) -> Dimname[]", "t")));
}

TEST(RuntimeSchemaTypes, MalformedRowsAreInputErrors) {
  auto dir = std::filesystem::temp_directory_path() / "torchabi_schema_types_test";
  std::filesystem::create_directories(dir / "runtime");
  {
    std::ofstream(dir / "runtime" / "schema_types.tsv") << "# c\nspelling\ttorch_type\tstable\nint\tIntType\tinteger\n";
  }
  auto rules = torchabi::inputs::RulesSource::directory(dir.string());
  try {
    rd::SchemaTypeTable::load(rules);
    ADD_FAILURE() << "no error";
  } catch (const torchabi::InputError& e) {
    EXPECT_NE(e.line().find("schema_types.tsv:3"), std::string::npos) << e.line();
    EXPECT_NE(e.line().find("unknown conversion 'integer'"), std::string::npos) << e.line();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
