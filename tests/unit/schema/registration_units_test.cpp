// The pieces of the registration checks that need no libclang: C++ type
// spellings, C++ string literals, the kernel type table, the Python scanner,
// the data model's serialization, and the cross-TU checks on hand-built input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "analyzers/schema/parser.h"
#include "analyzers/schema/registrations/cpp_string_literal.h"
#include "analyzers/schema/registrations/cpp_type_name.h"
#include "analyzers/schema/registrations/cpp_type_pattern.h"
#include "analyzers/schema/registrations/registration_checks.h"
#include "findings/rule_registry.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {
namespace {

const inputs::RulesSource& rules() {
  static auto r = inputs::RulesSource::directory(
      (std::filesystem::path(TORCHABI_SOURCE_DIR) / "rules").string());
  return r;
}

Type type_of(const std::string& schema_type) {
  auto r = parse_schema("f(" + schema_type + " x) -> ()");
  EXPECT_TRUE(std::holds_alternative<FunctionSchema>(r)) << schema_type;
  return std::get<FunctionSchema>(r).arguments.at(0).type;
}

TEST(CppTypeName, CanonicalSpellingsBecomeOne) {
  EXPECT_EQ(normalize_cpp_type("long"), "int64_t");
  EXPECT_EQ(normalize_cpp_type("const long"), "int64_t");
  EXPECT_EQ(normalize_cpp_type("unsigned long *"), "uint64_t*");
  EXPECT_EQ(normalize_cpp_type("std::vector<long, std::allocator<long> >"), "std::vector<int64_t>");
  EXPECT_EQ(normalize_cpp_type("std::__cxx11::basic_string<char>"), "std::string");
  EXPECT_EQ(normalize_cpp_type("std::basic_string<char, std::char_traits<char>, std::allocator<char>>"),
            "std::string");
  EXPECT_EQ(normalize_cpp_type("std::__1::optional<std::__1::vector<long>>"), "std::optional<std::vector<int64_t>>");
  EXPECT_EQ(normalize_cpp_type("c10::basic_string_view<char>"), "c10::string_view");
  EXPECT_EQ(normalize_cpp_type("class torch::stable::Tensor"), "torch::stable::Tensor");
  EXPECT_EQ(normalize_cpp_type("std::array<bool, 3>"), "std::array<bool, 3>");
  EXPECT_EQ(normalize_cpp_type("c10::List<c10::optional<at::Tensor> >"), "c10::List<c10::optional<at::Tensor>>");
}

// One tree for normalizing and for the schema patterns: a pattern's hole binds
// to a whole normalized subtree, and substituting it prints the same spelling.
TEST(CppTypeName, PatternsMatchTheNormalizedTree) {
  const CppTypeTree n = parse_node(normalize_cpp_type("std::__1::optional<std::__1::vector<long>>"));
  ASSERT_EQ(n.name, "std::optional");
  ASSERT_EQ(n.args.size(), 1u);
  std::optional<CppTypeTree> bound;
  ASSERT_TRUE(unify(parse_node("std::optional<$T>"), n, bound));
  EXPECT_EQ(print(*bound), "std::vector<int64_t>");
  EXPECT_EQ(print(substitute(parse_node("c10::HeaderOnlyArrayRef<$T>"), *bound)),
            "c10::HeaderOnlyArrayRef<std::vector<int64_t>>");
  std::optional<CppTypeTree> none;
  EXPECT_FALSE(unify(parse_node("std::vector<$T>"), n, none)) << "another template";
  std::optional<CppTypeTree> twice;
  EXPECT_FALSE(unify(parse_node("std::pair<$T, $T>"), parse_node("std::pair<int64_t, double>"), twice))
      << "one hole binds one type";
  EXPECT_EQ(print(parse_node("uint64_t*")), "uint64_t*");
}

TEST(CppStringLiteral, DecodesAndMapsEveryByte) {
  auto plain = decode_cpp_string_literal(R"("f(Tensor x) -> Tensor")");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->value, "f(Tensor x) -> Tensor");
  EXPECT_EQ(plain->source_offsets.front(), 1u);

  // Split over two literals with an escape: "ab" then "\tc" at offset 5.
  auto split = decode_cpp_string_literal("\"ab\" \"\\tc\"");
  ASSERT_TRUE(split);
  EXPECT_EQ(split->value, "ab\tc");
  EXPECT_EQ(split->source_offsets, (std::vector<uint32_t>{1, 2, 6, 8}));

  auto raw = decode_cpp_string_literal(R"--(R"(a"b)")--");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->value, "a\"b");

  EXPECT_FALSE(decode_cpp_string_literal("MY_SCHEMA"));
  EXPECT_FALSE(decode_cpp_string_literal("\"unterminated"));
}

bool fits(const KernelTypes& t, const std::string& schema_type, Flow flow, const std::string& cpp,
          const source::BoxableTypes& conv, const std::string& spelled = "") {
  return t.match(type_of(schema_type), flow, cpp, spelled.empty() ? cpp : spelled, conv).ok;
}

