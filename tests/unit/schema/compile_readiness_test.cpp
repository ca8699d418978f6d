// The compile-readiness checks beyond "fires / stays quiet": where each
// finding is, its severity, what it names; and the Python reader on its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyzers/schema/compile_readiness/python_op_model.h"
#include "analyzers/schema/compile_readiness/unbuilt_definitions.h"
#include "registration_fixtures.h"

namespace torchabi::schema {
namespace {

using testing::count_rule;
using testing::describe;
using testing::fixture_dir;
using testing::run_fixture;

std::vector<const findings::Finding*> of_rule(const RegistrationRun& run, const std::string& rule) {
  std::vector<const findings::Finding*> out;
  for (const auto& f : run.findings)
    if (f.rule == rule) out.push_back(&f);
  return out;
}

bool mentions(const findings::Finding& f, const std::string& text) {
  if (f.message.find(text) != std::string::npos || f.help.find(text) != std::string::npos) return true;
  for (const auto& n : f.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

TEST(CompileReadiness, MissingFakeIsAtTheDefAndSuggestsTheFake) {
  const auto& run = run_fixture("compile-missing-fake/fires");
  auto found = of_rule(run, "compile-missing-fake");
  ASSERT_EQ(found.size(), 1u) << describe(run);  // myops::count returns an int: no fake needed
  EXPECT_NE(found[0]->message.find("'myops::scale'"), std::string::npos);
  EXPECT_EQ(found[0]->location.line, 17u);  // m.def("scale(...)")
  EXPECT_TRUE(mentions(*found[0], "def _(x, factor)")) << found[0]->help;
  EXPECT_FALSE(found[0]->severity) << "the rule's own severity (warning)";
}

TEST(CompileReadiness, EveryOpOfAMacroTableIsItsOwnOp) {
  // Every m.def/m.impl a table macro expands sits at the table's line: they
  // are still three ops, not one registration seen three times.
  const auto& run = run_fixture("compile-missing-fake/macro_table");
  auto found = of_rule(run, "compile-missing-fake");
  ASSERT_EQ(found.size(), 1u) << describe(run);  // scale has a fake; touch returns nothing
  EXPECT_NE(found[0]->message.find("'myops::shift'"), std::string::npos) << found[0]->message;
  EXPECT_EQ(count_rule(run, "schema-impl-without-def"), 0u) << describe(run);
  EXPECT_EQ(count_rule(run, "schema-def-without-impl"), 0u) << describe(run);
}

TEST(CompileReadiness, FakeSignatureMismatchIsAnErrorAtTheFakesLine) {
  const auto& run = run_fixture("compile-fake-signature-mismatch/fires");
  auto found = of_rule(run, "compile-fake-signature-mismatch");
  ASSERT_EQ(found.size(), 1u) << describe(run);
  const auto& f = *found[0];
  EXPECT_FALSE(f.severity) << "the rule's own severity (error)";
  EXPECT_NE(f.location.file.find("myops/fakes.py"), std::string::npos) << f.location.display();
  EXPECT_EQ(f.location.line, 7u);  // def _(factor, x, *, inplace=False):
  // the op came from f"{NS}::scale" with NS imported from another module
  EXPECT_NE(f.message.find("'myops::scale'"), std::string::npos) << f.message;
  EXPECT_TRUE(mentions(f, "out of order")) << describe(run);
  EXPECT_TRUE(mentions(f, "has no default, but the schema's 'factor' defaults to 1.0")) << describe(run);
  EXPECT_TRUE(mentions(f, "def _(x, factor=1.0, *, inplace=False)")) << f.help;
}

TEST(CompileReadiness, AutogradArityIsCheckedForBothFunctions) {
  const auto& run = run_fixture("compile-autograd-signature-mismatch/fires");
  auto found = of_rule(run, "compile-autograd-signature-mismatch");
  ASSERT_EQ(found.size(), 2u) << describe(run);
  bool setup = false, backward = false;
  for (const auto* f : found) {
    setup = setup || (f->message.find("setup_context '_setup'") != std::string::npos && f->location.line == 9u);
    backward = backward || (f->message.find("returns 1 gradient, but the schema has 3 inputs") != std::string::npos &&
                            f->location.line == 13u);
  }
  EXPECT_TRUE(setup) << describe(run);
  EXPECT_TRUE(backward) << describe(run);
}

TEST(CompileReadiness, UnknownOpNamesTheClosest) {
  const auto& run = run_fixture("compile-fake-unknown-op/fires");
  auto found = of_rule(run, "compile-fake-unknown-op");
  ASSERT_EQ(found.size(), 1u) << describe(run);
  EXPECT_NE(found[0]->message.find("did you mean 'myops::scale'"), std::string::npos) << found[0]->message;
  EXPECT_EQ(found[0]->location.line, 17u);
}

TEST(CompileReadiness, UndeclaredMutationIsAtTheWrite) {
  const auto& run = run_fixture("compile-undeclared-mutation/fires");
  auto found = of_rule(run, "compile-undeclared-mutation");
  ASSERT_EQ(found.size(), 2u) << describe(run);
  std::map<unsigned, std::string> by_line;
  for (const auto* f : found) by_line[f->location.line] = f->message;
  ASSERT_TRUE(by_line.count(9)) << describe(run);   // torch::stable::fill_(x, bound);
  ASSERT_TRUE(by_line.count(13)) << describe(run);  // acc.mutable_data_ptr()
  EXPECT_NE(by_line[9].find("torch::stable::fill_(x, ...)"), std::string::npos) << by_line[9];
  EXPECT_NE(by_line[13].find("acc.mutable_data_ptr()"), std::string::npos) << by_line[13];
}

TEST(CompileReadiness, NeverWrittenIsANoteAndAHelperCallIsNotConcluded) {
  const auto& run = run_fixture("compile-mutation-never-written/fires");
  auto found = of_rule(run, "compile-mutation-never-written");
  ASSERT_EQ(found.size(), 1u) << describe(run);
  EXPECT_NE(found[0]->message.find("'stats'"), std::string::npos);
  // touch(Tensor(a!) x) hands x to a helper in the clean twin: not reported there.
  EXPECT_EQ(count_rule(run_fixture("compile-mutation-never-written/clean"), "compile-mutation-never-written"), 0u);
}

TEST(CompileReadiness, UndeclaredAliasNamesTheView) {
  const auto& run = run_fixture("compile-undeclared-alias/fires");
  auto found = of_rule(run, "compile-undeclared-alias");
  ASSERT_EQ(found.size(), 2u) << describe(run);
  std::map<unsigned, std::string> by_line;
  for (const auto* f : found) by_line[f->location.line] = f->message;
  EXPECT_NE(by_line[8].find("torch::stable::transpose"), std::string::npos) << describe(run);
  EXPECT_NE(by_line[10].find("returns its argument 'x'"), std::string::npos) << describe(run);
}

// ---- the Python reader alone ------------------------------------------------------

std::string write_package(const std::string& name, const std::map<std::string, std::string>& files) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("torchabi-pyops-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const auto& [rel, text] : files) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
  return root.string();
}

TEST(PythonOpModel, ResolvesNamesBuiltFromConstantsAndSkipsTests) {
  const std::string root = write_package(
      "names", {{"pkg/__init__.py", "NS = 'ext'\nOP = NS + '::b'\n"},
                {"pkg/ops.py",
                 "import torch\nfrom . import NS, OP\nLIB = torch.library.Library(NS, 'FRAGMENT')\n"
                 "@torch.library.register_fake(f'{NS}::a')\ndef _(x, *args, k=2, **kw): pass\n"
                 "torch.library.register_fake(OP)(lambda y: y)\n"
                 "LIB.impl('c', lambda z: z, 'Meta')\n"
                 "torch.library.register_fake('%s::d' % NS, lambda: None)\n"
                 "torch.library.register_fake(torch.ops.ext.e.default, lambda: None)\n"
                 "torch.library.register_fake(make_name(), lambda: None)\n"},
                {"tests/test_ops.py", "import torch\ntorch.library.register_fake('ext::from_tests')\n"},
                {".venv/lib/x.py", "import torch\ntorch.library.register_fake('ext::from_venv')\n"}});
  PythonOpModel m = read_python_ops({root});
  ASSERT_TRUE(m.available) << m.reason;
  std::map<std::string, const PyOpRegistration*> by_op;
  for (const auto& r : m.registrations) by_op[r.op] = &r;
  for (const char* op : {"ext::a", "ext::b", "ext::c", "ext::d", "ext::e", ""})
    EXPECT_TRUE(by_op.count(op)) << op;
  EXPECT_FALSE(by_op.count("ext::from_tests"));
  EXPECT_FALSE(by_op.count("ext::from_venv"));
  EXPECT_EQ(by_op["ext::c"]->kind, PyOpRegistration::Kind::Meta);
  const auto& a = *by_op["ext::a"]->function;
  EXPECT_EQ(a.where.line, 5u);
  ASSERT_EQ(a.params.size(), 2u);
  EXPECT_TRUE(a.varargs);
  EXPECT_TRUE(a.varkw);
  EXPECT_TRUE(a.params[1].keyword_only);
  EXPECT_EQ(a.params[1].default_text.value_or(""), "2");
  EXPECT_EQ(by_op[""]->op_text, "make_name()");
  std::filesystem::remove_all(root);
}

// A fake for an op that a source left out of this build defines is not a
// typo: the source is found; a build tree, or an identifier that merely
// contains the op's name, is not.
TEST(UnbuiltDefinitions, TheSourceThatNamesTheOpIsFoundAndBuildTreesAreNot) {
  const std::string root = write_package(
      "unbuilt", {{"csrc/random.cpp", "STABLE_TORCH_LIBRARY_FRAGMENT(ext, m) { m.def(\"rand_like_gen(int[] size) -> Tensor\"); }\n"},
                  {"csrc/ops.cu", "void dropout_mask_kernel();\n"},
                  {"build/gen/ops.cpp", "m.def(\"from_build(Tensor x) -> Tensor\");\n"},
                  {"csrc/impl.cpp", "m.impl(\"by_impl\", TORCH_BOX(&f));\n"}});
  const auto found = source_naming_op({root}, "ext::rand_like_gen");
  ASSERT_TRUE(found.has_value());
  EXPECT_NE(found->find("csrc/random.cpp"), std::string::npos) << *found;
  EXPECT_TRUE(source_naming_op({root}, "ext::by_impl.default").has_value());
  EXPECT_FALSE(source_naming_op({root}, "ext::dropout_mask").has_value()) << "an identifier is not the op's name";
  EXPECT_FALSE(source_naming_op({root}, "ext::from_build").has_value()) << "build trees are skipped";
  std::filesystem::remove_all(root);
}

TEST(PythonOpModel, AnInterpreterThatCannotRunLeavesItUnavailable) {
  PythonOpModel m = read_python_ops({fixture_dir("compile-missing-fake/fires")}, "/nonexistent/python3");
  EXPECT_FALSE(m.available);
  EXPECT_NE(m.reason.find("/nonexistent/python3"), std::string::npos) << m.reason;
}

TEST(PythonOpModel, MalformedScannerOutputIsNotJson) {
  PythonOpModel m = python_ops_from_json("{not json");
  EXPECT_FALSE(m.available);
}

}  // namespace
}  // namespace torchabi::schema
