#include "analyzers/schema/compile_readiness/op_catalog.h"

#include "analyzers/schema/parser.h"
#include "common/text.h"

namespace torchabi::schema {

std::string packet_of(const std::string& qualified) {
  const auto colons = qualified.find("::");
  const auto dot = qualified.find('.', colons == std::string::npos ? 0 : colons);
  return dot == std::string::npos ? qualified : qualified.substr(0, dot);
}

std::string namespace_of(const std::string& qualified) {
  const auto colons = qualified.find("::");
  return colons == std::string::npos ? std::string() : qualified.substr(0, colons);
}

OpCatalog::OpCatalog(const RegistrationContext& ctx) {
  for (const DefEntry& d : ctx.index.defs()) {
    CatalogOp op{d.qualified, d.has_schema ? &d.schema : nullptr, d.def->schema.start, false};
    ops_.try_emplace(d.qualified, op);
    namespaces_.insert(d.block->ns);
  }
  for (const std::string& ns : ctx.index.defined_namespaces()) namespaces_.insert(ns);
  // Python schemas are parsed first and pointed to after: the vector stops growing.
  std::vector<std::pair<const PyOpRegistration*, size_t>> defines;
  for (const PyOpRegistration& r : ctx.env.python_ops.registrations) {
    if (r.op.empty()) continue;
    if (r.kind == PyOpRegistration::Kind::Define) {
      ParseOptions options;
      options.implied_namespace = namespace_of(r.op);
      auto parsed = parse_schema(r.schema, options);
      if (std::holds_alternative<FunctionSchema>(parsed)) {
        defines.emplace_back(&r, python_schemas_.size());
        python_schemas_.push_back(std::get<FunctionSchema>(std::move(parsed)));
        continue;
      }
    }
    if (r.kind == PyOpRegistration::Kind::Define || r.kind == PyOpRegistration::Kind::CustomOp) {
      ops_.try_emplace(r.op, CatalogOp{r.op, nullptr, r.where, true});
      namespaces_.insert(namespace_of(r.op));
    }
  }
  for (auto [r, i] : defines) {
    const FunctionSchema& s = python_schemas_[i];
    std::string qualified = r->op;
    if (!s.name.overload.empty() && qualified.find('.') == std::string::npos) qualified += "." + s.name.overload;
    ops_.try_emplace(qualified, CatalogOp{qualified, &s, r->where, true});
    namespaces_.insert(namespace_of(r->op));
  }
}

const CatalogOp* OpCatalog::find(const std::string& qualified) const {
  auto it = ops_.find(qualified);
  return it == ops_.end() ? nullptr : &it->second;
}

std::string OpCatalog::closest(const std::string& qualified, size_t max_distance) const {
  std::string best;
  size_t best_distance = max_distance + 1;
  for (const auto& [name, op] : ops_) {
    const size_t d = text::edit_distance(name, qualified);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

}  // namespace torchabi::schema
