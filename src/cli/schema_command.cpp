// `torchabi schema 'SCHEMA'...` and `torchabi schema --file FILE`: reads
// operator schemas the way PyTorch does when an op is registered, so a schema
// that would fail at import time (or whose defaults cannot be meant) is
// reported with the column where it goes wrong.
#include <map>
#include <memory>

#include "analyzers/schema/printer.h"
#include "analyzers/schema/schema_diagnostics.h"
#include "analyzers/schema/schema_file.h"
#include "cli/commands.h"
#include "cli/report_options.h"
#include "common/input_error.h"

namespace torchabi::cli {

namespace {

struct SchemaArgs {
  std::vector<std::string> schemas;
  std::vector<std::string> files;
  std::string ns;
  ReportOptions report;
};

// The first definition of each operator name, to report redefinitions.
class Definitions {
public:
  void add(const schema::FunctionSchema& s, const findings::Location& where,
           std::vector<findings::Finding>& out) {
    std::string name = s.name.qualified();
    auto [it, fresh] = first_.emplace(name, where);
    if (fresh) return;
    findings::Finding f;
    f.rule = "schema-duplicate-def";
    f.location = where;
    f.message = "operator '" + name + "' is defined more than once";
    f.help = "give each overload its own name (name.overload) or remove the repeated definition";
    f.notes.push_back("first defined at " + it->second.display());
    out.push_back(std::move(f));
  }

private:
  std::map<std::string, findings::Location> first_;
};

std::string mutated_arguments(const schema::FunctionSchema& s) {
  std::string out;
  for (const auto& a : s.arguments)
    if (a.is_mutable()) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

void check_command_line_schema(const std::string& text, size_t index, const schema::ParseOptions& options,
                               Definitions& defs, findings::Report& report) {
  schema::SchemaOrigin origin;
  origin.start.file = "<schema " + std::to_string(index + 1) + ">";
  origin.start.line = 1;
  origin.start.column = 1;
  auto tree = schema::diagnose_schema(text, origin, options, report.findings);
  findings::Subject s;
  s.kind = "schema";
  s.path = tree ? tree->name.qualified() : origin.start.file;
  s.verdict = tree ? "VALID" : "INVALID";
  if (tree) {
    defs.add(*tree, origin.start, report.findings);
    s.facts.emplace_back("schema", schema::to_string(*tree));
    if (std::string m = mutated_arguments(*tree); !m.empty()) s.facts.emplace_back("mutates", m);
  }
  report.subjects.push_back(std::move(s));
}

void check_schema_file(const std::string& path, const SchemaArgs& a, Definitions& defs,
                       findings::Report& report) {
  std::vector<schema::SchemaEntry> entries;
  try {
    entries = schema::read_schema_file(path);
  } catch (const InputError& e) {
    report.failures.push_back({path, e.what()});
    return;
  }
  schema::ParseOptions options;
  // native_functions.yaml defines aten's ops; its schemas carry no namespace.
  options.implied_namespace = !a.ns.empty() ? a.ns : schema::is_yaml_schema_file(path) ? "aten" : "";
  size_t before = report.findings.size(), invalid = 0;
  for (const auto& e : entries) {
    schema::SchemaOrigin origin;
    origin.start = {path, e.line, e.column, "", ""};
    origin.exact_columns = e.exact_columns;
    auto tree = schema::diagnose_schema(e.text, origin, options, report.findings);
    if (tree) defs.add(*tree, origin.start, report.findings);
    else ++invalid;
  }
  findings::Subject s;
  s.kind = "schema file";
  s.path = path;
  s.verdict = invalid == 0 ? "VALID" : "INVALID";
  s.facts.emplace_back("schemas", std::to_string(entries.size()));
  s.facts.emplace_back("rejected", std::to_string(invalid));
  s.facts.emplace_back("findings", std::to_string(report.findings.size() - before));
  report.subjects.push_back(std::move(s));
}

int run(const SchemaArgs& a) {
  validate_report_options(a.report);
  if (a.schemas.empty() && a.files.empty())
    throw InputError("schema", "give at least one SCHEMA argument or --file FILE");
  findings::Report report;
  report.command = "schema";
  Definitions defs;
  schema::ParseOptions options;
  options.implied_namespace = a.ns;
  for (size_t i = 0; i < a.schemas.size(); ++i)
    check_command_line_schema(a.schemas[i], i, options, defs, report);
  for (const auto& path : a.files) check_schema_file(path, a, defs, report);
  return finish_report(report, a.report, a.files);
}

}  // namespace

void add_schema_command(CLI::App& app, Dispatch& d) {
  auto* cmd = app.add_subcommand(
      "schema", "Check operator schemas (as given to m.def or in native_functions.yaml) the way PyTorch parses them");
  auto args = std::make_shared<SchemaArgs>();
  cmd->add_option("SCHEMA", args->schemas, "Schemas such as 'myops::f(Tensor x, *, int n=1) -> Tensor'");
  cmd->add_option("--file", args->files,
                  "A native_functions.yaml-style YAML file (its func: entries), or a text file with one schema per line")
      ->allow_extra_args(false);
  cmd->add_option("--namespace", args->ns,
                  "Namespace the schemas are registered in when they name none (TORCH_LIBRARY(ns, m)); "
                  "default for YAML files: aten");
  add_report_options(*cmd, args->report);
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
