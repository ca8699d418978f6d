// backend-unknown-op: an aten kernel of an out-of-tree device backend
// (TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)) for an operator this PyTorch
// release does not have; and the backend's kernel coverage: the operators
// without a composite kernel it must implement against those it does.
#include <map>
#include <set>

#include "analyzers/schema/registrations/check_context.h"

namespace torchabi::schema {

namespace {

void unknown_op(RegistrationContext& ctx, const ImplEntry& i, const std::string& name) {
  findings::Finding f;
  f.rule = "backend-unknown-op";
  f.location = i.impl->name.start;
  f.message = "aten::" + name + " is not an operator of PyTorch " + ctx.env.aten.release();
  f.help = "register the kernel under the operator's current name and overload (see native_functions.yaml)";
  std::string base = name.substr(0, name.find('.'));
  auto overloads = ctx.env.aten.overloads_of(base);
  if (!overloads.empty()) {
    std::string list;
    for (size_t k = 0; k < overloads.size() && k < 8; ++k) list += (k ? ", " : "") + overloads[k];
    f.notes.push_back("overloads of aten::" + base + ": " + list);
  }
  f.notes.push_back("PyTorch refuses the impl when the library loads");
  ctx.report(std::move(f));
}

}  // namespace

void check_backends(RegistrationContext& ctx) {
  std::map<std::string, std::set<std::string>> registered;  // key -> op names
  for (const ImplEntry& i : ctx.index.impls()) {
    if (!i.block->is_device_backend()) continue;
    std::string name = i.qualified.substr(6);  // drop "aten::"
    if (!ctx.env.aten.find(name)) {
      unknown_op(ctx, i, name);
      continue;
    }
    registered[i.block->dispatch_key].insert(name);
  }
  for (const auto& [key, ops] : registered) {
    if (key.rfind("Autograd", 0) == 0) continue;  // autograd kernels are optional per op
    std::vector<std::string> missing;
    size_t required = 0, covered = 0, composite_overrides = 0;
    for (const auto& [name, op] : ctx.env.aten.all()) {
      bool has = ops.count(name) > 0;
      if (op.composite) {
        composite_overrides += has;
        continue;
      }
      ++required;
      if (has) ++covered;
      else missing.push_back(name);
    }
    findings::Subject s;
    s.kind = "backend";
    s.path = "aten/" + key;
    s.verdict = missing.empty() ? "COMPLETE" : "PARTIAL";
    s.facts.emplace_back("PyTorch release", ctx.env.aten.release());
    s.facts.emplace_back("kernels registered", std::to_string(ops.size()));
    s.facts.emplace_back("operators without a composite kernel", std::to_string(required));
    s.facts.emplace_back("of those implemented", std::to_string(covered));
    s.facts.emplace_back("composite operators overridden", std::to_string(composite_overrides));
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    if (!missing.empty()) s.facts.emplace_back("kernels still missing (" + std::to_string(missing.size()) + ")", list);
    if (!ctx.whole_project)
      s.facts.emplace_back("seen", "only the linted files; kernels registered in other files are not counted (lint "
                                   "the whole project with -p BUILD_DIR or check .)");
    ctx.out.subjects.push_back(std::move(s));
  }
}

}  // namespace torchabi::schema