TEST(KernelTypes, StableFormsFromPyTorchsConversions) {
  KernelTypes t = KernelTypes::load(rules());
  const source::BoxableTypes& py = t.fallback();
  TypeForms tensor = t.stable(type_of("Tensor"), Flow::Param, py);
  ASSERT_FALSE(tensor.cpp.empty());
  EXPECT_EQ(tensor.cpp.front(), "torch::stable::Tensor");
  EXPECT_TRUE(matches_form("AtenTensorOpaque*", tensor.cpp)) << "the owning handle the slot holds";
  EXPECT_FALSE(tensor.since) << "Tensor's conversion is unguarded";
  TypeForms opt = t.stable(type_of("int?"), Flow::Param, py);
  ASSERT_FALSE(opt.cpp.empty());
  EXPECT_EQ(opt.cpp.front(), "std::optional<int64_t>");
  TypeForms list = t.stable(type_of("Tensor?[]"), Flow::Param, py);
  EXPECT_TRUE(matches_form("std::vector<std::optional<torch::stable::Tensor>>", list.cpp));
  EXPECT_TRUE(matches_form("c10::HeaderOnlyArrayRef<std::optional<torch::stable::Tensor>>", list.cpp));
  ASSERT_TRUE(list.since);
  EXPECT_EQ(list.since->str(), "2.10");  // std::vector's conversion is guarded by 2.10
  EXPECT_NE(t.stable(type_of("Scalar"), Flow::Param, py).unsupported.find("double"), std::string::npos);
  // libtorch converts SymInt as int (rules/runtime/schema_types.tsv, checked against real torch).
  TypeForms symint = t.stable(type_of("SymInt"), Flow::Param, py);
  EXPECT_TRUE(symint.unsupported.empty()) << symint.unsupported;
  EXPECT_TRUE(matches_form("int64_t", symint.cpp));
  EXPECT_TRUE(matches_form("std::vector<int64_t>", t.stable(type_of("SymInt[]"), Flow::Param, py).cpp));
  EXPECT_FALSE(t.stable(type_of("SymBool"), Flow::Param, py).unsupported.empty());
  EXPECT_FALSE(t.stable(type_of("(int, int)"), Flow::Param, py).unsupported.empty());

  auto s = std::get<FunctionSchema>(parse_schema("f() -> (Tensor a, int b)"));
  TypeForms rets = t.stable_returns(s.returns, py);
  ASSERT_FALSE(rets.cpp.empty());
  EXPECT_EQ(rets.cpp.front(), "std::tuple<torch::stable::Tensor, int64_t>");
}

TEST(KernelTypes, WhatTorchBoxAndTheConversionsAccept) {
  KernelTypes t = KernelTypes::load(rules());
  const source::BoxableTypes& py = t.fallback();
  // TORCH_BOX stores a HeaderOnlyArrayRef parameter as a std::vector (UnboxType)...
  EXPECT_TRUE(fits(t, "int[]", Flow::Param, "c10::HeaderOnlyArrayRef<int64_t>", py));
  EXPECT_TRUE(fits(t, "int[]?", Flow::Param, "std::optional<c10::HeaderOnlyArrayRef<int64_t>>", py));
  EXPECT_TRUE(fits(t, "int[]", Flow::Param, "std::vector<int64_t>", py));
  // ... but to<HeaderOnlyArrayRef<T>> does not exist, while from() takes one.
  EXPECT_FALSE(fits(t, "int[]", Flow::To, "c10::HeaderOnlyArrayRef<int64_t>", py));
  EXPECT_TRUE(fits(t, "int[]", Flow::From, "c10::HeaderOnlyArrayRef<int64_t>", py));
  // std::string_view only as a parameter, and not inside an optional.
  EXPECT_TRUE(fits(t, "str", Flow::Param, "std::string_view", py));
  EXPECT_FALSE(fits(t, "str", Flow::From, "std::string_view", py));
  EXPECT_FALSE(fits(t, "str?", Flow::Param, "std::optional<std::string_view>", py));
  // Integers go through the conversions' catch-all; a float would be read as a double's bits.
  EXPECT_TRUE(fits(t, "int", Flow::From, "unsigned int", py));
  EXPECT_TRUE(fits(t, "DeviceIndex", Flow::From, "int", py));
  EXPECT_TRUE(fits(t, "int", Flow::Param, "int8_t", py));
  EXPECT_FALSE(fits(t, "float", Flow::Param, "float", py));
  EXPECT_FALSE(fits(t, "int", Flow::Param, "double", py));
  EXPECT_TRUE(fits(t, "ScalarType?", Flow::Param, "std::optional<c10::ScalarType>", py));
  EXPECT_TRUE(fits(t, "Device", Flow::Param, "torch::stable::Device", py));
  EXPECT_FALSE(fits(t, "Device", Flow::Param, "c10::Device", py));
  // A raw StableIValue parameter takes the slot as it is.
  EXPECT_TRUE(fits(t, "Device", Flow::Param, "uint64_t", py, "StableIValue"));
  EXPECT_FALSE(fits(t, "Device", Flow::Param, "uint64_t", py));

  auto returns = [](const std::string& r) { return std::get<FunctionSchema>(parse_schema("f() -> " + r)).returns; };
  EXPECT_TRUE(t.match_returns(returns("(str[], int)"), "std::tuple<std::vector<std::string>, int64_t>", py).ok);
  EXPECT_TRUE(t.match_returns(returns("Tensor"), "std::tuple<torch::stable::Tensor>", py).ok);
  EXPECT_TRUE(t.match_returns(returns("()"), "void", py).ok);
  EXPECT_FALSE(t.match_returns(returns("(Tensor, Tensor)"), "torch::stable::Tensor", py).ok);
  EXPECT_FALSE(t.match_returns(returns("(Tensor, Tensor)"), "std::tuple<torch::stable::Tensor>", py).ok);
  StableMatch list = t.match_returns(returns("Tensor[]"), "std::vector<torch::stable::Tensor>", py);
  ASSERT_TRUE(list.ok);
  ASSERT_TRUE(list.since);
  EXPECT_EQ(list.since->str(), "2.10");
}

