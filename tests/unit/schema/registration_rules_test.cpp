// Every rule of the registration checks fires on its fixture and stays quiet
// on the corrected twin (fixtures/schema/<rule>/{fires,clean}).
#include <gtest/gtest.h>

#include <map>

#include "registration_fixtures.h"

namespace torchabi::schema {
namespace {

using testing::count_rule;
using testing::describe;
using testing::run_fixture;

struct RuleFixture {
  const char* rule;
  const char* fires;  // directory under fixtures/schema/
  const char* clean;
  // Findings of other rules the clean twin is allowed to have (TorchBind
  // classes are never stable, whatever else is right about them).
  const char* clean_may_have = "";
};

class RegistrationRules : public ::testing::TestWithParam<RuleFixture> {};

TEST_P(RegistrationRules, FiresOnFixture) {
  const auto& run = run_fixture(GetParam().fires);
  EXPECT_TRUE(run.warnings.empty()) << describe(run);
  EXPECT_GE(count_rule(run, GetParam().rule), 1u) << GetParam().rule << " did not fire on " << GetParam().fires
                                                  << ":\n" << describe(run);
}

TEST_P(RegistrationRules, CorrectedTwinIsClean) {
  const auto& run = run_fixture(GetParam().clean);
  EXPECT_TRUE(run.warnings.empty()) << describe(run);
  EXPECT_GE(run.analysed, 1u);
  const std::string rule = GetParam().rule;
  for (const auto& f : run.findings) {
    // The stub kernels of the other families' fixtures return their input
    // (`return x;`): the compile-readiness family judges that, with its own pairs.
    if (!rule.starts_with("compile-") && f.rule.starts_with("compile-")) continue;
    EXPECT_EQ(f.rule, GetParam().clean_may_have) << GetParam().clean << " has a finding:\n" << describe(run);
  }
}

std::string name_of(const ::testing::TestParamInfo<RuleFixture>& info) {
  std::string n = info.param.rule;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

#define STABLE_PAIR(rule) RuleFixture{rule, rule "/fires", rule "/clean"}

INSTANTIATE_TEST_SUITE_P(
    Stable, RegistrationRules,
    ::testing::Values(STABLE_PAIR("schema-parse-error"), STABLE_PAIR("schema-default-mismatch"),
                      STABLE_PAIR("schema-duplicate-def"), STABLE_PAIR("schema-impl-without-def"),
                      STABLE_PAIR("schema-def-without-impl"), STABLE_PAIR("schema-unknown-dispatch-key"),
                      STABLE_PAIR("schema-namespace-mismatch"), STABLE_PAIR("boxed-unsupported-type"),
                      STABLE_PAIR("boxed-stack-index-out-of-range"), STABLE_PAIR("boxed-stack-type-mismatch"),
                      STABLE_PAIR("boxed-arg-not-read-once"), STABLE_PAIR("boxed-return-not-written-once"),
                      STABLE_PAIR("boxed-signature-mismatch"), STABLE_PAIR("backend-unknown-op"),
                      STABLE_PAIR("schema-tensorless-backend-kernel")),
    name_of);

INSTANTIATE_TEST_SUITE_P(
    CompileReadiness, RegistrationRules,
    ::testing::Values(STABLE_PAIR("compile-missing-fake"), STABLE_PAIR("compile-fake-signature-mismatch"),
                      STABLE_PAIR("compile-autograd-signature-mismatch"), STABLE_PAIR("compile-fake-unknown-op"),
                      STABLE_PAIR("compile-undeclared-mutation"), STABLE_PAIR("compile-mutation-never-written"),
                      STABLE_PAIR("compile-undeclared-alias")),
    name_of);

const findings::Finding* first(const RegistrationRun& run, const std::string& rule) {
  for (const auto& f : run.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

TEST(RegistrationLocations, ParseErrorPointsIntoTheStringLiteral) {
  const auto* f = first(run_fixture("schema-parse-error/fires"), "schema-parse-error");
  ASSERT_NE(f, nullptr);
  // m.def("scale(Tensor x, double factor) -> Tensor"); on line 10: 'double' is column 26.
  EXPECT_EQ(f->location.line, 10u);
  EXPECT_EQ(f->location.column, 26u);
  EXPECT_NE(f->location.file.find("schema-parse-error/fires/ops.cpp"), std::string::npos);
  // The impl of the op whose def is broken is not reported again.
  EXPECT_EQ(count_rule(run_fixture("schema-parse-error/fires"), "schema-impl-without-def"), 0u);
}

TEST(RegistrationLocations, ImplWithoutDefIsReportedWhereTheImplIs) {
  const auto& run = run_fixture("schema-impl-without-def/fires");
  const auto* f = first(run, "schema-impl-without-def");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->location.file.find("kernels.cpp"), std::string::npos);
  bool suggests = false;
  for (const auto& n : f->notes) suggests = suggests || n.find("did you mean 'myops::add_one'") != std::string::npos;
  EXPECT_TRUE(suggests) << describe(run);
}

TEST(RegistrationLocations, BoxedReadIsReportedAtTheRead) {
  const auto* f = first(run_fixture("boxed-stack-type-mismatch/fires"), "boxed-stack-type-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->location.line, 14u);  // double times = to<double>(stack[1]);
  EXPECT_NE(f->help.find("to<int64_t>(stack[1])"), std::string::npos) << f->help;
}

TEST(RegistrationLocations, ProjectWrapperMacroIsFollowed) {
  // schema-signature-mismatch/clean defines its library through MYEXT_LIBRARY_EXPAND.
  const auto& run = run_fixture("schema-signature-mismatch/fires");
  const auto* f = first(run, "schema-signature-mismatch");
  ASSERT_NE(f, nullptr) << describe(run);
  EXPECT_NE(f->message.find("legacy_ops::scale"), std::string::npos) << f->message;
}

TEST(RegistrationLocations, BackendCoverageSubject) {
  const auto& run = run_fixture("backend-signature-mismatch/clean");
  ASSERT_EQ(run.subjects.size(), 1u);
  EXPECT_EQ(run.subjects[0].path, "aten/PrivateUse1");
  EXPECT_EQ(run.subjects[0].verdict, "PARTIAL");
}

// Against Debian's libtorch-dev (PyTorch 1.13) headers: the legacy API.
#define LEGACY_PAIR(rule) RuleFixture{rule, rule "/fires", rule "/clean"}
#define TORCHBIND(rule) RuleFixture{rule, rule "/fires", "torchbind-complete/clean", "torchbind-not-stable"}

INSTANTIATE_TEST_SUITE_P(
    Legacy, RegistrationRules,
    ::testing::Values(LEGACY_PAIR("schema-signature-mismatch"), LEGACY_PAIR("backend-signature-mismatch"),
                      LEGACY_PAIR("torchbind-not-stable"), TORCHBIND("torchbind-missing-obj-flatten"),
                      TORCHBIND("torchbind-missing-fake-class"), TORCHBIND("torchbind-fake-class-incomplete"),
                      TORCHBIND("torchbind-op-missing-fake"),
                      RuleFixture{"schema-tensorless-backend-kernel", "schema-tensorless-backend-kernel/legacy/fires",
                                  "schema-tensorless-backend-kernel/legacy/clean"}),
    name_of);

TEST(RegistrationLocations, TensorlessOpIsReportedAtItsKernelWithTheKey) {
  const auto& run = run_fixture("schema-tensorless-backend-kernel/fires");
  ASSERT_EQ(count_rule(run, "schema-tensorless-backend-kernel"), 2u) << describe(run);
  std::map<std::string, const findings::Finding*> by_op;
  for (const auto& f : run.findings)
    if (f.rule == "schema-tensorless-backend-kernel")
      by_op[f.message.substr(1, f.message.find('\'', 1) - 1)] = &f;
  ASSERT_TRUE(by_op.count("myops::make_buffer")) << describe(run);
  ASSERT_TRUE(by_op.count("myops::version")) << describe(run);
  const auto* f = by_op["myops::make_buffer"];
  EXPECT_NE(f->message.find("its CUDA kernel"), std::string::npos) << f->message;
  EXPECT_FALSE(f->severity) << "the rule's own severity (error)";
  // m.impl("make_buffer", ...) on line 18.
  EXPECT_EQ(f->location.line, 18u);
  EXPECT_NE(f->help.find("STABLE_TORCH_LIBRARY_IMPL(myops, CompositeExplicitAutograd, m)"), std::string::npos) << f->help;
  EXPECT_NE(by_op["myops::version"]->message.find("its CPU kernel"), std::string::npos);
}

TEST(RegistrationLocations, TensorlessLegacyOpsAndTheirGenerator) {
  const auto& run = run_fixture("schema-tensorless-backend-kernel/legacy/fires");
  std::map<std::string, const findings::Finding*> by_op;
  for (const auto& f : run.findings)
    if (f.rule == "schema-tensorless-backend-kernel")
      by_op[f.message.substr(1, f.message.find('\'', 1) - 1)] = &f;
  ASSERT_EQ(by_op.size(), 3u) << describe(run);
  const auto* buffer = by_op["legacy_tl::make_buffer"];
  ASSERT_NE(buffer, nullptr) << describe(run);
  EXPECT_FALSE(buffer->severity);
  EXPECT_NE(buffer->help.find("TORCH_LIBRARY_IMPL(legacy_tl, CompositeExplicitAutograd, m)"), std::string::npos);
  bool device_note = false;
  for (const auto& n : buffer->notes) device_note = device_note || n.find("'device' does not select") != std::string::npos;
  EXPECT_TRUE(device_note) << describe(run);
  ASSERT_NE(by_op["legacy_tl::version"], nullptr);
  EXPECT_FALSE(by_op["legacy_tl::version"]->severity);
  const auto* seed = by_op["legacy_tl::draw_seed"];
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(seed->severity, findings::Severity::Warning) << "an unboxed C++ call dispatches on the generator";
}

TEST(RegistrationExtraction, AnUnreadableDefMakesAMissingDefANote) {
  // m.def(schema_of("scaled").c_str()): the def cannot be read, so the impl of
  // 'dynamic::scaled' may well be its impl.
  const auto& run = run_fixture("schema-impl-without-def/unread");
  ASSERT_EQ(count_rule(run, "schema-impl-without-def"), 1u) << describe(run);
  const auto* f = first(run, "schema-impl-without-def");
  EXPECT_EQ(f->severity, findings::Severity::Note);
  ASSERT_FALSE(f->notes.empty());
  EXPECT_NE(f->notes[0].find("could not be read"), std::string::npos) << f->notes[0];
}

}  // namespace
}  // namespace torchabi::schema
