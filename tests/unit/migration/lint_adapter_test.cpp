// How lint's findings become migration work (lint_adapter.h) and how the
// inactive-branch ranges travel back from lint's children (inactive_regions.h).
#include <gtest/gtest.h>

#include "analyzers/migration/call_rewrite_check.h"
#include "analyzers/migration/fix_applier.h"
#include "analyzers/migration/inactive_regions.h"
#include "analyzers/migration/lint_adapter.h"
#include "common/input_error.h"
#include "test_files.h"

using namespace torchabi::migration;
using namespace torchabi::migration::testing;
using torchabi::findings::Finding;
using torchabi::findings::FixIt;
using torchabi::findings::FixSafety;
using torchabi::findings::Report;

namespace {

const torchabi::source::Replacements& replacements() {
  static auto r = torchabi::source::Replacements::parse(R"(
apis:
  - {legacy: [at::Tensor], kind: type, replacement: torch::stable::Tensor, header: torch/csrc/stable/tensor.h, since: "2.9", fix: safe}
  - {legacy: [at::TensorBase::dim], kind: method, replacement: "torch::stable::Tensor::*", header: torch/csrc/stable/tensor.h, since: "2.9", fix: safe, style: same-method}
  - {legacy: [c10::Scalar], kind: type, replacement: null, fix: "no", note: no scalar}
  - {legacy: [c10::TensorOptions], kind: type, replacement: null, fix: "no", note: pass options separately}
  - {legacy: [TORCH_CHECK], kind: macro, replacement: STD_TORCH_CHECK, header: torch/headeronly/util/Exception.h, since: "2.9", fix: safe}
  - {legacy: [TORCH_LIBRARY], kind: macro, replacement: STABLE_TORCH_LIBRARY, header: torch/csrc/stable/library.h, since: "2.9", fix: unsafe}
  - {legacy: [AT_DISPATCH_FLOATING_TYPES], kind: macro, replacement: STABLE_DISPATCH_FLOATING_TYPES, header: torch/csrc/stable/Dispatch.h, fix: unsafe}
  - {legacy: [torch/extension.h], kind: header, replacement: null, fix: "no", note: include what you use}
)", "test-replacements.yaml");
  return r;
}

const BlockerCatalog& blockers() {
  static auto b = BlockerCatalog::from_yaml(R"(
blockers:
  - {id: scalar, title: Scalar arguments, apis: [c10::Scalar], workaround: take a double}
  - {id: torchbind, title: TorchBind, apis: [torch::CustomClassHolder], workaround: keep it in Python}
)", "test-blockers.yaml");
  return b;
}

const MigrationRewrites& rewrites() {
  static auto r = MigrationRewrites::parse(R"(
boxed_registrations:
  - {method: torch::Library::impl, wrap: TORCH_BOX, header: torch/csrc/stable/library.h, since: "2.9", fix: unsafe}
follow_rewrites:
  - {same_method: true, after: [at::Tensor]}
  - {apis: [torch::Library::def], after: [TORCH_LIBRARY]}
)", "test-rewrites.yaml");
  return r;
}

// The call rewrites (call_rewrite_check.h) on top of rewrites().
const MigrationRewrites& call_rewrites() {
  static auto r = MigrationRewrites::parse(R"(
boxed_registrations:
  - {method: torch::Library::impl, wrap: TORCH_BOX, header: torch/csrc/stable/library.h, since: "2.9", fix: unsafe}
follow_rewrites:
  - {same_method: true, after: [at::Tensor]}
  - {apis: [torch::Library::def], after: [TORCH_LIBRARY]}
templated_methods:
  - {methods: [at::TensorBase::data_ptr], rename: mutable_data_ptr, replacement: torch::stable::Tensor::mutable_data_ptr,
     header: torch/csrc/stable/tensor.h, since: "2.10", fix: safe, note: same T*}
def_with_kernel:
  - {method: torch::Library::def, impl: impl, wrap: TORCH_BOX, header: torch/csrc/stable/library.h, since: "2.9",
     fix: unsafe, note: split, manual_note: split it by hand}
)", "test-rewrites.yaml");
  return r;
}

Finding finding(std::string rule, std::string file, uint32_t line, uint32_t col, std::string symbol,
                std::optional<FixIt> fix = {}) {
  Finding f;
  f.rule = std::move(rule);
  f.location.file = std::move(file);
  f.location.line = line;
  f.location.column = col;
  f.location.symbol = std::move(symbol);
  f.message = "m";
  f.help = "h";
  f.fix = std::move(fix);
  return f;
}

FixIt fix_at(const std::string& file, uint32_t b, uint32_t e, std::string with, FixSafety s = FixSafety::Safe) {
  return {file, b, e, std::move(with), s, "", {}, {}};
}

const ApiUse* find(const std::vector<ApiUse>& uses, const std::string& api, uint32_t line = 0) {
  for (const auto& u : uses)
    if (u.api == api && (line == 0 || u.location.line == line)) return &u;
  return nullptr;
}

}  // namespace

