#include "analyzers/runtime/driver/case_runner.h"

#include "analyzers/runtime/driver/compare.h"
#include "analyzers/runtime/driver/event_findings.h"
#include "analyzers/runtime/driver/schema_effects.h"
#include "analyzers/runtime/driver/schema_types.h"
#include "analyzers/runtime/driver/kernel_exceptions.h"
#include "analyzers/runtime/driver/values.h"
#include "common/input_error.h"

namespace torchabi::runtime_driver {
namespace {

namespace rt = torchabi::runtime;

ProtoFinding finding(const char* rule, const std::string& op, std::string message, std::string help) {
  ProtoFinding f;
  f.rule = rule;
  f.op = op;
  f.message = std::move(message);
  f.help = std::move(help);
  return f;
}

struct Attempt {
  rt::CallOutcome outcome;
  EventFindings events;
  Effects effects;  // of a call that returned normally
};

Attempt attempt(rt::Control& runtime, const OpInfo& op, const std::vector<rt::Value>& args,
                const std::string& context) {
  Attempt a;
  runtime.drain_events();
  InputSnapshot before(op.sig, args);
  a.outcome = runtime.invoke(op.cpu_kernel->fn, op.sig, args);
  a.events = findings_from_events(runtime.drain_events(), op.sig.qualified(), context);
  // A CompositeImplicitAutograd kernel is traced through by autograd and
  // torch.compile (real opcheck sees only the ATen ops it calls), so its
  // schema's effects do not matter; every other kernel is opaque to them.
  const bool opaque = op.cpu_kernel->dispatch_key != "CompositeImplicitAutograd";
  if (opaque && a.outcome.returned && !a.outcome.exception)
    a.effects = schema_effects(op.sig, args, a.outcome, before, context);
  return a;
}

// A call passes when nothing worse than a note was found (a return declared
// `Tensor(a)` that is new memory this time is legal, and only noted).
bool only_notes(const std::vector<ProtoFinding>& fs) {
  for (const auto& f : fs)
    if (f.severity != findings::Severity::Note) return false;
  return true;
}

// What the run-wide tally needs of a call that returned normally.
void note_effects(const Attempt& a, CaseOutcome& out) {
  if (!a.outcome.returned || a.outcome.exception) return;
  out.completed = true;
  out.mutable_args = a.effects.mutable_args;
  out.written_mutable = a.effects.written_mutable;
}

std::string strip_newlines(std::string s) {
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s;
}

// Findings for a completed call whose outcome is not compared with a case.
void add_outcome_findings(const Attempt& a, const std::string& op, const std::string& context, bool smoke,
                          const ExceptionContext& ex, std::vector<ProtoFinding>& out) {
  out.insert(out.end(), a.events.findings.begin(), a.events.findings.end());
  out.insert(out.end(), a.effects.findings.begin(), a.effects.findings.end());
  if (a.outcome.exception) {
    const Thrown t = describe_thrown(a.outcome, ex);
    if (!a.outcome.thrown_is_std) {
      ProtoFinding f = non_std_exception_finding(t, op, context, ex);
      for (const auto& e : a.events.shim_errors) f.notes.push_back("before it threw: " + e);
      out.push_back(std::move(f));
      return;
    }
    ProtoFinding f = finding("runtime-kernel-exception", op,
                             context + "the kernel of " + op + " threw " + t.cxx,
                             smoke ? "smoke inputs are guesses from the schema; give this op a case file with inputs it "
                                     "accepts (and `expect: {error: ...}` where an error is intended)"
                                   : "fix the kernel, or expect the error in the case file with `expect: {error: ...}`");
    f.notes.push_back(python_caller_gets(t, ex));
    for (const auto& e : a.events.shim_errors) f.notes.push_back("before it threw: " + e);
    if (smoke) f.severity = findings::Severity::Note;
    out.push_back(std::move(f));
  } else if (!a.events.shim_errors.empty()) {
    ProtoFinding f = finding("runtime-ignored-error", op,
                             context + "the kernel of " + op + " returned normally although a stable C function it "
                                 "called failed: " + a.events.shim_errors.front(),
                             "check every AOTITorchError result (TORCH_ERROR_CODE_CHECK) and stop when it is not "
                             "AOTI_TORCH_SUCCESS");
    for (size_t i = 1; i < a.events.shim_errors.size(); ++i) f.notes.push_back(a.events.shim_errors[i]);
    out.push_back(std::move(f));
  }
}

std::optional<PythonError> python_error_of(const Attempt& a, const ExceptionContext& ex) {
  if (!a.outcome.exception) return std::nullopt;
  return describe_thrown(a.outcome, ex).python;
}

bool unconvertible(const OpInfo& op, std::vector<ProtoFinding>& out, const std::string& context) {
  auto check = [&](const rt::ArgDesc& a, const std::string& what) {
    if (const rt::TypeDesc* u = a.type.unconvertible()) {
      const SchemaTypeFacts* facts = SchemaTypeTable::current().find(u->spelling);
      if (facts && facts->stable != "-") {
        // libtorch converts it; only the reference runtime cannot make one.
        ProtoFinding f = finding("runtime-unconvertible-type", op.sig.qualified(),
                                 context + op.sig.qualified() + ": " + what + " has type " + a.type.spelling +
                                     "; libtorch converts " + u->spelling + " (" + facts->stable +
                                     "), but torchabi's reference runtime does not create one, so the op is not run",
                                 "run this op in real PyTorch; the reference runtime checks the others");
        f.severity = findings::Severity::Note;
        out.push_back(std::move(f));
        return true;
      }
      ProtoFinding f = finding("runtime-unconvertible-type", op.sig.qualified(),
                               context + op.sig.qualified() + ": " + what + " has type " + a.type.spelling + ", and " +
                                   u->spelling + " has no StableIValue conversion; libtorch fails every call of this op",
                               "use a schema type with a StableIValue conversion (float or Tensor instead of Scalar, "
                               "int instead of SymFloat, ...)");
      if (facts) f.notes.push_back("PyTorch's schema parser reads " + u->spelling + " as " + facts->torch_type +
                                   ", which libtorch's StableIValue conversion does not handle");
      out.push_back(std::move(f));
      return true;
    }
    return false;
  };
  bool bad = false;
  for (const auto& a : op.sig.args) bad |= check(a, "argument '" + a.name + "'");
  for (size_t j = 0; j < op.sig.returns.size(); ++j) bad |= check(op.sig.returns[j], "return " + std::to_string(j));
  return bad;
}

}  // namespace

std::vector<PlannedCase> plan_cases(const RegistrationReport& regs, const CaseFile* cases) {
  std::vector<PlannedCase> out;
  if (!cases) {
    for (const auto& op : regs.ops) out.push_back({"smoke " + op.sig.qualified(), &op, nullptr});
    return out;
  }
  for (const auto& c : cases->cases) {
    const OpInfo* found = nullptr;
    for (const auto& op : regs.ops)
      if (op.sig.qualified() == c.op) found = &op;
    if (!found) {
      std::string known;
      for (const auto& op : regs.ops) known += (known.empty() ? "" : ", ") + op.sig.qualified();
      throw InputError(where(*cases, c), "op '" + c.op + "' is not registered by the extension (it registers: " +
                                             (known.empty() ? "nothing" : known) + ")");
    }
    out.push_back({c.name, found, &c});
  }
  return out;
}

CaseOutcome run_case(rt::Control& runtime, const PlannedCase& c, const CaseFile* cases, const ExceptionContext& ex) {
  CaseOutcome out;
  const OpInfo& op = *c.op;
  const std::string qn = op.sig.qualified();
  const std::string context = c.spec ? "case '" + c.name + "': " : "smoke call: ";
  if (unconvertible(op, out.findings, context)) {
    const bool runtime_only = out.findings.back().severity == findings::Severity::Note;
    out.status = runtime_only ? "not run: the reference runtime does not create values of a schema type"
                              : "not run: a schema type has no StableIValue conversion";
    return out;
  }
  if (!op.cpu_kernel) {
    std::string keys;
    for (const auto& k : op.dispatch_keys) keys += (keys.empty() ? "" : ", ") + k;
    if (c.spec) {
      out.findings.push_back(finding("runtime-kernel-exception", qn,
                                     context + qn + " has no kernel a CPU call reaches (kernels: " +
                                         (keys.empty() ? "none" : keys) + ")",
                                     "register a CPU or CompositeExplicitAutograd kernel for the op, or run the case "
                                     "where its device is available"));
      out.status = "failed";
    } else {
      out.status = "not run: no CPU kernel (" + (keys.empty() ? std::string("none") : keys) + ")";
    }
    return out;
  }

  if (!c.spec) {
    // Smoke: try dtypes until the kernel accepts one; report that attempt.
    Attempt first;
    bool have_first = false;
    for (int32_t dtype : smoke_dtypes()) {
      Attempt a = attempt(runtime, op, smoke_arguments(op.sig, dtype), context);
      if (!a.outcome.exception) {
        add_outcome_findings(a, qn, context, true, ex, out.findings);
        note_effects(a, out);
        out.status = std::string(only_notes(out.findings) ? "passed" : "failed") + " (smoke, " +
                     rt::dtype_info(dtype).name + " inputs)";
        return out;
      }
      if (!have_first) first = std::move(a), have_first = true;
    }
    add_outcome_findings(first, qn, context, true, ex, out.findings);
    out.python_error = python_error_of(first, ex);
    out.status = "inputs rejected (smoke)";
    return out;
  }

  const std::string at = where(*cases, *c.spec);
  std::vector<rt::Value> args = case_arguments(c.spec->inputs, op.sig, at);
  if (c.spec->expects_outputs)
    if (c.spec->expect_outputs.size() != op.sig.returns.size())
      throw InputError(at, "expects " + std::to_string(c.spec->expect_outputs.size()) + " outputs, but " + qn +
                               " returns " + std::to_string(op.sig.returns.size()));
  Attempt a = attempt(runtime, op, args, context);
  if (c.spec->expect_error) {
    out.findings.insert(out.findings.end(), a.events.findings.begin(), a.events.findings.end());
    const std::string& want = *c.spec->expect_error;
    if (!a.outcome.exception) {
      out.findings.push_back(finding("runtime-output-mismatch", qn,
                                     context + qn + " returned normally, but the case expects an error" +
                                         (want.empty() ? "" : " containing \"" + want + "\""),
                                     "make the kernel reject these inputs (STD_TORCH_CHECK), or fix the expectation"));
    } else {
      // The case states what a Python caller sees: a non-std exception's message is lost.
      const Thrown t = describe_thrown(a.outcome, ex);
      out.python_error = t.python;
      if (!a.outcome.thrown_is_std) out.findings.push_back(non_std_exception_finding(t, qn, context, ex));
      if (t.python.message.find(want) == std::string::npos)
        out.findings.push_back(finding("runtime-output-mismatch", qn,
                                       context + qn + " threw \"" + strip_newlines(t.python.message) +
                                           "\", but the case expects an error containing \"" + want + "\"",
                                       "make the kernel's message say what the case expects, or fix the "
                                       "expectation"));
    }
  } else {
    add_outcome_findings(a, qn, context, false, ex, out.findings);
    out.python_error = python_error_of(a, ex);
    note_effects(a, out);
    if (a.outcome.outputs_valid && c.spec->expects_outputs) {
      for (const auto& m : compare_outputs(a.outcome.outputs, c.spec->expect_outputs, op.sig, at)) {
        ProtoFinding f = finding("runtime-output-mismatch", qn, context + qn + ": " + m.message,
                                 "fix the kernel so its outputs match the case (or correct the case's expectation)");
        f.notes = m.notes;
        out.findings.push_back(std::move(f));
      }
    }
  }
  out.status = only_notes(out.findings) ? "passed" : "failed";
  return out;
}

}  // namespace torchabi::runtime_driver
