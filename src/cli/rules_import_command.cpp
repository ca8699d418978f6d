// `torchabi rules import --torch-include DIR -o OUT`: a rules directory whose
// stable API facts come from an installed torch's own headers, for
// `torchabi --rules-dir OUT ...`. `--cxx-table FILE` also writes the C++ API
// table as the headers alone date it (scripts/build-cxx-rules.sh ships it as
// rules/api/stable_cxx_apis.tsv). Registered under the `rules` command.
#include <iostream>
#include <memory>

#include "analyzers/source/lint_env.h"
#include "analyzers/source/rules_import.h"
#include "cli/commands.h"
#include "common/atomic_file.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/rules_source.h"

namespace torchabi::cli {

namespace {

struct ImportArgs {
  std::string torch_include;
  std::string output;
  std::string cxx_table;
};

int run(const ImportArgs& a) {
  if (a.output.empty() && a.cxx_table.empty())
    throw InputError("rules import", "nothing to write: give -o DIR (a rules directory) and/or --cxx-table FILE");
  const auto& src = inputs::RulesSource::current();
  const auto& catalog = inputs::ApiCatalog::current();
  auto classifier = source::HeaderClassifier::load(src);
  source::ImportedApis apis = source::import_stable_headers(a.torch_include, classifier, catalog.baseline());
  if (!a.output.empty()) source::write_imported_rules(a.output, apis, src, catalog);
  if (!a.cxx_table.empty()) {
    try {
      write_file_atomically(a.cxx_table, source::imported_cxx_tsv(apis));
    } catch (const std::exception& e) {
      throw InputError(a.cxx_table, std::string("cannot write the C++ API table: ") + e.what());
    }
  }
  size_t newer = 0;
  for (const auto& f : apis.c_functions) newer += f.api.baseline ? 0 : 1;
  for (const auto& x : apis.cxx) newer += x.baseline ? 0 : 1;
  std::cout << "imported " << apis.c_functions.size() << " stable C functions and types and " << apis.cxx.size()
            << " stable C++ APIs and macros (" << newer << " introduced after " << catalog.baseline().str() << ") from "
            << apis.headers.size() << " headers in " << apis.include_dir;
  if (apis.torch_version) std::cout << " (torch " << apis.torch_version->str() << ")";
  if (!apis.targets_parsed.empty()) {
    std::cout << "; also parsed at TORCH_TARGET_VERSION";
    for (const auto& t : apis.targets_parsed) std::cout << " " << t.str();
    std::cout << " for declarations only older targets see";
  }
  std::cout << "\n";
  if (!a.output.empty()) std::cout << "wrote " << a.output << "; use it with: torchabi --rules-dir " << a.output << " lint ...\n";
  if (!a.cxx_table.empty()) std::cout << "wrote " << a.cxx_table << "\n";
  if (apis.parse_errors > 0)
    std::cerr << "torchabi: note: " << apis.parse_errors
              << " parse errors in the stable headers (missing optional dependencies such as cuda.h); declarations "
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
  cmd->add_option("-o,--output", args->output, "Rules directory to write (for --rules-dir)");
  cmd->add_option("--cxx-table", args->cxx_table,
                  "Also write the C++ API table as the headers alone date it (stable_cxx_apis.tsv format)");
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