TEST(LintAdapter, ReadsReplacementsFixesAndBlockers) {
  auto dir = scratch_dir();
  const std::string text = "at::Tensor f(at::Tensor x) { return x; }\nc10::Scalar s; c10::TensorOptions o; at::Foo z;\n";
  auto file = put_file(dir, "a.cpp", text);
  Report r;
  r.add(finding("source-unstable-api", file, 1, 1, "at::Tensor", fix_at(file, 0, 10, "torch::stable::Tensor")));
  r.add(finding("source-unstable-api", file, 2, 1, "c10::Scalar"));
  r.add(finding("source-unstable-api", file, 2, 16, "c10::TensorOptions"));
  r.add(finding("source-unstable-api", file, 2, 39, "at::Foo"));
  r.add(finding("source-tu-not-analysed", file, 0, 0, "x"));  // not migration work
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  ASSERT_EQ(uses.size(), 4u);

  const ApiUse* t = find(uses, "at::Tensor");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->disposition, Disposition::Fixable);
  EXPECT_EQ(t->replacement, "torch::stable::Tensor");
  EXPECT_EQ(t->header, "torch/csrc/stable/tensor.h");
  EXPECT_EQ(t->since->str(), "2.9");

  const ApiUse* s = find(uses, "c10::Scalar");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->disposition, Disposition::Blocked);
  EXPECT_EQ(s->blocker, "scalar");
  EXPECT_EQ(s->note, "take a double");

  const ApiUse* o = find(uses, "c10::TensorOptions");  // null replacement, no blocker entry
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->disposition, Disposition::Blocked);
  EXPECT_TRUE(o->blocker.empty());
  EXPECT_EQ(o->note, "pass options separately");

  const ApiUse* z = find(uses, "at::Foo");  // unknown: a person must write it with stable ops
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->disposition, Disposition::Manual);
  EXPECT_NE(z->note.find("torch_call_dispatcher"), std::string::npos);
}

TEST(LintAdapter, AUseReportedTwiceCountsOnceWithItsFix) {
  auto file = put_file(scratch_dir(), "a.cpp", "m.impl(\"f\", &f);\n");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 3, "torch::Library::impl"));
  r.add(finding("source-unstable-api", file, 1, 3, "torch::Library::impl", fix_at(file, 12, 14, "TORCH_BOX(&f)", FixSafety::Unsafe)));
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_TRUE(uses[0].fix.has_value());
  EXPECT_EQ(uses[0].replacement, "TORCH_BOX");
  EXPECT_EQ(uses[0].header, "torch/csrc/stable/library.h");
  EXPECT_EQ(uses[0].disposition, Disposition::FixableUnsafe);
}

// A file half-way through its port includes stable and legacy headers; lint
// makes the uses a legacy include's broken parse decides notes (one root
// cause, one error), but each is still a use to port. A plain note is not.
TEST(LintAdapter, UsesDemotedByABrokenParseAreStillUsesOtherNotesAreNot) {
  auto file = put_file(scratch_dir(), "a.cu", "at::Tensor f(at::Tensor x);\n");
  Report r;
  Finding demoted = finding("source-unstable-api", file, 1, 1, "at::Tensor");
  demoted.severity = torchabi::findings::Severity::Note;
  demoted.message = "uses unstable PyTorch API: type at::Tensor (rests on a parse broken by <ATen/ATen.h> at a.cu:3)";
  r.add(demoted);
  Finding note = finding("source-unstable-macro", file, 1, 14, "TORCH_CHECK");
  note.severity = torchabi::findings::Severity::Note;
  note.message = "macro defined with TORCH_CHECK, never expanded";
  r.add(note);
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].api, "at::Tensor");
}

