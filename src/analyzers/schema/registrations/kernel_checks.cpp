// Kernels against the schema they implement:
//   boxed-unsupported-type      a stable op's schema uses a type with no
//                               StableIValue conversion at all; a kernel's C++
//                               type whose conversion is newer than the target
//                               release (or the headers in use)
//   boxed-stack-index-out-of-range / boxed-stack-type-mismatch /
//   boxed-arg-not-read-once / boxed-return-not-written-once
//                               hand-written void(StableIValue*, uint64_t, uint64_t) kernels
//   boxed-signature-mismatch    TORCH_BOX(&fn): fn's C++ signature
//   schema-signature-mismatch   legacy m.impl(name, &fn) / m.def(schema, &fn)
//   backend-signature-mismatch  the same for aten kernels of a device backend
#include <algorithm>
#include <map>

#include "analyzers/schema/printer.h"
#include "analyzers/schema/registrations/check_context.h"
#include "analyzers/schema/registrations/stable_fit.h"

namespace torchabi::schema {

namespace {

enum class Api { Stable, Legacy };

std::string ordinal_arg(const FunctionSchema& s, size_t i) {
  return "argument " + std::to_string(i) + " ('" + s.arguments[i].name + "', " + to_string(s.arguments[i].type) + ")";
}

std::string ordinal_ret(const FunctionSchema& s, size_t j) {
  std::string name = s.returns[j].name.empty() ? "" : "'" + s.returns[j].name + "', ";
  return "return " + std::to_string(j) + " (" + name + to_string(s.returns[j].type) + ")";
}

// ---- schema types without a stable representation ---------------------------

// Only types no headers convert are reported here: one PyTorch converts from a
// later release on may still be passed through as a raw StableIValue (as
// PyTorch's own 2.9 tests do with Device), so a release gap is reported where a
// kernel converts it (boxed-unsupported-type at the kernel, below).
void unsupported_types(RegistrationContext& ctx, const DefEntry& d) {
  const StableConversions conv(ctx.env.types, d.tu);
  auto check = [&](const Type& t, size_t i, bool ret) {
    TypeForms forms = conv.representation(t, ret ? Flow::From : Flow::Param);
    if (forms.unsupported.empty()) return;
    findings::Finding f;
    f.rule = "boxed-unsupported-type";
    f.location = schema_part_location(d, i, ret);
    f.message = (ret ? ordinal_ret(d.schema, i) : ordinal_arg(d.schema, i)) + " of '" + d.qualified +
                "' has no stable-ABI representation";
    size_t colon = forms.unsupported.find(": ");
    f.help = colon == std::string::npos ? "use a type with a stable representation (Tensor, int, float, bool, ...)"
                                        : forms.unsupported.substr(colon + 2);
    f.notes.push_back("a stable kernel cannot receive or return it: StableIValue has no conversion for it");
    ctx.report(std::move(f));
  };
  for (size_t i = 0; i < d.schema.arguments.size(); ++i) check(d.schema.arguments[i].type, i, false);
  for (size_t j = 0; j < d.schema.returns.size(); ++j) check(d.schema.returns[j].type, j, true);
}

// ---- C++ signatures -----------------------------------------------------------

struct SignatureIssue {
  std::string text;
  bool constness_only = false;
  bool release = false;  // a form, but its conversion is newer than the target (boxed-unsupported-type)
  // Constness that cannot go wrong: const& for a written Tensor (the data is
  // written through the handle, the handle itself is not), or a non-const&
  // the kernel never writes.
  bool note = false;
};

std::vector<SignatureIssue> compare_signature(const RegistrationEnv& env, Api api, const FunctionSchema& s,
                                              CppSignature sig, const TuRegistrations* tu) {
  std::vector<SignatureIssue> issues;
  const StableConversions conv(env.types, tu);
  // A legacy kernel may take the DispatchKeySet it was called with first.
  if (api == Api::Legacy && !sig.params.empty() && sig.params[0].normalized == "c10::DispatchKeySet") {
    sig.params.erase(sig.params.begin());
    sig.param_names.erase(sig.param_names.begin());
    if (sig.param_writes && !sig.param_writes->empty()) sig.param_writes->erase(sig.param_writes->begin());
  }
  const size_t n = s.arguments.size(), p = sig.params.size();
  if (p != n)
    issues.push_back({"takes " + std::to_string(p) + " parameter" + (p == 1 ? "" : "s") + ", but the schema has " +
                      std::to_string(n) + " argument" + (n == 1 ? "" : "s")});
  for (size_t i = 0; i < std::min(n, p); ++i) {
    const Argument& a = s.arguments[i];
    const CppType& c = sig.params[i];
    std::string pname = i < sig.param_names.size() && !sig.param_names[i].empty() ? " '" + sig.param_names[i] + "'" : "";
    std::string param = "parameter " + std::to_string(i + 1) + pname + " (" + c.spelled + ")";
    if (api == Api::Stable) {
      StableFit fit = conv.param(a.type, c);
      if (fit.kind == StableFit::Kind::Mismatch)
        issues.push_back({param + " does not take " + ordinal_arg(s, i) + ", which arrives as " + fit.text});
      else if (fit.kind == StableFit::Kind::Release)
        issues.push_back({param + " for " + ordinal_arg(s, i) + " " + fit.text, false, true});
      if (fit.kind != StableFit::Kind::Ok) continue;
    } else if (TypeForms forms = env.types.legacy(a.type); !forms.cpp.empty() && !matches_form(c.normalized, forms.cpp)) {
      issues.push_back({param + " does not take " + ordinal_arg(s, i) + ", which arrives as " + forms_text(forms.cpp)});
      continue;
    }
    bool tensorish = a.type.strip_optional().is_base(BaseType::Tensor);
    if (a.is_mutable() && c.lvalue_ref && c.is_const) {
      issues.push_back({param + " is const, but the schema marks '" + a.name + "' as written (" +
                            to_string(a.type) + "); a const Tensor& still writes its data, so this works",
                        true, false, true});
    } else if (!a.is_mutable() && tensorish && c.lvalue_ref && !c.is_const) {
      const std::string write =
          sig.param_writes && i < sig.param_writes->size() ? (*sig.param_writes)[i] : std::string();
      if (!write.empty())
        issues.push_back({param + " writes '" + a.name + "' through " + write + ", but the schema does not mark it "
                              "as written; declare it " + to_string(a.type) + "(a!)",
                          true});
      else
        issues.push_back({param + " is a non-const reference, but the schema does not mark '" + a.name +
                              "' as written" + (sig.param_writes ? " and the kernel does not write it" : "") +
                              "; take it by const&",
                          true, false, true});
    }
  }
  if (sig.result_known) {
    if (api == Api::Stable) {
      StableFit fit = conv.result(s.returns, sig.result);
      if (fit.kind == StableFit::Kind::Mismatch)
        issues.push_back({"returns " + sig.result.spelled + ", but the schema's returns arrive as " + fit.text});
      else if (fit.kind == StableFit::Kind::Release)
        issues.push_back({"its result (" + sig.result.spelled + ") " + fit.text, false, true});
    } else if (TypeForms forms = env.types.legacy_returns(s.returns);
               !forms.cpp.empty() && !matches_form(sig.result.normalized, forms.cpp)) {
      issues.push_back({"returns " + sig.result.spelled + ", but the schema's returns arrive as " + forms_text(forms.cpp)});
    }
  }
  return issues;
}

void report_signature(RegistrationContext& ctx, const std::string& rule, const KernelRef& k, const FunctionSchema& s,
                      const std::string& op, std::vector<SignatureIssue> issues) {
  std::string fn = k.function.empty() ? std::string("the kernel") : "'" + k.function + "'";
  // Forms whose conversion is newer than the target: the types are right.
  std::vector<SignatureIssue> release;
  for (auto it = issues.begin(); it != issues.end();)
    if (it->release) {
      release.push_back(std::move(*it));
      it = issues.erase(it);
    } else {
      ++it;
    }
  if (!release.empty()) {
    findings::Finding f;
    f.rule = "boxed-unsupported-type";
    f.location = k.where;
    f.message = fn + " (kernel of '" + op + "'): " + release.front().text;
    for (size_t i = 1; i < release.size(); ++i) f.notes.push_back(release[i].text);
    f.notes.push_back("schema: " + to_string(s));
    if (!k.declared.file.empty()) f.notes.push_back("kernel declared at " + k.declared.display());
    f.help = "raise TORCH_TARGET_VERSION (or build against newer headers) to the release named, or use types "
             "the target release converts";
    ctx.report(std::move(f));
  }
  if (issues.empty()) return;
  // The message names the issue that decides the severity.
  std::stable_partition(issues.begin(), issues.end(), [](const SignatureIssue& i) { return !i.note; });
  findings::Finding f;
  f.rule = rule;
  f.location = k.where;
  f.message = fn + " does not match the schema of '" + op + "': " + issues.front().text;
  for (size_t i = 1; i < issues.size(); ++i) f.notes.push_back(issues[i].text);
  f.notes.push_back("schema: " + to_string(s));
  if (!k.declared.file.empty()) f.notes.push_back("kernel declared at " + k.declared.display());
  bool constness_only = std::all_of(issues.begin(), issues.end(), [](const auto& i) { return i.constness_only; });
  bool notes_only = std::all_of(issues.begin(), issues.end(), [](const auto& i) { return i.note; });
  if (notes_only) f.severity = findings::Severity::Note;
  else if (constness_only) f.severity = findings::Severity::Warning;
  f.help = rule == "backend-signature-mismatch"
               ? "match the kernel to the operator's schema in this PyTorch release; registration silently uses "
                 "the wrong calling convention otherwise"
               : "make the kernel's parameters follow the schema's arguments one for one, in order, with the C++ "
                 "types the schema types arrive as";
  ctx.report(std::move(f));
}

// ---- hand-written boxed kernels -------------------------------------------------

void boxed_body(RegistrationContext& ctx, const ImplEntry& impl, const FunctionSchema& s, const BoxedKernelBody& body) {
  const size_t n = s.arguments.size(), r = s.returns.size();
  const StableConversions conv(ctx.env.types, impl.tu);
  auto finding = [&](const char* rule, const findings::Location& at, std::string message, std::string help) {
    findings::Finding f;
    f.rule = rule;
    f.location = at;
    f.message = std::move(message);
    f.help = std::move(help);
    f.notes.push_back("schema of '" + impl.qualified + "': " + to_string(s));
    f.notes.push_back("registered at " + impl.impl->where.display());
    ctx.report(std::move(f));
  };
  std::map<int64_t, std::vector<const StackAccess*>> reads, writes;
  for (const StackAccess& a : body.reads) {
    if (a.index < 0) continue;
    reads[a.index].push_back(&a);
    if (static_cast<size_t>(a.index) >= n) {
      finding("boxed-stack-index-out-of-range", a.where,
              "'" + body.function + "' reads stack[" + std::to_string(a.index) + "], but '" + impl.qualified +
                  "' has " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"),
              "read argument i from stack[i], for i < " + std::to_string(n));
      continue;
    }
    const Type& t = s.arguments[a.index].type;
    StableFit fit = conv.stack(t, Flow::To, a.type);
    if (fit.kind == StableFit::Kind::Mismatch)
      finding("boxed-stack-type-mismatch", a.where,
              "stack[" + std::to_string(a.index) + "] holds " + ordinal_arg(s, a.index) + ", but '" + body.function +
                  "' reads it as " + a.type.spelled,
              "read it with to<" + conv.suggestion(t, Flow::To) + ">(stack[" + std::to_string(a.index) + "])");
    else if (fit.kind == StableFit::Kind::Release)
      finding("boxed-unsupported-type", a.where,
              "'" + body.function + "' reads stack[" + std::to_string(a.index) + "] as " + a.type.spelled + ", which " +
                  fit.text,
              "raise TORCH_TARGET_VERSION (or build against newer headers) to the release named");
  }
  for (const StackAccess& w : body.writes) {
    if (w.index < 0) continue;
    writes[w.index].push_back(&w);
    if (static_cast<size_t>(w.index) >= r) {
      finding("boxed-stack-index-out-of-range", w.where,
              "'" + body.function + "' writes stack[" + std::to_string(w.index) + "], but '" + impl.qualified +
                  "' has " + std::to_string(r) + " return" + (r == 1 ? "" : "s"),
              "write return j to stack[j], for j < " + std::to_string(r));
      continue;
    }
    const Type& t = s.returns[w.index].type;
    if (w.type.normalized.empty())
      finding("boxed-stack-type-mismatch", w.where,
              "stack[" + std::to_string(w.index) + "] receives a value that is not from(...)",
              "convert the result with stack[" + std::to_string(w.index) + "] = from(value)");
    else if (StableFit fit = conv.stack(t, Flow::From, w.type); fit.kind == StableFit::Kind::Mismatch)
      finding("boxed-stack-type-mismatch", w.where,
              "stack[" + std::to_string(w.index) + "] must hold " + ordinal_ret(s, w.index) + ", but '" +
                  body.function + "' stores from(" + w.type.spelled + ")",
              "return a " + conv.suggestion(t, Flow::From) + " in that slot");
    else if (fit.kind == StableFit::Kind::Release)
      finding("boxed-unsupported-type", w.where,
              "'" + body.function + "' stores from(" + w.type.spelled + ") in stack[" + std::to_string(w.index) +
                  "], which " + fit.text,
              "raise TORCH_TARGET_VERSION (or build against newer headers) to the release named");
  }
  if (body.opaque) return;  // counts are unknowable; what was checked above still holds
  for (size_t i = 0; i < n; ++i) {
    size_t count = reads.count(static_cast<int64_t>(i)) ? reads[static_cast<int64_t>(i)].size() : 0;
    if (count == 1) continue;
    findings::Location at = count == 0 ? body.where : reads[static_cast<int64_t>(i)][1]->where;
    finding("boxed-arg-not-read-once", at,
            count == 0 ? ordinal_arg(s, i) + " of '" + impl.qualified + "' is never read by '" + body.function + "'"
                       : ordinal_arg(s, i) + " is read " + std::to_string(count) + " times by '" + body.function + "'",
            count == 0 ? "convert every argument exactly once: the kernel owns its inputs (an unread Tensor leaks)"
                       : "convert it once and reuse the value: to<T> takes ownership, a second read uses a "
                         "handle that was already released");
  }
  for (size_t j = 0; j < r; ++j) {
    size_t count = writes.count(static_cast<int64_t>(j)) ? writes[static_cast<int64_t>(j)].size() : 0;
    if (count == 1) continue;
    findings::Location at = count == 0 ? body.where : writes[static_cast<int64_t>(j)][1]->where;
    finding("boxed-return-not-written-once", at,
            count == 0 ? ordinal_ret(s, j) + " of '" + impl.qualified + "' is never written by '" + body.function + "'"
                       : ordinal_ret(s, j) + " is written " + std::to_string(count) + " times by '" + body.function + "'",
            count == 0 ? "store every return with stack[j] = from(value); the caller reads garbage otherwise"
                       : "write each return slot once; an overwritten Tensor handle leaks");
  }
}

void impl_kernel(RegistrationContext& ctx, const ImplEntry& impl) {
  FunctionSchema storage;
  const FunctionSchema* s = schema_of(ctx, impl, storage);
  if (!s) return;
  const KernelRef& k = impl.impl->kernel;
  bool backend = impl.block->is_device_backend();
  switch (k.form) {
    case KernelRef::Form::Boxed:
      if (const BoxedKernelBody* body = ctx.index.boxed_body(k.function)) boxed_body(ctx, impl, *s, *body);
      break;
    case KernelRef::Form::TorchBox:
      if (k.signature)
        report_signature(ctx, backend ? "backend-signature-mismatch" : "boxed-signature-mismatch", k, *s,
                         impl.qualified, compare_signature(ctx.env, Api::Stable, *s, *k.signature, impl.tu));
      break;
    case KernelRef::Form::Unboxed:
    case KernelRef::Form::Lambda: {
      if (impl.block->stable || !k.signature) break;
      for (const CppType& p : k.signature->params)
        if (p.normalized.find("OperatorHandle") != std::string::npos) return;  // a legacy boxed kernel
      report_signature(ctx, backend ? "backend-signature-mismatch" : "schema-signature-mismatch", k, *s,
                       impl.qualified, compare_signature(ctx.env, Api::Legacy, *s, *k.signature, impl.tu));
      break;
    }
    case KernelRef::Form::Unknown:
      break;
  }
}

}  // namespace

void check_stable_types(RegistrationContext& ctx) {
  for (const DefEntry& d : ctx.index.defs())
    if (d.block->stable && d.has_schema) unsupported_types(ctx, d);
}

void check_kernels(RegistrationContext& ctx) {
  for (const ImplEntry& i : ctx.index.impls()) impl_kernel(ctx, i);
  for (const DefEntry& d : ctx.index.defs()) {
    const auto& k = d.def->kernel;
    if (!k || !d.has_schema || d.block->stable || !k->signature) continue;
    if (k->form != KernelRef::Form::Unboxed && k->form != KernelRef::Form::Lambda) continue;
    report_signature(ctx, "schema-signature-mismatch", *k, d.schema, d.qualified,
                     compare_signature(ctx.env, Api::Legacy, d.schema, *k->signature, d.tu));
  }
}

}  // namespace torchabi::schema
