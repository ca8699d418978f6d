// The incremental plan (steps.h): which files move together, in which order,
// what each step says it needs to build, and the ids CI tracks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyzers/migration/registration_scan.h"
#include "analyzers/migration/steps.h"

using namespace torchabi::migration;

namespace {

ApiUse use(const std::string& file, uint32_t line, uint32_t column = 1, Disposition d = Disposition::Fixable,
           const std::string& api = "at::Tensor") {
  ApiUse u;
  u.api = api;
  u.disposition = d;
  u.location.file = file;
  u.location.line = line;
  u.location.column = column;
  return u;
}

FunctionFact fn(const std::string& usr, const std::string& file, uint32_t line, bool definition) {
  // The signature spans the whole line.
  return {usr, usr, file, definition, line, 1, line, 200};
}

CodeBlock block(CodeBlock::Kind kind, const std::string& ns, uint32_t begin, uint32_t end, std::string key = "",
                bool stable = false) {
  CodeBlock b;
  b.kind = kind;
  b.ns = ns;
  b.dispatch_key = std::move(key);
  b.stable = stable;
  b.begin_line = begin;
  b.end_line = end;
  b.macro = std::string(stable ? "STABLE_" : "") +
            (kind == CodeBlock::Kind::LibraryImpl       ? "TORCH_LIBRARY_IMPL"
             : kind == CodeBlock::Kind::LibraryDef      ? "TORCH_LIBRARY"
             : kind == CodeBlock::Kind::LibraryFragment ? "TORCH_LIBRARY_FRAGMENT"
                                                        : "PYBIND11_MODULE");
  return b;
}

// A project shaped like the ones ported over many pull requests:
//   util.h declares norm(at::Tensor), util.cpp defines it, scale.cpp calls it;
//   shift.cpp defines a kernel that register.cpp registers (TORCH_LIBRARY_IMPL);
//   scale.cpp defines a kernel that register.cpp registers too;
//   defs.cpp holds TORCH_LIBRARY(ext) (the schemas);
//   module.cpp binds scale with pybind11 and uses a blocked API.
StepInputs project() {
  StepInputs in;
  in.uses = {
      use("/p/util.h", 3),        use("/p/util.cpp", 4),      use("/p/util.cpp", 9),
      use("/p/scale.cpp", 5),     use("/p/scale.cpp", 6),     use("/p/scale.cpp", 12, 1, Disposition::Manual),
      use("/p/shift.cpp", 4),     use("/p/register.cpp", 1),  use("/p/register.cpp", 10),
      use("/p/defs.cpp", 2),      use("/p/module.cpp", 1),
      use("/p/module.cpp", 6, 3, Disposition::Blocked, "pybind11::module_"),
  };
  in.uses[11].blocker = "pybind-tensors";
  ApiUse same = use("/p/shift.cpp", 7);  // needs no edit: not work
  same.unchanged = true;
  in.uses.push_back(same);
  in.includes = {{"/p/util.cpp", {"/p/util.h"}}, {"/p/scale.cpp", {"/p/util.h"}}, {"/p/util.h", {}}};
  in.coupling.functions = {fn("norm", "/p/util.h", 3, false), fn("norm", "/p/util.cpp", 4, true),
                           fn("scale_cpu", "/p/scale.cpp", 5, true), fn("shift_cpu", "/p/shift.cpp", 4, true),
                           fn("scale_cpu", "/p/register.cpp", 1, false)};
  in.coupling.references = {{"/p/scale.cpp", 6, "norm"},
                            {"/p/register.cpp", 11, "scale_cpu"},
                            {"/p/register.cpp", 12, "shift_cpu"},
                            {"/p/module.cpp", 5, "scale_cpu"}};
  in.blocks["/p/register.cpp"] = {block(CodeBlock::Kind::LibraryImpl, "ext", 10, 13, "CPU")};
  in.blocks["/p/defs.cpp"] = {block(CodeBlock::Kind::LibraryDef, "ext", 2, 6)};
  in.blocks["/p/module.cpp"] = {block(CodeBlock::Kind::PybindModule, "TORCH_EXTENSION_NAME", 3, 8)};
  for (const auto& f : {"util.h", "util.cpp", "scale.cpp", "shift.cpp", "register.cpp", "defs.cpp", "module.cpp"})
    in.display[std::string("/p/") + f] = f;
  return in;
}

size_t step_of(const StepPlan& plan, const std::string& file) {
  for (size_t i = 0; i < plan.steps.size(); ++i)
    if (std::count(plan.steps[i].files.begin(), plan.steps[i].files.end(), file)) return i;
  ADD_FAILURE() << file << " is in no step";
  return 0;
}

// What makes every step build, checked on any plan: a header with work is in
// the step of each includer with work; a helper's callers are in its step; a
// registration or binding in another file lands after the kernel's step (the
// kernel's step moves the registration line); every file with work is in
// exactly one step; `after` only names earlier steps.
void expect_buildable_order(const StepInputs& in, const StepPlan& plan) {
  std::map<std::string, Counts> work;
  for (const auto& u : in.uses)
    if (!u.unchanged) work[u.location.file].add(u.disposition);
  std::map<std::string, size_t> where;
  for (size_t i = 0; i < plan.steps.size(); ++i)
    for (const auto& f : plan.steps[i].files) EXPECT_TRUE(where.emplace("/p/" + f, i).second) << f << " twice";
  for (const auto& [f, c] : work)
    if (c.total()) {
      EXPECT_TRUE(where.count(f)) << f;
    }
  for (const auto& [includer, headers] : in.includes)
    for (const auto& h : headers)
      if (where.count(includer) && where.count(h)) {
        EXPECT_EQ(where[includer], where[h]) << includer << " includes " << h;
      }
  std::map<std::string, std::set<std::string>> defined;
  for (const auto& f : in.coupling.functions)
    if (f.definition) defined[f.usr].insert(f.file);
  for (const auto& r : in.coupling.references) {
    bool in_block = false;
    for (const auto& b : in.blocks.count(r.file) ? in.blocks.at(r.file) : std::vector<CodeBlock>{})
      in_block |= b.contains(r.line);
    for (const auto& d : defined[r.usr]) {
      if (!where.count(d) || !where.count(r.file)) continue;
      if (in_block) EXPECT_GE(where[r.file], where[d]) << r.file << " registers " << r.usr << " before its step";
      else EXPECT_EQ(where[r.file], where[d]) << r.file << " calls " << r.usr;
    }
  }
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < plan.steps.size(); ++i) position[plan.steps[i].id] = i;
  for (size_t i = 0; i < plan.steps.size(); ++i)
    for (const auto& a : plan.steps[i].after) EXPECT_LT(position.at(a), i) << plan.steps[i].id << " after " << a;
}

}  // namespace

