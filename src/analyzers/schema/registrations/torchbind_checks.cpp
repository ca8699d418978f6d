// TorchBind custom classes (m.class_<T>("Name")) and the ops that take them,
// against what torch.compile / torch.export need from the project's Python:
//   torchbind-not-stable            TorchBind has no stable-ABI equivalent
//   torchbind-missing-obj-flatten   no __obj_flatten__: the class cannot be traced
//   torchbind-missing-fake-class    no @torch._library.register_fake_class("ns::Name")
//   torchbind-fake-class-incomplete the fake lacks a method or __obj_unflatten__
//   torchbind-op-missing-fake       an op taking the class has no register_fake
#include <algorithm>
#include <set>

#include "analyzers/schema/registrations/check_context.h"

namespace torchabi::schema {

namespace {

bool has_custom_class(const Type& t) {
  if (t.kind == TypeKind::CustomClass) return true;
  for (const Type& c : t.contained)
    if (has_custom_class(c)) return true;
  return false;
}

// Methods whose fake PyTorch does not call through the fake class.
bool needs_fake(const std::string& method) {
  return method != "__obj_flatten__" && method != "__getstate__" && method != "__setstate__";
}

findings::Finding make(const char* rule, const TorchBindClass& c, std::string message, std::string help) {
  findings::Finding f;
  f.rule = rule;
  f.location = c.where;
  f.message = std::move(message);
  f.help = std::move(help);
  return f;
}

}  // namespace

void check_torchbind(RegistrationContext& ctx) {
  std::set<std::string> seen;
  const PythonRegistrations& py = ctx.env.python;
  std::vector<const TorchBindClass*> classes;

  // Classes, once each even when their block is in a header of several TUs.
  std::vector<const TuRegistrations*> tus;
  for (const auto& [tu, block] : ctx.index.blocks())
    if (std::find(tus.begin(), tus.end(), tu) == tus.end()) tus.push_back(tu);
  for (const TuRegistrations* tu : tus)
    for (const TorchBindClass& c : tu->classes)
      if (seen.insert(location_key(c.where)).second) classes.push_back(&c);

  for (const TorchBindClass* c : classes) {
    std::string q = c->ns + "::" + c->name;
    ctx.report(make("torchbind-not-stable", *c, "TorchBind class '" + q + "' has no stable-ABI equivalent",
                    "keep it in a separate, version-specific extension, or pass its state as Tensors and plain "
                    "values so the ops can move to the stable ABI"));
    bool flatten = false;
    for (const auto& m : c->methods) flatten = flatten || m == "__obj_flatten__";
    if (!flatten)
      ctx.report(make("torchbind-missing-obj-flatten", *c,
                      "TorchBind class '" + q + "' has no __obj_flatten__, so torch.compile and torch.export cannot trace it",
                      ".def(\"__obj_flatten__\", ...) returning a tuple of (name, value) pairs of its state"));
    auto fake = py.fake_classes.find(q);
    if (fake == py.fake_classes.end()) {
      findings::Finding f = make("torchbind-missing-fake-class", *c,
                                 "no fake class is registered for '" + q + "' in the project's Python files",
                                 "add @torch._library.register_fake_class(\"" + q +
                                     "\") on a Python class with the same methods and an __obj_unflatten__ classmethod");
      f.notes.push_back(std::to_string(py.files) + " Python file" + (py.files == 1 ? "" : "s") + " searched");
      ctx.report(std::move(f));
      continue;
    }
    std::vector<std::string> missing;
    for (const auto& m : c->methods)
      if (needs_fake(m) && !fake->second.methods.count(m)) missing.push_back(m);
    if (!fake->second.unflatten_classmethod) missing.push_back("__obj_unflatten__ (a @classmethod)");
    if (missing.empty()) continue;
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    findings::Finding f = make("torchbind-fake-class-incomplete", *c,
                               "the fake class of '" + q + "' lacks: " + list,
                               "give the fake class a method for each method the C++ class registers, and an "
                               "__obj_unflatten__ classmethod");
    f.notes.push_back("fake class at " + fake->second.where.display());
    ctx.report(std::move(f));
  }

  for (const DefEntry& d : ctx.index.defs()) {
    if (!d.has_schema) continue;
    bool takes_class = false;
    for (const Argument& a : d.schema.arguments) takes_class = takes_class || has_custom_class(a.type);
    for (const Return& r : d.schema.returns) takes_class = takes_class || has_custom_class(r.type);
    if (!takes_class || PythonRegistrations::names(py.fake_ops, d.qualified)) continue;
    findings::Finding f;
    f.rule = "torchbind-op-missing-fake";
    f.location = d.def->schema.start;
    f.message = "'" + d.qualified + "' takes or returns a TorchBind class but has no fake implementation";
    f.help = "add @torch.library.register_fake(\"" + d.qualified + "\") in Python, computing the outputs from the fake class";
    ctx.report(std::move(f));
  }
}

}  // namespace torchabi::schema