TEST(KernelTypes, OnlyWhatTheGivenHeadersConvert) {
  KernelTypes t = KernelTypes::load(rules());
  // Headers built for an old target: no list or string conversions, no UnboxType.
  source::BoxableTypes old = source::parse_boxable_types_yaml(R"(
catch_all: true
from: [{type: "torch::stable::Tensor"}, {type: "std::optional<$T>"}, {type: "c10::ScalarType"}]
to: [{type: "torch::stable::Tensor"}, {type: "std::optional<$T>"}, {type: "c10::ScalarType"}]
tuple_returns: {type: "std::tuple<$T...>"}
)",
                                                             "old headers");
  EXPECT_TRUE(fits(t, "Tensor?", Flow::Param, "std::optional<torch::stable::Tensor>", old));
  EXPECT_FALSE(fits(t, "int[]", Flow::Param, "std::vector<int64_t>", old));
  EXPECT_FALSE(fits(t, "str", Flow::Param, "std::string", old));
  EXPECT_NE(t.stable(type_of("int[]"), Flow::Param, old).unsupported, "");
  // A newer one adding a conversion is followed, whatever torchabi's rules say.
  source::BoxableTypes newer = t.fallback();
  newer.to.push_back({"c10::complex<double>", TorchVersion{2, 99, 0}});
  EXPECT_FALSE(fits(t, "Scalar", Flow::Param, "c10::complex<double>", newer)) << "complex is not Scalar's C++ type";
}

TEST(KernelTypes, LegacyForms) {
  KernelTypes t = KernelTypes::load(rules());
  EXPECT_TRUE(matches_form("c10::ArrayRef<int64_t>", t.legacy(type_of("int[]")).cpp));
  EXPECT_TRUE(matches_form("c10::ArrayRef<int64_t>", t.legacy(type_of("SymInt[]")).cpp));
  EXPECT_TRUE(matches_form("c10::OptionalArrayRef<int64_t>", t.legacy(type_of("int[1]?")).cpp));
  EXPECT_TRUE(matches_form("std::array<bool, 3>", t.legacy(type_of("bool[3]")).cpp));
  EXPECT_TRUE(matches_form("c10::intrusive_ptr<MyStack>", t.legacy(type_of("__torch__.torch.classes.ns.MyStack")).cpp));
  EXPECT_FALSE(matches_form("c10::intrusive_ptr<>", t.legacy(type_of("__torch__.torch.classes.ns.MyStack")).cpp));
  EXPECT_TRUE(t.legacy(type_of("Any")).cpp.empty());  // unknown: not checked
}

TEST(PythonScanner, FakesDefinitionsAndImpls) {
  PythonRegistrations py;
  scan_python_text(R"(import torch

@torch._library.register_fake_class("ns::Bag")
class FakeBag:
    def __init__(self, items):
        self.items = items

    @classmethod
    def __obj_unflatten__(cls, flat):
        return cls(**dict(flat))

    def size(self):  # a method
        return len(self.items)

def helper():
    pass

@torch.library.register_fake("ns::bag_size")
def _(b):
    return 0

torch.library.define("ns::other(Tensor x) -> Tensor")
@torch.library.impl("ns::other", "cpu")
def other_cpu(x):
    return x
)",
                   "/p/fakes.py", py);
  ASSERT_EQ(py.fake_classes.count("ns::Bag"), 1u);
  const auto& bag = py.fake_classes.at("ns::Bag");
  EXPECT_TRUE(bag.unflatten_classmethod);
  EXPECT_TRUE(bag.methods.count("size"));
  EXPECT_FALSE(bag.methods.count("helper")) << "a function after the class is not its method";
  EXPECT_EQ(bag.where.line, 3u);
  EXPECT_TRUE(PythonRegistrations::names(py.fake_ops, "ns::bag_size"));
  EXPECT_TRUE(py.defined_ops.count("ns::other"));
  EXPECT_TRUE(py.implemented_ops.count("ns::other"));
}