TEST(RegistrationScan, FindsBlocksTheirSpansAndSkipsCommentsStringsAndDefines) {
  const auto blocks = scan_code_blocks(R"(#include <torch/library.h>
#define MY_LIB(ns, m) TORCH_LIBRARY(ns, m)
// TORCH_LIBRARY(commented, m) {}
const char* s = "TORCH_LIBRARY_IMPL(in_string, CPU, m) {";
TORCH_LIBRARY(ext, m) {
  m.def("f(Tensor x) -> Tensor");
}
TORCH_LIBRARY_IMPL(ext, CUDA, m) {
  m.impl("f", &f_cuda);
  { /* nested */ }
}
STABLE_TORCH_LIBRARY_IMPL(ext, CPU, m) { m.impl("f", TORCH_BOX(&f_cpu)); }
STABLE_TORCH_LIBRARY_FRAGMENT(ext, m) {
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("f", &f);
}
)");
  ASSERT_EQ(blocks.size(), 5u);
  EXPECT_EQ(blocks[0].label(), "TORCH_LIBRARY(ext)");
  EXPECT_EQ(blocks[0].begin_line, 5u);
  EXPECT_EQ(blocks[0].end_line, 7u);
  EXPECT_EQ(blocks[1].label(), "TORCH_LIBRARY_IMPL(ext, CUDA)");
  EXPECT_EQ(blocks[1].kind, CodeBlock::Kind::LibraryImpl);
  EXPECT_EQ(blocks[1].end_line, 11u);
  EXPECT_TRUE(blocks[2].stable);
  EXPECT_EQ(blocks[2].dispatch_key, "CPU");
  EXPECT_EQ(blocks[2].begin_line, 12u);
  EXPECT_EQ(blocks[2].end_line, 12u);
  EXPECT_EQ(blocks[3].kind, CodeBlock::Kind::LibraryFragment);
  EXPECT_TRUE(blocks[3].stable);
  EXPECT_EQ(blocks[4].kind, CodeBlock::Kind::PybindModule);
  EXPECT_TRUE(blocks[4].contains(16));
}

