// What a kernel's body does to its arguments against what the schema says,
// for torch.compile (functionalization trusts the schema: a write it was not
// told of, or an alias it was not told of, silently gives compiled code
// stale or shared data):
//   compile-undeclared-mutation    the kernel writes an argument the schema
//                                  does not mark (a!)
//   compile-mutation-never-written the schema marks (a!) but the kernel never
//                                  writes it (nor hands it to code that could)
//   compile-undeclared-alias       the kernel returns an argument, or a view of
//                                  one, through a return with no alias annotation
#include <set>

#include "analyzers/schema/compile_readiness/compile_checks.h"
#include "analyzers/schema/printer.h"

namespace torchabi::schema {

namespace {

struct KernelSite {
  const KernelRef* kernel = nullptr;
  const FunctionSchema* schema = nullptr;
  std::string op;
  findings::Location registered;
};

std::string arg_text(const Argument& a) { return "'" + a.name + "' (" + to_string(a.type) + ")"; }

class EffectChecks {
public:
  explicit EffectChecks(RegistrationContext& ctx) : ctx_(ctx) {}

  void check(const KernelSite& site) {
    const KernelRef& k = *site.kernel;
    if (!k.signature || !k.signature->flow) return;
    if (k.form != KernelRef::Form::TorchBox && k.form != KernelRef::Form::Unboxed && k.form != KernelRef::Form::Lambda)
      return;
    const CppSignature& sig = *k.signature;
    const KernelFlow& flow = *sig.flow;
    const FunctionSchema& s = *site.schema;
    // A legacy kernel may take the DispatchKeySet first.
    size_t offset = !sig.params.empty() && sig.params[0].normalized == "c10::DispatchKeySet" ? 1 : 0;
    if (sig.params.size() != s.arguments.size() + offset || flow.writes.size() != sig.params.size()) return;
    for (const CppType& p : sig.params)
      if (p.normalized.find("OperatorHandle") != std::string::npos) return;  // a legacy boxed kernel
    for (size_t i = 0; i < s.arguments.size(); ++i) {
      const Argument& a = s.arguments[i];
      const CppType& c = sig.params[i + offset];
      const auto& writes = flow.writes[i + offset];
      if (!a.type.mentions(BaseType::Tensor)) continue;
      if (!a.is_mutable() && !writes.empty()) {
        // A non-const Tensor& written is already a signature finding (schema- / boxed-signature-mismatch).
        if (c.lvalue_ref && !c.is_const) continue;
        undeclared_mutation(site, a, writes);
      } else if (a.is_mutable() && writes.empty() && !flow.escapes[i + offset]) {
        never_written(site, a);
      }
    }
    for (const FlowReturn& r : flow.returns) {
      if (r.param < offset || r.param - offset >= s.arguments.size()) continue;
      const Argument& a = s.arguments[r.param - offset];
      if (!a.type.strip_optional().is_base(BaseType::Tensor)) continue;
      if (!r.via.empty() && !ctx_.env.view_functions.aliases(r.via)) continue;
      if (s.returns.size() != 1 || !s.returns[0].type.is_base(BaseType::Tensor) || s.returns[0].type.alias) continue;
      undeclared_alias(site, a, r);
    }
  }

private:
  bool once(const std::string& rule, const findings::Location& at, const std::string& op) {
    return seen_.insert(rule + "|" + location_key(at) + "|" + op).second;
  }

  void undeclared_mutation(const KernelSite& site, const Argument& a, const std::vector<FlowWrite>& writes) {
    if (!once("compile-undeclared-mutation", writes.front().where, site.op)) return;
    findings::Finding f;
    f.rule = "compile-undeclared-mutation";
    f.location = writes.front().where;
    f.message = "the kernel of '" + site.op + "' writes its argument " + arg_text(a) + " through " +
                writes.front().what + ", but the schema does not mark it as written";
    f.help = "declare it written in the schema, " + to_string(a.type) + "(a!) " + a.name +
             " (and return nothing for it or Tensor(a!)), or write into a new tensor instead";
    for (size_t i = 1; i < writes.size(); ++i)
      f.notes.push_back("also " + writes[i].what + " at " + writes[i].where.file_line());
    f.notes.push_back("schema: " + to_string(*site.schema));
    f.notes.push_back("torch.compile and torch.export keep using the old value of '" + a.name +
                      "' after the call: the write is lost or seen by code that should not see it");
    f.notes.push_back("registered at " + site.registered.display());
    ctx_.report(std::move(f));
  }

  void never_written(const KernelSite& site, const Argument& a) {
    const findings::Location at = site.kernel->declared.file.empty() ? site.kernel->where : site.kernel->declared;
    if (!once("compile-mutation-never-written", at, site.op + a.name)) return;
    findings::Finding f;
    f.rule = "compile-mutation-never-written";
    f.location = at;
    f.message = "the schema of '" + site.op + "' marks " + arg_text(a) + " as written, but its kernel '" +
                site.kernel->function + "' never writes it";
    f.help = "drop the (a!) annotation if the op only reads '" + a.name +
             "': a written argument makes torch.compile copy it back after every call and keeps the op out of "
             "functional graphs";
    f.notes.push_back("schema: " + to_string(*site.schema));
    f.notes.push_back("registered at " + site.registered.display());
    ctx_.report(std::move(f));
  }

  void undeclared_alias(const KernelSite& site, const Argument& a, const FlowReturn& r) {
    if (!once("compile-undeclared-alias", r.where, site.op)) return;
    findings::Finding f;
    f.rule = "compile-undeclared-alias";
    f.location = r.where;
    f.message = "the kernel of '" + site.op + "' returns " + (r.via.empty() ? "its argument " : "a view of its argument ") +
                arg_text(a) + (r.via.empty() ? "" : " (" + r.via + ")") +
                ", but the schema's return has no alias annotation";
    f.help = "declare the alias, " + to_string(a.type) + "(a) " + a.name + " ... -> Tensor(a), or return a new tensor "
             "(torch::stable::clone)";
    f.notes.push_back("schema: " + to_string(*site.schema));
    f.notes.push_back("torch.compile assumes the output is a fresh tensor: writing one then changes the other "
                      "in eager mode only");
    f.notes.push_back("registered at " + site.registered.display());
    ctx_.report(std::move(f));
  }

  RegistrationContext& ctx_;
  std::set<std::string> seen_;
};

}  // namespace

void check_kernel_effects(RegistrationContext& ctx) {
  EffectChecks checks(ctx);
  for (const ImplEntry& impl : ctx.index.impls()) {
    FunctionSchema storage;
    const FunctionSchema* s = schema_of(ctx, impl, storage);
    if (!s) continue;
    checks.check({&impl.impl->kernel, s, impl.qualified, impl.impl->where});
  }
  for (const DefEntry& d : ctx.index.defs())
    if (d.def->kernel && d.has_schema) checks.check({&*d.def->kernel, &d.schema, d.qualified, d.def->where});
}

}  // namespace torchabi::schema