TEST(PythonScanner, CallShapesThatRegisterAndThatDoNot) {
  PythonRegistrations py;
  scan_python_text(R"py(import torch
lib = torch.library.Library("ns", "DEF")
torch.library.define( 'ns::spaced.overload(Tensor x) -> Tensor')
torch.library.impl('ns::single.out', "cpu")(fn)
torch.library.register_kernel("ns::kern", "cuda")
torch.library.custom_op("ns::made", mutates_args=())
torch.library.impl_abstract("ns::old_fake")(fn)
register_fake(name)                      # a variable: not a registration
torch.library.register_fake("no_namespace")
torch.library.define("ns::unterminated
my.register_fake_class_helper("ns::Nope")
x = "torch.library.impl" + "(ns::not_a_call)"
torch.library.impl(name, "cpu"); torch.library.impl("ns::second", "cpu")
)py",
                   "/p/shapes.py", py);
  EXPECT_TRUE(py.defined_ops.count("ns::spaced.overload")) << "space after '(' and single quotes";
  EXPECT_TRUE(py.defined_ops.count("ns::unterminated")) << "a schema string's head needs no closing quote";
  EXPECT_TRUE(py.implemented_ops.count("ns::single.out"));
  EXPECT_TRUE(py.implemented_ops.count("ns::kern"));
  EXPECT_TRUE(py.defined_ops.count("ns::made"));
  EXPECT_TRUE(py.implemented_ops.count("ns::made"));
  EXPECT_TRUE(py.fake_ops.count("ns::old_fake"));
  EXPECT_TRUE(py.implemented_ops.count("ns::second")) << "a later call on the line when the first has no name";
  EXPECT_EQ(py.fake_ops.size(), 1u) << "register_fake(name) and a name without a namespace register nothing";
  EXPECT_TRUE(py.fake_classes.empty()) << "register_fake_class_helper is another function";
  EXPECT_FALSE(py.implemented_ops.count("ns::not_a_call"));
  EXPECT_EQ(py.implemented_ops.size(), 4u);
}

// A Library object carries the namespace; its define/impl strings do not.
TEST(PythonScanner, LibraryObjectsQualifyTheirDefinesAndImpls) {
  PythonRegistrations py;
  scan_python_text(R"py(import torch
if kernels_available:
    lib = torch.library.Library("ao", "FRAGMENT")
    lib.define(
        "quantize(Tensor input, bool rowwise) -> (Tensor, Tensor)",
        tags=[torch._C.Tag.needs_fixed_stride_order],
    )
    lib.impl("quantize", quantize_cuda, "CUDA")
_lib_x: torch.library.Library = torch.library.Library("ao", "DEF")
_lib_x.define("pad.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")
_lib_x.define(schema_variable)
other.lib.define("not_ours(Tensor x) -> Tensor")
mylib = MyLibrary("zz", "DEF")
mylib.define("not_a_library(Tensor x) -> Tensor")
same = lib == Library("q", "DEF")
)py",
                   "/p/objects.py", py);
  EXPECT_TRUE(py.defined_ops.count("ao::quantize")) << "a schema on the next line of the call";
  EXPECT_TRUE(py.implemented_ops.count("ao::quantize"));
  EXPECT_TRUE(py.defined_ops.count("ao::pad.out")) << "an annotated binding and an overload name";
  EXPECT_FALSE(py.defined_ops.count("ao::not_ours")) << "another object's attribute";
  EXPECT_FALSE(py.defined_ops.count("zz::not_a_library")) << "a class whose name only ends in Library";
  EXPECT_EQ(py.defined_ops.size(), 2u);
}

// ---- the cross-TU checks on hand-built registrations -------------------------

findings::Location at(const std::string& file, uint32_t line) { return {file, line, 1, "", ""}; }

LiteralText lit(const std::string& text, const std::string& file, uint32_t line) {
  LiteralText l;
  l.text = text;
  l.start = at(file, line);
  return l;
}

TuRegistrations defining_tu(const std::string& file, const std::string& schema, const std::string& target = "") {
  TuRegistrations tu;
  tu.tu = file;
  tu.target_version = target;
  tu.blocks.push_back({BlockKind::Def, true, "myops", "", "STABLE_TORCH_LIBRARY", at(file, 1)});
  tu.defs.push_back({0, lit(schema, file, 2), std::nullopt, at(file, 2)});
  return tu;
}

