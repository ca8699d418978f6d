// Which ops torch.compile can trace, and what the Python registers for ops
// that do not exist:
//   compile-missing-fake     an op returning tensors with no fake (meta)
//                            kernel in the project's Python or C++
//   compile-fake-unknown-op  a fake, autograd or kernel registered from
//                            Python for an op no library defines
#include "analyzers/schema/compile_readiness/compile_checks.h"

#include "analyzers/schema/compile_readiness/unbuilt_definitions.h"
#include "analyzers/schema/printer.h"

namespace torchabi::schema {

namespace {

bool fake_key(const std::string& key) { return key == "Meta" || key == "CompositeImplicitAutograd"; }

// The op's fake kernel, where one is registered; nullptr-like empty string when none.
std::string fake_of(const RegistrationContext& ctx, const std::string& qualified) {
  for (const PyOpRegistration& r : ctx.env.python_ops.registrations) {
    if (r.kind != PyOpRegistration::Kind::Fake && r.kind != PyOpRegistration::Kind::Meta) continue;
    if (r.op == qualified || r.op == packet_of(qualified) || packet_of(r.op) == qualified)
      return r.api + " at " + r.where.file_line();
  }
  for (const ImplEntry* i : ctx.index.impls_of(qualified))
    if (fake_key(i->block->dispatch_key)) return i->block->dispatch_key + " kernel at " + i->impl->where.file_line();
  if (const DefEntry* d = ctx.index.def(qualified); d && d->def->kernel)
    return "its CompositeImplicitAutograd kernel (m.def with a function) at " + d->def->where.file_line();
  return {};
}

bool returns_tensor(const FunctionSchema& s) {
  for (const Return& r : s.returns)
    if (r.type.mentions(BaseType::Tensor)) return true;
  return false;
}

void missing_fakes(RegistrationContext& ctx, const OpCatalog& catalog) {
  const PythonOpModel& py = ctx.env.python_ops;
  // A project without any Python keeps its Python side elsewhere: nothing to conclude.
  if (!py.available || py.files == 0) return;
  std::vector<const PyOpRegistration*> unread;
  for (const PyOpRegistration& r : py.registrations)
    if (r.op.empty() && (r.kind == PyOpRegistration::Kind::Fake || r.kind == PyOpRegistration::Kind::Meta))
      unread.push_back(&r);
  for (const auto& [name, op] : catalog.ops()) {
    if (!op.schema || op.from_python || !returns_tensor(*op.schema)) continue;
    if (!fake_of(ctx, name).empty()) continue;
    findings::Finding f;
    f.rule = "compile-missing-fake";
    f.location = op.where;
    f.message = "'" + name + "' returns a tensor but has no fake (meta) kernel: torch.compile, torch.export and "
                "AOTInductor cannot trace it";
    f.help = "register one in the package's Python: @torch.library.register_fake(\"" + name + "\") on " +
             fake_stub(*op.schema) + " returning empty tensors of the output's shape and dtype; or a C++ Meta kernel (" +
             "STABLE_TORCH_LIBRARY_IMPL(" + namespace_of(name) + ", Meta, m))";
    f.notes.push_back("schema: " + to_string(*op.schema));
    f.notes.push_back(std::to_string(py.files) + " Python file" + (py.files == 1 ? "" : "s") + " searched");
    if (!unread.empty()) {
      f.severity = findings::Severity::Note;
      f.notes.insert(f.notes.begin(), std::to_string(unread.size()) + " fake registration" +
                                          (unread.size() == 1 ? "" : "s") + " name an op built at run time (" +
                                          unread.front()->op_text + " at " + unread.front()->where.file_line() +
                                          "): it may be one of them");
    }
    partial_view(ctx, f, "Meta kernel");
    ctx.report(std::move(f));
  }
}

void unknown_ops(RegistrationContext& ctx, const OpCatalog& catalog) {
  for (const PyOpRegistration& r : ctx.env.python_ops.registrations) {
    using K = PyOpRegistration::Kind;
    if (r.op.empty() || r.kind == K::Define || r.kind == K::CustomOp) continue;
    if (catalog.find(r.op) || catalog.find(packet_of(r.op))) continue;
    // any overload of the packet counts: register_fake("ns::op") of an op defined as ns::op.out is reported by
    // the signature check, not here
    bool some_overload = false;
    for (const auto& [name, op] : catalog.ops()) some_overload = some_overload || packet_of(name) == packet_of(r.op);
    if (some_overload) continue;
    const std::string ns = namespace_of(r.op);
    const bool ours = catalog.project_namespace(ns);
    // Named by a source this build leaves out: not a typo, and no other op is meant.
    const auto unbuilt = ours ? source_naming_op(ctx.env.python_ops.roots, r.op) : std::nullopt;
    const std::string near =
        unbuilt ? std::string() : catalog.closest(r.op, ours ? std::max<size_t>(3, r.op.size() / 3) : 2);
    // An op of another library (aten, a dependency) is not ours to know, unless it is one letter off ours.
    if (!ours && near.empty()) continue;
    findings::Finding f;
    f.rule = "compile-fake-unknown-op";
    f.location = r.where;
    const char* what = r.kind == K::Autograd ? "an autograd formula" : r.kind == K::Kernel ? "a kernel" : "a fake kernel";
    f.message = std::string(what) + " is registered for '" + r.op + "', which no " +
                (unbuilt ? "linted translation unit" : "library of the project") + " defines" +
                (near.empty() ? "" : " (did you mean '" + near + "'?)");
    f.help = near.empty() ? "register it under the name the op is defined with (m.def in the C++ library), or remove it"
                          : "register it for '" + near + "'";
    f.notes.push_back("written " + r.api + "(" + r.op_text + ")");
    if (ours && unread_in(ctx, ns, true)) unread(f, ns, "m.def");
    if (unbuilt) {
      f.severity = findings::Severity::Note;
      f.help = "nothing to do for this configuration; check that the builds which compile " + *unbuilt +
               " define '" + r.op + "'";
      f.notes.insert(f.notes.begin(), "the op is named in " + *unbuilt +
                                          ", which no linted translation unit compiles (a file this configuration "
                                          "leaves out): fakes are registered lazily, so this one waits for the builds "
                                          "that compile it");
    }
    partial_view(ctx, f, "def");
    ctx.report(std::move(f));
  }
}

}  // namespace

void check_fake_coverage(RegistrationContext& ctx, const OpCatalog& catalog) {
  missing_fakes(ctx, catalog);
  unknown_ops(ctx, catalog);
}

}  // namespace torchabi::schema