TEST(LintAdapter, AFixInsideAMacroDefinitionIsManual) {
  const std::string text = "#define CHECK(c) TORCH_CHECK(c)\n";
  auto file = put_file(scratch_dir(), "a.h", text);
  Report r;
  r.add(finding("source-unstable-macro", file, 1, 18, "TORCH_CHECK", fix_at(file, 17, 28, "STD_TORCH_CHECK")));
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].disposition, Disposition::Manual);
  EXPECT_NE(uses[0].note.find("macro definition"), std::string::npos);
}

// A registration call a stable library does without (impl_abstract_pystub)
// is removed: a fix that changes what torch knows about the op, so unsafe,
// and it keeps the registration block from waiting for a human.
TEST(LintAdapter, ADroppedRegistrationCallIsAnUnsafeRemoval) {
  const std::string text = "TORCH_LIBRARY(ns, m) {\n  m.impl_abstract_pystub(\"pkg.ops\");\n  m.def(\"f() -> ()\");\n}\n";
  auto file = put_file(scratch_dir(), "a.cpp", text);
  Report r;
  Finding f = finding("source-unstable-api", file, 2, 5, "torch::Library::impl_abstract_pystub",
                      fix_at(file, 23, 59, "", FixSafety::Unsafe));
  f.message = std::string(kDroppedCall) + "torch::Library::impl_abstract_pystub";
  f.help = "Remove the call. Import the fakes' module.";
  f.fix->needs = torchabi::TorchVersion::parse_dotted("2.9");
  r.add(f);
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  const ApiUse* u = find(uses, "torch::Library::impl_abstract_pystub");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->disposition, Disposition::FixableUnsafe);
  EXPECT_EQ(u->replacement, "(removed)");
  EXPECT_NE(u->note.find("Import the fakes' module"), std::string::npos) << u->note;
  // Without the fix-it (part of a larger expression) it is a use for a human.
  Report manual;
  manual.add(finding("source-unstable-api", file, 2, 5, "torch::Library::impl_abstract_pystub"));
  auto left = uses_from_lint(manual, replacements(), blockers(), rewrites());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].disposition, Disposition::Manual);
}

TEST(LintAdapter, ExpansionsOfAProjectMacroCountOnceAtItsDefinition) {
  // Lint reports TORCH_CHECK at each expansion of CHECK, with the fix-it in
  // CHECK's #define: the work is that one edit, which --fix makes because the
  // macro is the source file's own (it expands only in its translation unit).
  const std::string text = "#define CHECK(c) TORCH_CHECK(c)\nvoid f(int a) {\n  CHECK(a);\n  CHECK(a + 1);\n}\n";
  auto file = put_file(scratch_dir(), "b.cpp", text);
  Report r;
  r.add(finding("source-unstable-macro", file, 3, 3, "TORCH_CHECK", fix_at(file, 17, 28, "STD_TORCH_CHECK")));
  r.add(finding("source-unstable-macro", file, 4, 3, "TORCH_CHECK", fix_at(file, 17, 28, "STD_TORCH_CHECK")));
  // A definition that is never expanded is a note, not a use.
  Finding note = finding("source-unstable-macro", file, 1, 18, "TORCH_LIBRARY");
  note.severity = torchabi::findings::Severity::Note;
  r.add(note);
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].api, "TORCH_CHECK");
  EXPECT_EQ(uses[0].location.line, 1u);
  EXPECT_EQ(uses[0].location.column, 18u);
  EXPECT_EQ(uses[0].disposition, Disposition::Fixable);
  EXPECT_EQ(uses[0].note.find("macro definition"), std::string::npos) << uses[0].note;
}