TuRegistrations implementing_tu(const std::string& file, const std::string& name) {
  TuRegistrations tu;
  tu.tu = file;
  tu.blocks.push_back({BlockKind::Impl, true, "myops", "CPU", "STABLE_TORCH_LIBRARY_IMPL", at(file, 1)});
  KernelRef k;
  k.form = KernelRef::Form::Unknown;
  tu.impls.push_back({0, lit(name, file, 2), k, at(file, 2)});
  return tu;
}

size_t count(const RegistrationOutcome& o, const std::string& rule) {
  size_t n = 0;
  for (const auto& f : o.findings) n += f.rule == rule;
  return n;
}

TEST(RegistrationChecks, DefAndImplMeetAcrossTranslationUnits) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  auto ok = check_registrations({defining_tu("/p/a.cpp", "f(Tensor x) -> Tensor"), implementing_tu("/p/b.cpp", "f")}, env);
  EXPECT_TRUE(ok.findings.empty());
  auto typo = check_registrations({defining_tu("/p/a.cpp", "f(Tensor x) -> Tensor"), implementing_tu("/p/b.cpp", "g")}, env);
  EXPECT_EQ(count(typo, "schema-impl-without-def"), 1u);
  EXPECT_EQ(count(typo, "schema-def-without-impl"), 1u);
}

TEST(RegistrationChecks, OnAPartialViewWhatIsMissingIsANote) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  std::vector<TuRegistrations> only_impl = {implementing_tu("/p/b.cpp", "f")};
  auto whole = check_registrations(only_impl, env, /*whole_project=*/true);
  ASSERT_EQ(count(whole, "schema-impl-without-def"), 1u);
  EXPECT_FALSE(whole.findings[0].severity) << "the rule's own severity (error)";
  auto partial = check_registrations(only_impl, env, /*whole_project=*/false);
  ASSERT_EQ(count(partial, "schema-impl-without-def"), 1u);
  EXPECT_EQ(partial.findings[0].severity, findings::Severity::Note);
  ASSERT_FALSE(partial.findings[0].notes.empty());
  EXPECT_NE(partial.findings[0].notes[0].find("-p BUILD_DIR"), std::string::npos) << partial.findings[0].notes[0];

  auto def_only = check_registrations({defining_tu("/p/a.cpp", "f(Tensor x) -> Tensor")}, env, false);
  ASSERT_EQ(count(def_only, "schema-def-without-impl"), 1u);
  EXPECT_EQ(def_only.findings[0].severity, findings::Severity::Note);
  // Two defs that were both seen are a duplicate whatever was not linted.
  auto dup = check_registrations({defining_tu("/p/a.cpp", "f(Tensor x) -> Tensor"),
                                  defining_tu("/p/d.cpp", "f(Tensor x, int n) -> Tensor"), implementing_tu("/p/c.cpp", "f")},
                                 env, false);
  ASSERT_EQ(count(dup, "schema-duplicate-def"), 1u);
  for (const auto& f : dup.findings)
    if (f.rule == "schema-duplicate-def") {
      EXPECT_FALSE(f.severity);
    }
}

TEST(RegistrationChecks, AHeaderSeenByTwoTranslationUnitsIsNotADuplicate) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  // The same block (same file and line) reached from two TUs.
  TuRegistrations a = defining_tu("/p/ops.h", "f(Tensor x) -> Tensor"), b = a;
  a.tu = "/p/a.cpp";
  b.tu = "/p/b.cpp";
  auto o = check_registrations({a, b, implementing_tu("/p/c.cpp", "f")}, env);
  EXPECT_EQ(count(o, "schema-duplicate-def"), 0u);
  // A second def of the same name elsewhere is.
  auto dup = check_registrations({a, defining_tu("/p/d.cpp", "f(Tensor x, int n) -> Tensor"),
                                  implementing_tu("/p/c.cpp", "f")},
                                 env);
  EXPECT_EQ(count(dup, "schema-duplicate-def"), 1u);
}

TuRegistrations boxing_tu(const std::string& file, const std::string& name, std::vector<CppType> params,
                          const std::string& target) {
  TuRegistrations tu = implementing_tu(file, name);
  tu.target_version = target;
  KernelRef& k = tu.impls[0].kernel;
  k.form = KernelRef::Form::TorchBox;
  k.function = "kernel";
  k.where = at(file, 2);
  k.signature = CppSignature{{"Tensor", "torch::stable::Tensor"}, std::move(params), {}, true, std::nullopt};
  return tu;
}

