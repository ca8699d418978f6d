#include "analyzers/runtime/opcheck/opcheck.h"

#include <filesystem>
#include <fstream>

#include "analyzers/runtime/opcheck/opcheck_run_py.h"  // generated from opcheck_run.py
#include "common/json_io.h"
#include "common/text.h"
#include "inputs/project/environment/build_environment.h"
#include "inputs/project/project_copy.h"
#include "inputs/project/timed_child.h"

namespace torchabi::runtime_opcheck {

namespace fs = std::filesystem;
using nlohmann::json;

OpcheckRun opcheck_from_json(const std::string& json_line) {
  OpcheckRun run;
  const json j = json_io::parse_or_discarded(json_line);
  if (j.is_discarded() || !j.is_object()) {
    run.why_not = "the opcheck script printed no result";
    return run;
  }
  if (j.contains("error")) {
    run.why_not = j.value("error", "");
    return run;
  }
  run.ran = true;
  run.torch_version = j.value("torch", "");
  for (const auto& o : j.value("ops", json::array())) {
    OpcheckOp op;
    op.op = o.value("op", "");
    op.schema = o.value("schema", "");
    op.accepted = o.value("accepted", false);
    op.inputs = o.value("inputs", "");
    op.crash = o.value("crash", "");
    for (const auto& a : o.value("attempts", json::array()))
      if (a.is_string()) op.attempts.push_back(a.get<std::string>());
    const json results = o.value("results", json::object());  // items() of a temporary would dangle
    for (const auto& [util, result] : results.items())
      if (result.is_string()) op.results[util] = result.get<std::string>();
    run.ops.push_back(std::move(op));
  }
  return run;
}

OpcheckRun run_opcheck(const std::string& extension, const std::string& python, int timeout_seconds) {
  OpcheckRun run;
  inputs::ScratchDir scratch("opcheck");
  if (!scratch.ok()) {
    run.why_not = "no temporary directory for the run";
    return run;
  }
  const fs::path tmp = fs::canonical(scratch.path());
  std::ofstream(tmp / "opcheck_run.py", std::ios::binary) << generated::kOpcheckRunPy;
  const fs::path ext = fs::absolute(extension).lexically_normal();
  // The extension's directory stays readable (its sibling libraries load from there); nothing else of the user's.
  inputs::BuildEnvironment env =
      inputs::make_build_environment({tmp.string(), "", python, {ext.parent_path().string()}, false});
  try {
    inputs::hand_over_writable(env.confinement);
  } catch (const fs::filesystem_error& e) {
    run.why_not = std::string("the scratch directory cannot be handed to the confined user: ") + e.what();
    return run;
  }
  const inputs::ChildResult r = inputs::run_timed({env.python, (tmp / "opcheck_run.py").string(), ext.string()},
                                                  tmp.string(), timeout_seconds, &env.confinement);
  if (r.sandbox_unavailable) {
    run.why_not = "the interpreter cannot be confined here, so opcheck did not run (" + text::last_line(r.output) + ")";
    return run;
  }
  if (!r.started) {
    run.why_not = python + " cannot be started";
    return run;
  }
  if (r.timed_out) {
    run.why_not = "opcheck did not finish within " + std::to_string(timeout_seconds) + " s";
    return run;
  }
  // The JSON result is the last line; torch may warn on the lines before.
  std::string last;
  for (const auto& line : text::split(r.output, '\n'))
    if (!text::trim(line).empty() && text::trim(line).front() == '{') last = line;
  run = opcheck_from_json(last);
  if (!run.ran && run.why_not == "the opcheck script printed no result")
    run.why_not = python + " exited with status " + std::to_string(r.exit_code) + ": " + text::last_line(r.output);
  return run;
}

namespace {

std::string rule_of(const std::string& util) {
  std::string rule = "opcheck-" + util;
  for (char& c : rule)
    if (c == '_') c = '-';
  return rule;
}

}  // namespace

void add_opcheck_findings(const OpcheckRun& run, const std::string& extension, const std::string& python,
                          findings::Report& report) {
  findings::Subject* subject = nullptr;
  for (auto& s : report.subjects)
    if (s.path == extension) subject = &s;
  if (!run.ran) {
    findings::Finding f;
    f.rule = "opcheck-not-run";
    f.location.file = extension;
    f.message = "torch.library.opcheck did not run with " + python + ": " + run.why_not;
    f.help = "pass --torch with the python of an environment where torch 2.4 or later imports (and the "
             "extension loads)";
    report.add(std::move(f));
    return;
  }
  if (subject) {
    subject->facts.emplace_back("opcheck torch", run.torch_version);
    subject->facts.emplace_back("opcheck ops", std::to_string(run.ops.size()));
  }
  for (const OpcheckOp& op : run.ops) {
    if (subject)
      subject->facts.emplace_back("opcheck " + op.op, op.accepted ? "inputs " + op.inputs : "no inputs accepted");
    if (!op.crash.empty() || !op.accepted) {
      findings::Finding f;
      f.rule = "opcheck-not-run";
      f.severity = findings::Severity::Note;
      f.location.file = extension;
      f.location.symbol = op.op;
      f.message = op.crash.empty() ? "opcheck did not run on " + op.op + ": its kernel accepted none of the inputs tried"
                                   : "opcheck did not finish on " + op.op + ": " + op.crash;
      f.help = "give the op a case file (torchabi run --cases) with inputs its kernel accepts, or make its check "
               "messages name the dtype, rank or size it needs";
      for (const auto& a : op.attempts) f.notes.push_back("tried " + a);
      report.add(std::move(f));
      continue;
    }
    for (const auto& [util, result] : op.results) {
      if (result == "SUCCESS") continue;
      findings::Finding f;
      f.rule = rule_of(util);
      f.location.file = extension;
      f.location.symbol = op.op;
      f.message = "torch.library.opcheck's " + util + " fails on " + op.op + ": " + result;
      f.help = util == "test_schema" ? "make the schema say what the kernel does: (a!) on what it writes, Tensor(a) "
                                       "on outputs that alias inputs, or return new tensors"
               : util == "test_autograd_registration"
                   ? "register the op's autograd with torch.library.register_autograd, or its kernel for Autograd / "
                     "CompositeImplicitAutograd, instead of per-backend kernels alone"
               : util == "test_faketensor"
                   ? "register a fake kernel (torch.library.register_fake) whose outputs have the real kernel's shapes, "
                     "dtypes and devices"
                   : "make the fake kernel work with symbolic sizes (no int() of a size, no data-dependent shapes "
                     "without torch.library.get_ctx().new_dynamic_size())";
      f.notes.push_back("inputs " + op.inputs);
      if (!op.schema.empty()) f.notes.push_back("schema: " + op.schema);
      f.notes.push_back("torch " + run.torch_version + " at " + python);
      report.add(std::move(f));
    }
  }
}

}  // namespace torchabi::runtime_opcheck
