// `torchabi rules import --torch-include DIR -o OUT`: a rules directory whose
// stable API facts come from an installed torch's own headers, for
// `torchabi --rules-dir OUT ...`. Registered under the `rules` command.
#include <iostream>
#include <memory>

#include "analyzers/source/lint_env.h"
#include "analyzers/source/rules_import.h"
#include "cli/commands.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

namespace {

struct ImportArgs {
  std::string torch_include;
  std::string output;
};

int run(const ImportArgs& a) {
  const auto& src = inputs::RulesSource::current();
  const auto& catalog = inputs::ApiCatalog::current();
  auto classifier = source::HeaderClassifier::load(src);
  source::ImportedApis apis = source::import_stable_headers(a.torch_include, classifier, catalog.baseline());
  source::write_imported_rules(a.output, apis, src, catalog);
  size_t newer = 0;
  for (const auto& f : apis.c_functions) newer += f.api.baseline ? 0 : 1;
  for (const auto& x : apis.cxx) newer += x.baseline ? 0 : 1;
  std::cout << "imported " << apis.c_functions.size() << " stable C functions and types and " << apis.cxx.size()
            << " stable C++ APIs and macros (" << newer << " introduced after " << catalog.baseline().str() << ") from "
            << apis.headers.size() << " headers in " << apis.include_dir;
  if (apis.torch_version) std::cout << " (torch " << apis.torch_version->str() << ")";
  std::cout << "\nwrote " << a.output << "; use it with: torchabi --rules-dir " << a.output << " lint ...\n";
  if (apis.parse_errors > 0)
    std::cerr << "torchabi: note: " << apis.parse_errors
              << " parse errors in the stable headers (missing optional dependencies such as Python.h); declarations "
                 "clang could read were imported\n";
  return 0;
}

}  // namespace

void add_rules_import_command(CLI::App& app, Dispatch& d) {
  CLI::App* rules = app.get_subcommand("rules");
  auto* cmd = rules->add_subcommand("import", "Read an installed torch's stable headers into a rules directory");
  auto args = std::make_shared<ImportArgs>();
  cmd->add_option("--torch-include", args->torch_include, "torch's include directory (holding torch/csrc/stable/)")
      ->required();
  cmd->add_option("-o,--output", args->output, "Rules directory to write (for --rules-dir)")->required();
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