TEST(RegistrationChecks, AConversionNewerThanTheTargetIsReportedAtTheKernel) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  const std::string schema = "f(Tensor x, Device d) -> Tensor";
  const CppType tensor{"Tensor", "torch::stable::Tensor"}, device{"Device", "torch::stable::Device"};
  auto old_target = check_registrations(
      {defining_tu("/p/a.cpp", schema, "2.9"), boxing_tu("/p/b.cpp", "f", {tensor, device}, "2.9")}, env);
  ASSERT_EQ(old_target.findings.size(), 1u);
  EXPECT_EQ(old_target.findings[0].rule, "boxed-unsupported-type");
  EXPECT_EQ(old_target.findings[0].location.file, "/p/b.cpp") << "reported at the kernel";
  EXPECT_NE(old_target.findings[0].message.find("needs PyTorch 2.10"), std::string::npos)
      << old_target.findings[0].message;
  auto new_target = check_registrations(
      {defining_tu("/p/a.cpp", schema, "2.10"), boxing_tu("/p/b.cpp", "f", {tensor, device}, "2.10")}, env);
  EXPECT_TRUE(new_target.findings.empty()) << new_target.findings[0].message;
  // PyTorch's own 2.9 tests take a Device as the raw StableIValue: nothing to convert.
  auto raw = check_registrations({defining_tu("/p/a.cpp", schema, "2.9"),
                                  boxing_tu("/p/b.cpp", "f", {tensor, {"StableIValue", "uint64_t"}}, "2.9")},
                                 env);
  EXPECT_TRUE(raw.findings.empty()) << raw.findings[0].message;
  // A def alone says nothing about how its kernels take the value.
  auto def_only = check_registrations({defining_tu("/p/a.cpp", schema, "2.9"), implementing_tu("/p/b.cpp", "f")}, env);
  EXPECT_EQ(count(def_only, "boxed-unsupported-type"), 0u);
}

TEST(RegistrationChecks, TheTranslationUnitsOwnConversionsDecide) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  const std::string schema = "f(Tensor x, str s) -> Tensor";
  const CppType tensor{"Tensor", "torch::stable::Tensor"}, str{"std::string_view", "std::string_view"};
  // Headers without UnboxType<std::string_view> nor a string conversion (older than 2.10).
  TuRegistrations old_headers = boxing_tu("/p/b.cpp", "f", {tensor, str}, "");
  old_headers.boxable = source::parse_boxable_types_yaml(R"(
torch_version: "2.9"
catch_all: true
from: [{type: "torch::stable::Tensor"}, {type: "std::optional<$T>"}]
to: [{type: "torch::stable::Tensor"}, {type: "std::optional<$T>"}]
tuple_returns: null
)",
                                                         "test");
  auto o = check_registrations({defining_tu("/p/a.cpp", schema), old_headers}, env);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].rule, "boxed-unsupported-type");
  EXPECT_NE(o.findings[0].message.find("headers in use (PyTorch 2.9)"), std::string::npos) << o.findings[0].message;
  // With PyTorch's conversions (stand-in headers: kernel_types.yaml) it fits.
  auto fallback = check_registrations({defining_tu("/p/a.cpp", schema), boxing_tu("/p/b.cpp", "f", {tensor, str}, "")}, env);
  EXPECT_TRUE(fallback.findings.empty()) << fallback.findings[0].message;
  // A wrong C++ type is a signature mismatch whatever the headers.
  auto wrong = check_registrations(
      {defining_tu("/p/a.cpp", schema), boxing_tu("/p/b.cpp", "f", {tensor, {"double", "double"}}, "")}, env);
  ASSERT_EQ(wrong.findings.size(), 1u);
  EXPECT_EQ(wrong.findings[0].rule, "boxed-signature-mismatch");
  EXPECT_NE(wrong.findings[0].message.find("std::string"), std::string::npos) << wrong.findings[0].message;
}

// An impl of myops::`name` in a STABLE_TORCH_LIBRARY_IMPL(myops, `key`, m) block
// (`key` empty: m.impl in the STABLE_TORCH_LIBRARY block itself).
TuRegistrations keyed_impl_tu(const std::string& file, const std::string& name, const std::string& key) {
  TuRegistrations tu = implementing_tu(file, name);
  if (key.empty()) {
    tu.blocks[0].kind = BlockKind::Def;
    tu.blocks[0].dispatch_key.clear();
  } else {
    tu.blocks[0].dispatch_key = key;
  }
  return tu;
}

