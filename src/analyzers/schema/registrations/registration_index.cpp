#include "analyzers/schema/registrations/registration_index.h"

#include "analyzers/schema/parser.h"
#include "analyzers/schema/schema_diagnostics.h"

namespace torchabi::schema {

namespace {

SchemaOrigin origin_of(const LiteralText& lit) {
  SchemaOrigin o;
  o.start = lit.start;
  o.positions = lit.positions;
  o.exact_columns = !lit.positions.empty();
  return o;
}

findings::Finding namespace_mismatch(const LiteralText& lit, const std::string& written_ns, const LibraryBlock& block,
                                     const std::string& what) {
  findings::Finding f;
  f.rule = "schema-namespace-mismatch";
  f.location = lit.start;
  f.message = what + " names namespace '" + written_ns + "' inside a block for namespace '" + block.ns + "'";
  f.help = "drop the '" + written_ns + "::' prefix or move the registration into a " +
           (block.stable ? "STABLE_" : "") + std::string("TORCH_LIBRARY") +
           (block.kind == BlockKind::Impl ? "_IMPL" : "") + "(" + written_ns + ", ...) block";
  f.notes.push_back("PyTorch refuses the registration when the library loads");
  return f;
}

}  // namespace

std::string location_key(const findings::Location& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

RegistrationIndex::RegistrationIndex(const std::vector<TuRegistrations>& tus, std::vector<findings::Finding>& out) {
  std::set<std::string> seen_blocks, seen_defs, seen_impls;
  for (const TuRegistrations& tu : tus) {
    for (const LibraryBlock& b : tu.blocks) {
      if (!seen_blocks.insert(location_key(b.where)).second) continue;
      blocks_.emplace_back(&tu, &b);
      if (b.kind != BlockKind::Impl) defined_namespaces_.insert(b.ns);
    }
    for (const OpDef& d : tu.defs) {
      // The same registration seen from several TUs (a header's) is one; a
      // macro that expands a table of m.def(...) puts every entry at the
      // macro's line, so the schema text tells them apart.
      if (d.block >= tu.blocks.size() || !seen_defs.insert(location_key(d.schema.start) + "\n" + d.schema.text).second)
        continue;
      const LibraryBlock& block = tu.blocks[d.block];
      ParseOptions options;
      options.implied_namespace = block.ns;
      DefEntry e{&tu, &d, &block, {}, true, {}};
      auto either = parse_schema_or_name(d.schema.text, options);
      auto* name = std::get_if<0>(&either);
      // m.def("name", &fn): the legacy API infers the schema from fn; the
      // stable API always needs the schema.
      if (!block.stable && name && std::holds_alternative<OperatorName>(*name)) {
        e.has_schema = false;
        e.schema.name = std::get<OperatorName>(*name);
      } else {
        auto tree = diagnose_schema(d.schema.text, origin_of(d.schema), options, out);
        if (!tree) {
          // Remember the name if it reads, so its impls are not reported too.
          auto name = parse_operator_name(d.schema.text.substr(0, d.schema.text.find('(')));
          if (auto* n = std::get_if<OperatorName>(&name)) broken_defs_.insert(block.ns + "::" + n->unqualified());
          continue;
        }
        e.schema = std::move(*tree);
      }
      if (!e.schema.name.ns.empty() && e.schema.name.ns != block.ns) {
        out.push_back(namespace_mismatch(d.schema, e.schema.name.ns, block, "the schema"));
        continue;
      }
      e.qualified = block.ns + "::" + e.schema.name.unqualified();
      defs_by_name_.emplace(e.qualified, defs_.size());
      defs_.push_back(std::move(e));
    }
    for (const OpImpl& i : tu.impls) {
      if (i.block >= tu.blocks.size() || !seen_impls.insert(location_key(i.name.start) + "\n" + i.name.text).second)
        continue;
      const LibraryBlock& block = tu.blocks[i.block];
      auto parsed = parse_operator_name(i.name.text);
      if (auto* err = std::get_if<ParseError>(&parsed)) {
        findings::Finding f;
        f.rule = "schema-parse-error";
        SchemaOrigin o = origin_of(i.name);
        f.location = locate(o, i.name.text, err->offset);
        f.message = "operator name does not parse: " + err->message;
        f.help = "m.impl takes the operator's name (\"op\" or \"op.overload\"), not its schema";
        f.notes = caret_notes(i.name.text, err->offset);
        out.push_back(std::move(f));
        continue;
      }
      const OperatorName& name = std::get<OperatorName>(parsed);
      if (!name.ns.empty() && name.ns != block.ns) {
        out.push_back(namespace_mismatch(i.name, name.ns, block, "the operator name"));
        continue;
      }
      ImplEntry e{&tu, &i, &block, block.ns + "::" + name.unqualified()};
      impls_by_name_.emplace(e.qualified, impls_.size());
      impls_.push_back(std::move(e));
    }
    for (const BoxedKernelBody& k : tu.boxed_kernels) boxed_.emplace(k.function, &k);
  }
}

const DefEntry* RegistrationIndex::def(const std::string& qualified) const {
  auto it = defs_by_name_.find(qualified);
  return it == defs_by_name_.end() ? nullptr : &defs_[it->second];
}

std::vector<const ImplEntry*> RegistrationIndex::impls_of(const std::string& qualified) const {
  std::vector<const ImplEntry*> out;
  auto [b, e] = impls_by_name_.equal_range(qualified);
  for (auto it = b; it != e; ++it) out.push_back(&impls_[it->second]);
  return out;
}

const BoxedKernelBody* RegistrationIndex::boxed_body(const std::string& function) const {
  auto it = boxed_.find(function);
  return it == boxed_.end() ? nullptr : it->second;
}

}  // namespace torchabi::schema