TEST(LintAdapter, UsesThatFollowAnotherRewriteCountAsIt) {
  auto file = put_file(scratch_dir(), "a.cpp", "at::Tensor x; x.dim(); AT_DISPATCH_FLOATING_TYPES(x, \"n\", f);\n");
  auto other = put_file(scratch_dir(), "b.cpp", "y.dim();\n");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 1, "at::Tensor", fix_at(file, 0, 10, "torch::stable::Tensor")));
  r.add(finding("source-unstable-api", file, 1, 17, "at::TensorBase::dim"));
  r.add(finding("source-unstable-macro", file, 1, 24, "AT_DISPATCH_FLOATING_TYPES",
                fix_at(file, 23, 49, "STABLE_DISPATCH_FLOATING_TYPES", FixSafety::Unsafe)));
  r.add(finding("source-unstable-api", other, 1, 3, "at::TensorBase::dim"));  // no type rewrite in b.cpp
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());

  const ApiUse* dim = find(uses, "at::TensorBase::dim", 1);
  ASSERT_NE(dim, nullptr);
  ASSERT_EQ(uses.size(), 4u);
  for (const auto& u : uses) {
    if (u.api == "at::TensorBase::dim" && u.location.file == file) {
      EXPECT_EQ(u.follows, std::vector<std::string>{"at::Tensor"});
      EXPECT_EQ(u.disposition, Disposition::Fixable);
    }
    if (u.api == "at::TensorBase::dim" && u.location.file == other) {
      EXPECT_EQ(u.disposition, Disposition::Manual) << "nothing in b.cpp makes it stable";
    }
  }
}

TEST(LintAdapter, WhatATorchMacroExpandsToIsThatMacrosUse) {
  // TORCH_CHECK written inside another macro's argument: lint reports its
  // expansion (torchCheckFail, torchCheckMsgImpl) at the TORCH_CHECK name.
  auto file = put_file(scratch_dir(), "a.cpp",
                       "WRAP(TORCH_CHECK(x, \"m\"));\nAT_DISPATCH_FLOATING_TYPES(t, \"n\", f);\nMY_MACRO(c10::Half(1));\n");
  Report r;
  r.add(finding("source-unstable-macro", file, 1, 6, "TORCH_CHECK"));  // no fix-it: inside WRAP(...)
  r.add(finding("source-unstable-api", file, 1, 6, "c10::detail::torchCheckFail"));
  r.add(finding("source-unstable-api", file, 1, 6, "c10::detail::torchCheckMsgImpl"));
  r.add(finding("source-unstable-macro", file, 2, 1, "AT_DISPATCH_FLOATING_TYPES",
                fix_at(file, 26, 52, "STABLE_DISPATCH_FLOATING_TYPES", FixSafety::Unsafe)));
  r.add(finding("source-unstable-api", file, 2, 1, "c10::ScalarType"));
  // A torch macro the rules do not know is one use too: the user wrote the
  // macro, not the c10::Scalar its expansion names.
  r.add(finding("source-unstable-macro", file, 3, 1, "MY_MACRO"));
  r.add(finding("source-unstable-api", file, 3, 1, "c10::Scalar"));
  r.add(finding("source-unstable-api", file, 3, 10, "c10::Half"));  // written in its argument
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());

  EXPECT_EQ(find(uses, "c10::detail::torchCheckFail"), nullptr);
  EXPECT_EQ(find(uses, "c10::detail::torchCheckMsgImpl"), nullptr);
  EXPECT_EQ(find(uses, "c10::ScalarType"), nullptr);
  const ApiUse* check = find(uses, "TORCH_CHECK");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->replacement, "STD_TORCH_CHECK");
  EXPECT_EQ(find(uses, "c10::Scalar", 3), nullptr);
  EXPECT_NE(find(uses, "MY_MACRO", 3), nullptr);
  // An API written at a place of its own stays a use.
  EXPECT_NE(find(uses, "c10::Half", 3), nullptr);
  EXPECT_EQ(uses.size(), 4u);
}

