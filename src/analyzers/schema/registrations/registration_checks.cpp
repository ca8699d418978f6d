#include "analyzers/schema/registrations/registration_checks.h"

#include <yaml-cpp/yaml.h>

#include "analyzers/schema/parser.h"
#include "analyzers/schema/printer.h"
#include "analyzers/schema/registrations/check_context.h"
#include "analyzers/schema/schema_diagnostics.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"

namespace torchabi::schema {

RegistrationEnv RegistrationEnv::load(const inputs::RulesSource& rules) {
  RegistrationEnv env{KernelTypes::load(rules), {}, AtenOps::load(rules), {}};
  const char* path = "schema/dispatch_keys.yaml";
  try {
    YAML::Node keys = YAML::Load(rules.require(path))["keys"];
    if (keys && keys.IsSequence())
      for (const auto& k : keys) env.dispatch_keys.insert(k.as<std::string>());
  } catch (const YAML::Exception& e) {
    throw InputError(path, "malformed: " + e.msg);
  }
  if (env.dispatch_keys.empty()) throw InputError(path, "expected 'keys:', a list of dispatch keys");
  env.view_functions = ViewFunctions::load(rules);
  return env;
}

findings::Location schema_part_location(const DefEntry& def, size_t i, bool is_return) {
  SchemaOrigin origin;
  origin.start = def.def->schema.start;
  origin.positions = def.def->schema.positions;
  origin.exact_columns = !origin.positions.empty();
  SchemaSpans spans;
  ParseOptions options;
  options.implied_namespace = def.block->ns;
  parse_schema(def.def->schema.text, options, &spans);
  const auto& offsets = is_return ? spans.returns : spans.arguments;
  if (i >= offsets.size()) return def.def->schema.start;
  return locate(origin, def.def->schema.text, offsets[i]);
}

const FunctionSchema* schema_of(const RegistrationContext& ctx, const ImplEntry& impl, FunctionSchema& storage) {
  if (const DefEntry* d = ctx.index.def(impl.qualified)) return d->has_schema ? &d->schema : nullptr;
  if (impl.block->ns != "aten") return nullptr;
  const AtenOp* op = ctx.env.aten.find(impl.qualified.substr(6));
  if (!op) return nullptr;
  ParseOptions options;
  options.implied_namespace = "aten";
  auto parsed = parse_schema(op->schema, options);
  if (!std::holds_alternative<FunctionSchema>(parsed)) return nullptr;
  storage = std::get<FunctionSchema>(std::move(parsed));
  return &storage;
}

std::string describe_type(const Type& t) { return to_string(t); }

void partial_view(const RegistrationContext& ctx, findings::Finding& f, const char* missing) {
  if (ctx.whole_project) return;
  f.severity = findings::Severity::Note;
  f.notes.insert(f.notes.begin(), std::string("only some of the project's files were linted (files named on the command "
                                                  "line, or a library left out as legacy by design): the ") +
                                      missing + " may be in a file that was not; lint the whole project with -p BUILD_DIR or "
                                                "check . to know");
}

bool unread_in(const RegistrationContext& ctx, const std::string& ns, bool defs) {
  for (auto [tu, b] : ctx.index.blocks())
    if (b->ns == ns && b->opaque && (!defs || b->kind != BlockKind::Impl)) return true;
  return false;
}

void unread(findings::Finding& f, const std::string& ns, const char* what) {
  f.severity = findings::Severity::Note;
  f.notes.insert(f.notes.begin(), std::string("some ") + what + " of the " + ns +
                                      " library could not be read (built at run time, or registered by a function "
                                      "whose body is not in the linted files): it may be among them");
}

RegistrationOutcome check_registrations(const std::vector<TuRegistrations>& tus, const RegistrationEnv& env,
                                        bool whole_project) {
  RegistrationOutcome out;
  RegistrationIndex index(tus, out.findings);
  RegistrationContext ctx{index, env, out, whole_project};
  check_schema_rules(ctx);
  check_tensorless_kernels(ctx);
  check_stable_types(ctx);
  check_kernels(ctx);
  check_backends(ctx);
  check_torchbind(ctx);
  check_compile_readiness(ctx);
  return out;
}

}  // namespace torchabi::schema
