// schema-duplicate-def, schema-impl-without-def, schema-def-without-impl,
// schema-unknown-dispatch-key: how the project's defs and impls fit together.
#include <algorithm>
#include <cctype>
#include <vector>
#include <map>

#include "analyzers/schema/registrations/check_context.h"
#include "common/text.h"

namespace torchabi::schema {

namespace {

const char* block_macro(const LibraryBlock& b) {
  switch (b.kind) {
    case BlockKind::Def: return b.stable ? "STABLE_TORCH_LIBRARY" : "TORCH_LIBRARY";
    case BlockKind::Impl: return b.stable ? "STABLE_TORCH_LIBRARY_IMPL" : "TORCH_LIBRARY_IMPL";
    case BlockKind::Fragment: return b.stable ? "STABLE_TORCH_LIBRARY_FRAGMENT" : "TORCH_LIBRARY_FRAGMENT";
  }
  return "";
}


void duplicates(RegistrationContext& ctx) {
  std::map<std::string, const DefEntry*> first;
  for (const DefEntry& d : ctx.index.defs()) {
    auto [it, fresh] = first.emplace(d.qualified, &d);
    if (fresh) continue;
    findings::Finding f;
    f.rule = "schema-duplicate-def";
    f.location = d.def->schema.start;
    f.message = "operator '" + d.qualified + "' is defined more than once";
    f.help = "give each variant its own overload name (" + d.qualified + ".out, ...) or remove the repeated m.def";
    f.notes.push_back("first defined at " + it->second->def->schema.start.display());
    ctx.report(std::move(f));
  }
}

void unknown_keys(RegistrationContext& ctx) {
  for (auto [tu, block] : ctx.index.blocks()) {
    if (block->kind != BlockKind::Impl || ctx.env.dispatch_keys.count(block->dispatch_key)) continue;
    findings::Finding f;
    f.rule = "schema-unknown-dispatch-key";
    f.location = block->where;
    f.message = "'" + block->dispatch_key + "' is not a dispatch key";
    f.help = "use one of PyTorch's dispatch keys: CPU, CUDA, Meta, PrivateUse1, Autograd, "
             "CompositeExplicitAutograd, CompositeImplicitAutograd, ...";
    // Suggest the key that differs only in case, the usual slip (Cpu, cuda).
    for (const auto& k : ctx.env.dispatch_keys) {
      if (k.size() != block->dispatch_key.size()) continue;
      bool same = true;
      for (size_t i = 0; i < k.size() && same; ++i)
        same = std::tolower(static_cast<unsigned char>(k[i])) ==
               std::tolower(static_cast<unsigned char>(block->dispatch_key[i]));
      if (same) f.help = "did you mean '" + k + "'?";
    }
    f.notes.push_back(std::string(block_macro(*block)) + "(" + block->ns + ", " + block->dispatch_key +
                      ", ...) " + (block->stable ? "fails when the library loads"
                                                 : "does not compile against the real headers"));
    ctx.report(std::move(f));
  }
}

void impls_without_defs(RegistrationContext& ctx) {
  for (const ImplEntry& i : ctx.index.impls()) {
    const std::string& ns = i.block->ns;
    if (ns == "aten" || ns == "prim" || ctx.index.def(i.qualified) || ctx.index.has_broken_def(i.qualified)) continue;
    if (PythonRegistrations::names(ctx.env.python.defined_ops, i.qualified)) continue;
    findings::Finding f;
    f.rule = "schema-impl-without-def";
    f.location = i.impl->name.start;
    f.message = "impl of '" + i.qualified + "', which " +
                (ctx.whole_project ? "the project never defines" : "none of the linted files defines");
    if (ctx.index.defined_namespaces().count(ns)) {
      f.help = "add m.def(\"" + i.qualified.substr(ns.size() + 2) + "(...) -> ...\") to the " + ns +
               " library, or fix the name in m.impl";
      // Same name, other overloads: likely a typo in the overload name.
      std::string unqualified = i.qualified.substr(ns.size() + 2);
      std::string op = unqualified.substr(0, unqualified.find('.'));
      for (const DefEntry& d : ctx.index.defs())
        if (d.block->ns == ns && (d.schema.name.name == op || text::edit_distance(d.schema.name.name, op) <= 2))
          f.notes.push_back("did you mean '" + d.qualified + "' (defined at " + d.def->schema.start.display() + ")?");
    } else {
      f.help = "define the operator with " + std::string(i.block->stable ? "STABLE_" : "") + "TORCH_LIBRARY(" + ns +
               ", m) { m.def(...); } (or torch.library.define in Python) before implementing it";
      f.notes.push_back("no TORCH_LIBRARY(" + ns + ") or _FRAGMENT block in the analysed sources");
    }
    f.notes.push_back("PyTorch rejects the impl when the library loads: the operator has no schema");
    partial_view(ctx, f, "def");
    if (unread_in(ctx, ns, true)) unread(f, ns, "m.def");
    ctx.report(std::move(f));
  }
}

void defs_without_impls(RegistrationContext& ctx) {
  for (const DefEntry& d : ctx.index.defs()) {
    if (d.def->kernel) continue;  // m.def(schema, fn) registers a catch-all kernel
    if (!ctx.index.impls_of(d.qualified).empty()) continue;
    if (PythonRegistrations::names(ctx.env.python.implemented_ops, d.qualified)) continue;
    findings::Finding f;
    f.rule = "schema-def-without-impl";
    f.location = d.def->schema.start;
    f.message = "'" + d.qualified + "' is defined but no kernel is registered for it";
    f.help = "register a kernel with m.impl(\"" + d.schema.name.unqualified() + "\", ...) in a " +
             (d.block->stable ? "STABLE_" : "") + "TORCH_LIBRARY_IMPL(" + d.block->ns +
             ", <key>, m) block, or remove the def";
    f.notes.push_back("calling it fails with \"could not run '" + d.qualified + "' with arguments from the ... backend\"");
    partial_view(ctx, f, "impl");
    if (unread_in(ctx, d.block->ns, false)) unread(f, d.block->ns, "m.impl");
    ctx.report(std::move(f));
  }
}

}  // namespace

void check_schema_rules(RegistrationContext& ctx) {
  duplicates(ctx);
  unknown_keys(ctx);
  impls_without_defs(ctx);
  defs_without_impls(ctx);
}

}  // namespace torchabi::schema