TEST(Steps, HelpersMoveWithTheirCallersKernelsBeforeTheirRegistrationsDefsAndPybindLast) {
  const StepInputs in = project();
  const StepPlan plan = plan_steps(in);
  expect_buildable_order(in, plan);
  ASSERT_EQ(plan.steps.size(), 5u);

  // util.h, util.cpp and scale.cpp: an include and a helper call; leaves first.
  const auto& helpers = plan.steps[step_of(plan, "scale.cpp")];
  EXPECT_EQ(helpers.files, (std::vector<std::string>{"util.h", "util.cpp", "scale.cpp"}));
  EXPECT_EQ(helpers.counts.total(), 6u);
  EXPECT_EQ(helpers.kind, "code");
  ASSERT_EQ(helpers.why.size(), 2u);
  EXPECT_EQ(helpers.why[0], "util.h is included by util.cpp, scale.cpp");
  EXPECT_NE(helpers.why[1].find("util.cpp defines helpers"), std::string::npos) << helpers.why[1];

  // The kernels' steps move their registrations (and register.cpp's
  // prototype of scale_cpu) into a stable block next to the legacy one.
  const size_t shift = step_of(plan, "shift.cpp"), reg = step_of(plan, "register.cpp");
  EXPECT_LT(shift, reg);
  EXPECT_LT(step_of(plan, "scale.cpp"), reg);
  ASSERT_EQ(plan.steps[shift].edits.size(), 1u);
  EXPECT_EQ(plan.steps[shift].edits[0].file, "register.cpp");
  EXPECT_EQ(plan.steps[shift].edits[0].line, 12u);
  EXPECT_NE(plan.steps[shift].edits[0].what.find("STABLE_TORCH_LIBRARY_IMPL(ext, CPU, m)"), std::string::npos);
  ASSERT_FALSE(plan.steps[shift].builds.empty());
  EXPECT_NE(plan.steps[shift].builds[0].find("one kernel per dispatch key"), std::string::npos);
  bool prototype = false;
  for (const auto& e : helpers.edits) prototype |= e.file == "register.cpp" && e.line == 1;
  EXPECT_TRUE(prototype) << "register.cpp declares scale_cpu: its prototype changes with the kernel";
  EXPECT_EQ(plan.steps[reg].after.size(), 2u);

  // The library's defs after its impls; the pybind module last, kept legacy.
  const size_t defs = step_of(plan, "defs.cpp"), module = step_of(plan, "module.cpp");
  EXPECT_EQ(plan.steps[defs].kind, "library-defs");
  EXPECT_GT(defs, reg);
  EXPECT_EQ(module, plan.steps.size() - 1);
  EXPECT_EQ(plan.steps[module].kind, "pybind-module");
  EXPECT_TRUE(plan.steps[module].keep_legacy_module);
  ASSERT_EQ(plan.steps[module].blockers.size(), 1u);
  EXPECT_EQ(plan.steps[module].blockers[0], "pybind-tensors: pybind11::module_ at module.cpp:6");
  bool binding = false;
  for (const auto& e : helpers.edits) binding |= e.file == "module.cpp" && e.line == 5;
  EXPECT_TRUE(binding) << "the step of scale_cpu says what to do with its pybind binding";

  ASSERT_EQ(plan.libraries.size(), 1u);
  EXPECT_EQ(plan.libraries[0].ns, "ext");
  EXPECT_NE(plan.libraries[0].plan.find("the defs stay in the legacy TORCH_LIBRARY while the impls move"),
            std::string::npos)
      << plan.libraries[0].plan;
}

TEST(Steps, AKernelRegisteredInItsOwnFileMovesWithTheWholeNamespace) {
  StepInputs in;
  in.uses = {use("/p/op.cpp", 3), use("/p/op.cpp", 8)};
  in.coupling.functions = {fn("op_cpu", "/p/op.cpp", 3, true)};
  in.coupling.references = {{"/p/op.cpp", 9, "op_cpu"}};
  in.blocks["/p/op.cpp"] = {block(CodeBlock::Kind::LibraryDef, "ext", 5, 7),
                            block(CodeBlock::Kind::LibraryImpl, "ext", 8, 10, "CPU")};
  const StepPlan plan = plan_steps(in);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_TRUE(plan.steps[0].edits.empty());
  EXPECT_EQ(plan.steps[0].kind, "code");
  ASSERT_EQ(plan.libraries.size(), 1u);
  EXPECT_EQ(plan.libraries[0].plan.rfind("the whole namespace moves in step 1", 0), 0u) << plan.libraries[0].plan;
}

TEST(Steps, IdsComeFromTheSortedFilesNotFromTheOrder) {
  EXPECT_EQ(step_id({"b.cpp", "a.h"}), step_id({"a.h", "b.cpp"}));
  EXPECT_NE(step_id({"a.h", "b.cpp"}), step_id({"a.h"}));
  EXPECT_EQ(step_id({"a.h"}).size(), 10u);
  EXPECT_EQ(step_id({"a.h"}).rfind("s-", 0), 0u);
  // The same project planned twice, its inputs in another order: the same ids.
  StepInputs in = project();
  const StepPlan first = plan_steps(in);
  std::reverse(in.uses.begin(), in.uses.end());
  std::reverse(in.coupling.references.begin(), in.coupling.references.end());
  const StepPlan second = plan_steps(in);
  ASSERT_EQ(first.steps.size(), second.steps.size());
  for (size_t i = 0; i < first.steps.size(); ++i) EXPECT_EQ(first.steps[i].id, second.steps[i].id);
}

TEST(Steps, MutuallyRegisteringFilesDoNotLoop) {
  // a.cpp registers b's kernel and b.cpp registers a's: a cycle of "after".
  StepInputs in;
  in.uses = {use("/p/a.cpp", 1), use("/p/b.cpp", 1)};
  in.coupling.functions = {fn("ka", "/p/a.cpp", 1, true), fn("kb", "/p/b.cpp", 1, true)};
  in.coupling.references = {{"/p/a.cpp", 5, "kb"}, {"/p/b.cpp", 5, "ka"}};
  in.blocks["/p/a.cpp"] = {block(CodeBlock::Kind::LibraryImpl, "x", 4, 6, "CPU")};
  in.blocks["/p/b.cpp"] = {block(CodeBlock::Kind::LibraryImpl, "x", 4, 6, "CUDA")};
  const StepPlan plan = plan_steps(in);
  EXPECT_EQ(plan.steps.size(), 2u);
}