TEST(LintAdapter, WhatATorchMacroInANestedProjectMacroExpandsToIsThatMacrosUse) {
  // INNER written in OUTER's argument: lint reports AT_ERROR at INNER's name
  // with its fix-it in INNER's #define (where the plan counts it), and what
  // AT_ERROR expands to at INNER's name too. `at::Half`, written in the
  // #define, stays a use.
  const std::string text =
      "#define INNER(T) using t = at::Half; AT_ERROR(\"no\")\n"
      "OUTER([&] { INNER(1); });\n";
  auto file = put_file(scratch_dir(), "a.cpp", text);
  const uint32_t at_error = static_cast<uint32_t>(text.find("AT_ERROR"));
  Report r;
  r.add(finding("source-unstable-macro", file, 2, 13, "AT_ERROR",
                fix_at(file, at_error, at_error + 8, "STD_TORCH_CHECK(false, ", FixSafety::Unsafe)));
  r.add(finding("source-unstable-api", file, 2, 13, "c10::detail::torchCheckFail"));
  r.add(finding("source-unstable-api", file, 2, 13, "c10::str"));
  r.add(finding("source-unstable-api", file, 2, 13, "c10::Half"));
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());

  EXPECT_EQ(find(uses, "c10::detail::torchCheckFail"), nullptr);
  EXPECT_EQ(find(uses, "c10::str"), nullptr);
  EXPECT_NE(find(uses, "c10::Half", 2), nullptr);
  const ApiUse* error = find(uses, "AT_ERROR");
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->location.line, 1u) << "counted at the #define";
  EXPECT_EQ(uses.size(), 2u);
}

TEST(LintAdapter, AnIncludeIsFixableOnlyWhenItsFileAndIncludersAreDone) {
  auto dir = scratch_dir();
  auto h = put_file(dir, "ops.h", "#include <torch/extension.h>\nat::Tensor f();\n");
  auto a = put_file(dir, "a.cpp", "#include \"ops.h\"\nat::Foo g;\n");
  Report r;
  r.add(finding("source-unstable-include", h, 1, 10, "torch/extension.h", fix_at(h, 10, 27, "x")));
  r.add(finding("source-unstable-api", h, 2, 1, "at::Tensor", fix_at(h, 29, 39, "torch::stable::Tensor")));
  auto uses = uses_from_lint(r, replacements(), blockers(), rewrites());
  const ApiUse* inc = find(uses, "torch/extension.h");
  ASSERT_NE(inc, nullptr);
  EXPECT_TRUE(inc->is_include);
  EXPECT_FALSE(inc->fix.has_value()) << "the header pass of --fix owns include rewrites";

  IncludeGraph g = {{normal_path(a), {normal_path(h)}}, {normal_path(h), {}}};
  auto alone = uses;
  settle_includes(alone, g);
  EXPECT_EQ(find(alone, "torch/extension.h")->disposition, Disposition::Fixable);

  r.add(finding("source-unstable-api", a, 2, 1, "at::Foo"));  // the includer keeps legacy API
  auto with_user = uses_from_lint(r, replacements(), blockers(), rewrites());
  settle_includes(with_user, g);
  EXPECT_EQ(find(with_user, "torch/extension.h")->disposition, Disposition::Manual);
}

TEST(InactiveRegions, IntersectionKeepsWhatEveryTranslationUnitSkipped) {
  EXPECT_EQ(intersect_ranges({{0, 10}, {20, 30}}, {{5, 25}}).size(), 2u);
  auto both = intersect_ranges({{0, 10}, {20, 30}}, {{5, 25}});
  EXPECT_EQ(both[0].begin, 5u);
  EXPECT_EQ(both[0].end, 10u);
  EXPECT_EQ(both[1].begin, 20u);
  EXPECT_EQ(both[1].end, 25u);
  EXPECT_TRUE(intersect_ranges({{0, 10}}, {}).empty());
}