// Facts from PyTorch's dispatcher (DispatchKeyExtractor::isDispatchType,
// OperatorEntry's Undefined entry, the default TLS included set), observed
// with real torch by scripts/against-torch/tensorless_dispatch.sh.
TEST(RegistrationChecks, TensorlessOpsReachOnlyCompositeAndBackendSelectKernels) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  const std::string rule = "schema-tensorless-backend-kernel";
  auto run = [&](const std::string& schema, const std::string& key) {
    return check_registrations({defining_tu("/p/a.cpp", schema), keyed_impl_tu("/p/b.cpp", "f", key)}, env);
  };
  for (const char* key : {"CPU", "CUDA", "Meta", "PrivateUse1", "Autograd", "AutogradCPU", "XPU",
                          "CompositeImplicitAutogradNestedTensor"})
    EXPECT_EQ(count(run("f(int n) -> Tensor", key), rule), 1u) << key;
  for (const char* key : {"CompositeExplicitAutograd", "CompositeImplicitAutograd",
                          "CompositeExplicitAutogradNonFunctional", "CatchAll", "Undefined", "BackendSelect",
                          "ADInplaceOrView", ""})
    EXPECT_EQ(count(run("f(int n) -> Tensor", key), rule), 0u) << "'" << key << "'";
  // Not a key (schema-unknown-dispatch-key's business), not judged here.
  EXPECT_EQ(count(run("f(int n) -> Tensor", "Cuda"), rule), 0u);

  // Arguments that carry dispatch keys, and some that do not.
  for (const char* schema : {"f(Tensor x) -> Tensor", "f(Tensor? x) -> Tensor", "f(Tensor[] x) -> Tensor",
                             "f(Tensor?[] x) -> Tensor", "f(Tensor(a!) x) -> Tensor(a!)", "f(Tensor[2] x) -> ()",
                             "f(int n, *, Tensor(a!) out) -> Tensor(a!)", "f(...) -> ()"})
    EXPECT_EQ(count(run(schema, "CUDA"), rule), 0u) << schema;
  for (const char* schema : {"f() -> int", "f(Device device) -> Tensor", "f(ScalarType dtype, Layout layout) -> Tensor",
                             "f(Tensor[]? xs) -> Tensor", "f(int[] size, Scalar fill) -> Tensor",
                             "f(Dict(str, Tensor) d) -> ()"})
    EXPECT_EQ(count(run(schema, "CUDA"), rule), 1u) << schema;

  auto device = run("f(int n, Device device) -> Tensor", "CUDA");
  ASSERT_EQ(device.findings.size(), 1u);
  const auto& f = device.findings[0];
  EXPECT_FALSE(f.severity) << "the rule's own severity (error)";
  EXPECT_EQ(f.message, "'myops::f' takes no Tensor, so the dispatcher never reaches its CUDA kernel");
  EXPECT_EQ(f.location.file, "/p/b.cpp") << "reported at the kernel";
  EXPECT_NE(f.help.find("STABLE_TORCH_LIBRARY_IMPL(myops, CompositeExplicitAutograd, m)"), std::string::npos) << f.help;
  std::string notes;
  for (const auto& n : f.notes) notes += n + "\n";
  EXPECT_NE(notes.find("There were no tensor arguments to this function"), std::string::npos) << notes;
  EXPECT_NE(notes.find("'device' does not select a kernel"), std::string::npos) << notes;

  // A Generator dispatches unboxed C++ calls only: a warning.
  auto gen = run("f(Generator? gen) -> int", "CPU");
  ASSERT_EQ(count(gen, rule), 1u);
  EXPECT_EQ(gen.findings[0].severity, findings::Severity::Warning);
}

TEST(RegistrationChecks, TensorlessOpsWithAReachableKernelSomewhere) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  const std::string rule = "schema-tensorless-backend-kernel";
  auto def = defining_tu("/p/a.cpp", "f(int n) -> Tensor");
  // CPU and CUDA kernels: one finding naming both keys.
  auto both = check_registrations({def, keyed_impl_tu("/p/b.cpp", "f", "CPU"), keyed_impl_tu("/p/c.cpp", "f", "CUDA")}, env);
  ASSERT_EQ(count(both, rule), 1u);
  EXPECT_NE(both.findings[0].message.find("its CPU and CUDA kernels"), std::string::npos) << both.findings[0].message;
  // A CompositeExplicitAutograd kernel in another file answers every call.
  auto composite = check_registrations(
      {def, keyed_impl_tu("/p/b.cpp", "f", "CUDA"), keyed_impl_tu("/p/c.cpp", "f", "CompositeExplicitAutograd")}, env);
  EXPECT_EQ(count(composite, rule), 0u);
  // m.def(schema, fn): a catch-all kernel.
  auto with_kernel = def;
  with_kernel.defs[0].kernel = KernelRef{};
  EXPECT_EQ(count(check_registrations({with_kernel, keyed_impl_tu("/p/b.cpp", "f", "CUDA")}, env), rule), 0u);
  // A kernel registered from Python may be under any key.
  RegistrationEnv with_python = env;
  with_python.python.implemented_ops.insert("myops::f");
  EXPECT_EQ(count(check_registrations({def, keyed_impl_tu("/p/b.cpp", "f", "CUDA")}, with_python), rule), 0u);
  // Linting some files only, the composite kernel may be in another: a note.
  auto partial = check_registrations({def, keyed_impl_tu("/p/b.cpp", "f", "CUDA")}, env, /*whole_project=*/false);
  ASSERT_EQ(count(partial, rule), 1u);
  EXPECT_EQ(partial.findings[0].severity, findings::Severity::Note);
  // So may an impl the extractor could not read.
  auto opaque = keyed_impl_tu("/p/c.cpp", "g", "CompositeExplicitAutograd");
  opaque.blocks[0].opaque = true;
  auto unread = check_registrations({def, keyed_impl_tu("/p/b.cpp", "f", "CUDA"), opaque}, env);
  ASSERT_EQ(count(unread, rule), 1u);
  for (const auto& f : unread.findings)
    if (f.rule == rule) {
      EXPECT_EQ(f.severity, findings::Severity::Note);
    }
}

