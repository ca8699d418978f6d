// How severe a stable kernel's reference-parameter constness is, from what its
// body does (fixtures/schema/boxed-signature-mismatch/constness): const& for a
// Tensor(a!) works (the data is written through the handle); a non-const&
// the schema does not mark as written is wrong only when the kernel writes it.
#include <gtest/gtest.h>

#include "registration_fixtures.h"

namespace torchabi::schema::testing {
namespace {

const findings::Finding* about(const RegistrationRun& run, const std::string& kernel) {
  for (const auto& f : run.findings)
    if (f.rule == "boxed-signature-mismatch" && f.message.find("'" + kernel + "'") != std::string::npos) return &f;
  return nullptr;
}

TEST(KernelConstness, ConstRefForWrittenTensorIsANote) {
  const auto& run = run_fixture("boxed-signature-mismatch/constness");
  const auto* f = about(run, "fill_out");
  ASSERT_NE(f, nullptr) << describe(run);
  EXPECT_EQ(f->severity, findings::Severity::Note) << f->message;
}

TEST(KernelConstness, WrittenNonConstRefTheSchemaDoesNotMarkIsAWarningNamingTheWrite) {
  const auto& run = run_fixture("boxed-signature-mismatch/constness");
  const auto* f = about(run, "reset");
  ASSERT_NE(f, nullptr) << describe(run);
  EXPECT_EQ(f->severity, findings::Severity::Warning) << f->message;
  EXPECT_NE(f->message.find("writes 'x' through torch::stable::zero_(x) at "), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("constness/ops.cpp:14"), std::string::npos) << f->message;
}

TEST(KernelConstness, WriteThroughAMethodIsNamedToo) {
  const auto& run = run_fixture("boxed-signature-mismatch/constness");
  const auto* f = about(run, "scribble");
  ASSERT_NE(f, nullptr) << describe(run);
  EXPECT_EQ(f->severity, findings::Severity::Warning) << f->message;
  EXPECT_NE(f->message.find("writes 'x' through x.mutable_data_ptr() at "), std::string::npos) << f->message;
}

TEST(KernelConstness, UnwrittenNonConstRefIsANote) {
  const auto& run = run_fixture("boxed-signature-mismatch/constness");
  const auto* f = about(run, "peek");
  ASSERT_NE(f, nullptr) << describe(run);
  EXPECT_EQ(f->severity, findings::Severity::Note) << f->message;
  EXPECT_NE(f->message.find("does not write it"), std::string::npos) << f->message;
}

}  // namespace
}  // namespace torchabi::schema::testing