TEST(InactiveRegions, TakenFromTheSubjectsAndRemovedThere) {
  Report r;
  torchabi::findings::Subject cpu, cuda;
  cpu.facts = {{"migrate.inactive-ranges", "/p/k.h\t10-50 80-90 "}, {"other", "kept"}};
  cuda.facts = {{"migrate.inactive-ranges", "/p/k.h\t80-90 "}, {"migrate.inactive-ranges", "/p/cuda.cu\t"}};
  r.subjects = {cpu, cuda};
  auto ranges = take_inactive_regions(r);
  ASSERT_EQ(ranges.size(), 1u) << "a file with nothing skipped everywhere is not listed";
  ASSERT_EQ(ranges["/p/k.h"].size(), 1u);
  EXPECT_EQ(ranges["/p/k.h"][0].begin, 80u);
  EXPECT_EQ(ranges["/p/k.h"][0].end, 90u);
  EXPECT_EQ(r.subjects[0].facts.size(), 1u);
  EXPECT_EQ(r.subjects[0].facts[0].first, "other");
  EXPECT_TRUE(r.subjects[1].facts.empty());
}

TEST(MigrationRewrites, ReadsCallRewritesAndRejectsIncompleteOnes) {
  const auto& r = call_rewrites();
  ASSERT_NE(r.templated_for("at::TensorBase::data_ptr"), nullptr);
  EXPECT_EQ(r.templated_for("at::TensorBase::data_ptr")->rename, "mutable_data_ptr");
  EXPECT_EQ(r.templated_for("at::TensorBase::data_ptr")->since->str(), "2.10");
  EXPECT_EQ(r.templated_for("at::TensorBase::dim"), nullptr);
  ASSERT_NE(r.def_with_kernel_for("torch::Library::def"), nullptr);
  EXPECT_FALSE(r.def_with_kernel_for("torch::Library::def")->safe);
  EXPECT_THROW(MigrationRewrites::parse("boxed_registrations: []\ntemplated_methods:\n  - {methods: [a::b], fix: safe}\n", "x.yaml"),
               torchabi::InputError);
  // The older form must say where the call's text goes, and its release.
  const auto shipped = MigrationRewrites::parse(
      read_source_file(std::string(TORCHABI_SOURCE_DIR) + "/rules/api/migration_rewrites.yaml"), "migration_rewrites.yaml");
  ASSERT_NE(shipped.templated_for("at::TensorBase::data_ptr"), nullptr);
  ASSERT_TRUE(shipped.templated_for("at::TensorBase::data_ptr")->older_since);
  EXPECT_EQ(shipped.templated_for("at::TensorBase::data_ptr")->older_since->str(), "2.9");
  EXPECT_FALSE(r.templated_for("at::TensorBase::data_ptr")->older_since);  // optional
  EXPECT_THROW(MigrationRewrites::parse("templated_methods:\n  - {methods: [a::b], rename: c, replacement: d, fix: safe,"
                                        " older: {form: \"cast($CALLEE())\", since: \"2.9\"}}\n", "x.yaml"),
               torchabi::InputError);
  EXPECT_THROW(MigrationRewrites::parse("templated_methods:\n  - {methods: [a::b], rename: c, replacement: d, fix: safe,"
                                        " older: {form: \"cast<$T>($CALLEE())\"}}\n", "x.yaml"),
               torchabi::InputError);
  EXPECT_THROW(MigrationRewrites::parse("boxed_registrations: []\ndef_with_kernel:\n  - {method: a, impl: impl, wrap: W, fix: maybe, manual_note: n}\n", "x.yaml"),
               torchabi::InputError);
  // The shipped rules parse.
  EXPECT_NO_THROW(MigrationRewrites::parse(read_source_file(std::string(TORCHABI_SOURCE_DIR) + "/rules/api/migration_rewrites.yaml"),
                                           "migration_rewrites.yaml"));
}

TEST(LintAdapter, ATemplatedDataPointerTakesItsRenameAndRelease) {
  auto file = put_file(scratch_dir(), "a.cpp", "float* p = x.data_ptr<float>();\n");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 14, "at::TensorBase::data_ptr"));
  r.add(finding("source-unstable-api", file, 1, 14, "at::TensorBase::data_ptr", fix_at(file, 13, 21, "mutable_data_ptr")));
  auto uses = uses_from_lint(r, replacements(), blockers(), call_rewrites());
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].replacement, "torch::stable::Tensor::mutable_data_ptr");
  EXPECT_EQ(uses[0].since->str(), "2.10");
  EXPECT_EQ(uses[0].disposition, Disposition::Fixable);
  EXPECT_TRUE(uses[0].follows.empty());
}