TEST(RegistrationChecks, DeviceBackendCoverage) {
  RegistrationEnv env = RegistrationEnv::load(rules());
  TuRegistrations tu;
  tu.tu = "/p/backend.cpp";
  tu.blocks.push_back({BlockKind::Impl, false, "aten", "PrivateUse1", "TORCH_LIBRARY_IMPL", at(tu.tu, 1)});
  KernelRef k;
  tu.impls.push_back({0, lit("neg", tu.tu, 2), k, at(tu.tu, 2)});
  tu.impls.push_back({0, lit("negative", tu.tu, 3), k, at(tu.tu, 3)});  // composite: an override
  auto o = check_registrations({tu}, env);
  EXPECT_TRUE(o.findings.empty());
  ASSERT_EQ(o.subjects.size(), 1u);
  const auto& s = o.subjects[0];
  EXPECT_EQ(s.path, "aten/PrivateUse1");
  EXPECT_EQ(s.verdict, "PARTIAL");
  std::map<std::string, std::string> facts(s.facts.begin(), s.facts.end());
  EXPECT_EQ(facts["kernels registered"], "2");
  EXPECT_EQ(facts["of those implemented"], "1");
  EXPECT_EQ(facts["composite operators overridden"], "1");
  EXPECT_EQ(facts["PyTorch release"], env.aten.release());
}

TEST(RegistrationModel, SerializationRoundTrips) {
  TuRegistrations tu = defining_tu("/p/a.cpp", "f(Tensor x) -> Tensor", "2.10");
  tu.defs[0].schema.positions = {{2, 10}, {2, 11}};
  KernelRef k;
  k.form = KernelRef::Form::TorchBox;
  k.function = "ns::f";
  k.signature = CppSignature{{"Tensor", "torch::stable::Tensor", false, false, false},
                             {{"const Tensor &", "torch::stable::Tensor", true, true, false}},
                             {"x"},
                             true,
                             std::nullopt};
  tu.impls.push_back({0, lit("f", "/p/a.cpp", 5), k, at("/p/a.cpp", 5)});
  tu.boxed_kernels.push_back({"k", at("/p/a.cpp", 9), {{0, {"Tensor", "torch::stable::Tensor"}, at("/p/a.cpp", 10)}},
                              {}, true});
  tu.classes.push_back({"ns", "C", "C", {"push", "__obj_flatten__"}, at("/p/a.cpp", 12)});
  nlohmann::json j = tu;
  TuRegistrations back = j.get<TuRegistrations>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.impls[0].kernel.signature->params[0].normalized, "torch::stable::Tensor");
  EXPECT_TRUE(back.boxed_kernels[0].opaque);
}

TEST(RegistrationEnv, LoadsFromTheRulesCompiledIn) {
  // rules/ is embedded by extension (yaml, tsv, json, md): the registration
  // data must be among what the binary carries.
  RegistrationEnv env = RegistrationEnv::load(inputs::RulesSource::embedded());
  EXPECT_TRUE(env.dispatch_keys.count("PrivateUse1"));
  EXPECT_NE(env.aten.find("add.Tensor"), nullptr);
}

TEST(RegistrationRulesDocs, EveryRuleTheChecksEmitIsDocumented) {
  auto registry = findings::RuleRegistry::load(rules());
  for (const char* id :
       {"schema-parse-error", "schema-default-mismatch", "schema-duplicate-def", "schema-impl-without-def",
        "schema-def-without-impl", "schema-unknown-dispatch-key", "schema-namespace-mismatch",
        "schema-signature-mismatch", "boxed-unsupported-type", "boxed-stack-index-out-of-range",
        "boxed-stack-type-mismatch", "boxed-arg-not-read-once", "boxed-return-not-written-once",
        "boxed-signature-mismatch", "backend-unknown-op", "backend-signature-mismatch", "torchbind-not-stable",
        "torchbind-missing-obj-flatten", "torchbind-missing-fake-class", "torchbind-fake-class-incomplete",
        "torchbind-op-missing-fake", "schema-tensorless-backend-kernel"}) {
    const auto* doc = registry.find(id);
    ASSERT_NE(doc, nullptr) << id;
    EXPECT_FALSE(doc->instead.empty()) << id;
    EXPECT_FALSE(doc->example_fires.empty()) << id;
    EXPECT_FALSE(doc->example_clean.empty()) << id;
    // A fixture pair exists for every rule.
    auto dir = std::filesystem::path(TORCHABI_SOURCE_DIR) / "fixtures" / "schema" / id;
    EXPECT_TRUE(std::filesystem::exists(dir / "fires")) << id;
  }
}

}  // namespace
}  // namespace torchabi::schema