TEST(LintAdapter, ADefinitionThatNeedsAPersonKeepsItsLibraryBlock) {
  const std::string text = "TORCH_LIBRARY(ns, m) {\n  m.def(\"a(Tensor x) -> Tensor\", &a);\n  m.def(\"b() -> ()\", [] {});\n}\n";
  auto file = put_file(scratch_dir(), "a.cpp", text);
  Report r;
  r.add(finding("source-unstable-macro", file, 1, 1, "TORCH_LIBRARY", fix_at(file, 0, 13, "STABLE_TORCH_LIBRARY", FixSafety::Unsafe)));
  r.add(finding("source-unstable-api", file, 2, 5, "torch::Library::def"));
  r.add(finding("source-unstable-api", file, 2, 5, "torch::Library::def", fix_at(file, 56, 61, ").impl(\"a\", TORCH_BOX(&a))", FixSafety::Unsafe)));
  r.add(finding("source-unstable-api", file, 3, 5, "torch::Library::def"));
  auto alone = uses_from_lint(r, replacements(), blockers(), call_rewrites());
  EXPECT_EQ(find(alone, "TORCH_LIBRARY")->disposition, Disposition::FixableUnsafe);
  EXPECT_EQ(find(alone, "torch::Library::def", 2)->disposition, Disposition::FixableUnsafe);
  EXPECT_EQ(find(alone, "torch::Library::def", 3)->disposition, Disposition::FixableUnsafe) << "follows the block";

  Finding human = finding("source-unstable-api", file, 3, 5, "torch::Library::def");
  human.message = std::string(kDefNeedsHuman) + "torch::Library::def";
  r.add(human);
  auto uses = uses_from_lint(r, replacements(), blockers(), call_rewrites());
  ASSERT_EQ(uses.size(), 3u);
  const ApiUse* lambda = find(uses, "torch::Library::def", 3);
  EXPECT_EQ(lambda->disposition, Disposition::Manual);
  EXPECT_EQ(lambda->note, "split it by hand");
  EXPECT_EQ(find(uses, "TORCH_LIBRARY")->disposition, Disposition::Manual);
  EXPECT_FALSE(find(uses, "TORCH_LIBRARY")->fix.has_value()) << "--fix must not rename the block";
  EXPECT_FALSE(find(uses, "torch::Library::def", 2)->fix.has_value()) << "its split only compiles in a stable block";
}

TEST(LintAdapter, ATensorMethodWithoutAStableSpellingKeepsTheTensorType) {
  auto file = put_file(scratch_dir(), "a.cpp", "at::Tensor f(at::Tensor x) { return x.neg(); }\n");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 1, "at::Tensor", fix_at(file, 0, 10, "torch::stable::Tensor")));
  r.add(finding("source-unstable-api", file, 1, 39, "at::Tensor::neg"));
  auto uses = uses_from_lint(r, replacements(), blockers(), call_rewrites());
  const ApiUse* t = find(uses, "at::Tensor");
  EXPECT_EQ(t->disposition, Disposition::Manual);
  EXPECT_FALSE(t->fix.has_value());
}

TEST(LintAdapter, AnIncludeGoesWithTheUnsafeFixesOfItsFile) {
  auto file = put_file(scratch_dir(), "a.cpp", "#include <torch/extension.h>\nAT_DISPATCH_FLOATING_TYPES(t, n, f);\n");
  Report r;
  r.add(finding("source-unstable-include", file, 1, 10, "torch/extension.h"));
  r.add(finding("source-unstable-macro", file, 2, 1, "AT_DISPATCH_FLOATING_TYPES",
                fix_at(file, 29, 55, "STABLE_DISPATCH_FLOATING_TYPES", FixSafety::Unsafe)));
  auto uses = uses_from_lint(r, replacements(), blockers(), call_rewrites());
  settle_includes(uses, {{normal_path(file), {}}});
  EXPECT_EQ(find(uses, "torch/extension.h")->disposition, Disposition::FixableUnsafe)
      << "--fix without --unsafe-fixes keeps it, --unsafe-fixes removes it";
}

TEST(LintAdapter, AtenOperatorsWithoutAReplacementGetTheCallByName) {
  auto file = put_file(scratch_dir(), "a.cpp", "auto y = x.flip({0}); auto z = -x; auto w = x.item();\n");
  const auto ops = torchabi::inputs::AtenOps::parse(
      "# release: 2.14.1\nflip\tbackend\tflip(Tensor self, int[] dims) -> Tensor\nneg\tbackend\tneg(Tensor self) -> Tensor\n"
      "item\tcomposite\titem(Tensor self) -> Scalar\n",
      "ops");
  const AtenFallback aten = AtenFallback::parse(ops, "spelling\ttorch_type\tstable\nTensor\tTensorType\ttensor\nint\tIntType\tint\n",
                                                "api\tfunction\top\nat::Tensor::operator-\tat::neg\tneg\n", "test");
  auto with_gap = BlockerCatalog::from_yaml(R"(
gaps:
  - {id: aten-op-by-name, title: by name, apis: [], workaround: call it by name, source: shim.h}
)", "test-gaps.yaml", "gaps");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 10, "at::Tensor::flip"));
  r.add(finding("source-unstable-api", file, 1, 32, "at::Tensor::operator-"));
  r.add(finding("source-unstable-api", file, 1, 45, "at::Tensor::item"));
  auto uses = uses_from_lint(r, replacements(), with_gap, rewrites(), &aten);
  const ApiUse* flip = find(uses, "at::Tensor::flip");
  ASSERT_NE(flip, nullptr);
  EXPECT_EQ(flip->disposition, Disposition::Blocked);
  EXPECT_EQ(flip->blocker, "aten-op-by-name");
  EXPECT_NE(flip->note.find("\"aten::flip\""), std::string::npos) << flip->note;
  const ApiUse* neg = find(uses, "at::Tensor::operator-");
  ASSERT_NE(neg, nullptr);
  EXPECT_EQ(neg->blocker, "aten-op-by-name");
  EXPECT_NE(neg->note.find("aten::neg"), std::string::npos) << neg->note;
  const ApiUse* item = find(uses, "at::Tensor::item");  // a Scalar return: no call by name
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->disposition, Disposition::Manual);
  EXPECT_TRUE(item->blocker.empty());

  // Without the fallback, the same uses stay manual with the generic note.
  auto plain = uses_from_lint(r, replacements(), with_gap, rewrites());
  EXPECT_EQ(find(plain, "at::Tensor::flip")->disposition, Disposition::Manual);
}

TEST(LintAdapter, ATensorOperatorIsLookedUpAsTheFunctionItCalls) {
  auto file = put_file(scratch_dir(), "a.cpp", "auto z = a - b;\n");
  const auto ops = torchabi::inputs::AtenOps::parse(
      "# release: 2.14.1\nsub.Tensor\tbackend\tsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n", "ops");
  const AtenFallback aten = AtenFallback::parse(ops, "spelling\ttorch_type\tstable\nTensor\tTensorType\ttensor\n",
                                                "api\tfunction\top\nat::operator-\tat::sub\tsub.Tensor\n", "test");
  auto repl = torchabi::source::Replacements::parse(R"(
apis:
  - {legacy: [at::sub], kind: function, replacement: torch::stable::subtract, header: torch/csrc/stable/ops.h, since: "2.10", fix: "no"}
)", "test-replacements.yaml");
  Report r;
  r.add(finding("source-unstable-api", file, 1, 12, "at::operator-"));
  auto uses = uses_from_lint(r, repl, blockers(), rewrites(), &aten);
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].replacement, "torch::stable::subtract");
  EXPECT_EQ(uses[0].since->str(), "2.10");
  EXPECT_NE(uses[0].note.find("Calls at::sub"), std::string::npos) << uses[0].note;
}
