// `torchabi rules import --torch-include DIR -o OUT`: a rules directory whose
// stable API facts come from an installed torch's own headers, for
// `torchabi --rules-dir OUT ...`. `--torch PATH` reads a whole install: its
// headers, its operator schemas (torchgen's native_functions.yaml) and the
// shim functions its libraries export. `--cxx-table FILE` also writes the C++ API
// table as the headers alone date it (scripts/build-cxx-rules.sh ships it as
// rules/api/stable_cxx_apis.tsv). Registered under the `rules` command.
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "analyzers/binary/torch_audit.h"
#include "analyzers/source/lint_env.h"
#include "analyzers/source/rules_import.h"
#include "cli/commands.h"
#include "common/atomic_file.h"
#include "common/input_error.h"
#include "inputs/api_catalog.h"
#include "inputs/native_functions.h"
#include "inputs/rules_source.h"
#include "inputs/torch_install.h"
#include "inputs/torch_install_files.h"

namespace torchabi::cli {

namespace {

struct ImportArgs {
  std::string torch;
  std::string torch_include;
  std::string output;
  std::string cxx_table;
};

// The install's release, schemas and exported shims; its include directory.
source::InstallFacts read_install(const std::string& path, const inputs::ApiCatalog& catalog, std::string& include_dir) {
  auto install = inputs::TorchInstall::open(path, binary::torch_library_names(inputs::RulesSource::current()));
  if (install->kind() == inputs::TorchInstall::Kind::Wheel)
    throw InputError(path, "a wheel's headers cannot be parsed in place; unpack it (python3 -m zipfile -e WHEEL DIR) "
                           "and give DIR/torch");
  const inputs::TorchInstallFiles files = inputs::locate_torch_install_files(path);
  if (files.include_dir.empty())
    throw InputError(path, "no stable headers (include/torch/csrc/stable) in or above this PyTorch install");
  include_dir = files.include_dir;
  source::InstallFacts facts;
  facts.install = path;
  facts.release = install->release() ? install->release()->str() : "unknown";
  if (!files.native_functions.empty())
    facts.aten_ops_tsv = inputs::aten_ops_tsv(inputs::read_native_functions(files.native_functions), facts.release,
                                              files.native_functions);
  std::set<std::string> seen;
  for (size_t i = 0; i < install->size(); ++i) {
    const inputs::TorchLibrary& lib = install->load(i);
    for (const auto& sym : lib.exports.symbols()) {
      if (!(sym.name.starts_with("aoti_torch_") || sym.name.starts_with("torch_"))) continue;
      if (catalog.find_c(sym.name) || !seen.insert(std::string(sym.name)).second) continue;
      facts.unknown_exports.push_back({std::string(sym.name), lib.stem});
    }
  }
  return facts;
}

int run(const ImportArgs& a) {
  if (a.output.empty() && a.cxx_table.empty())
    throw InputError("rules import", "nothing to write: give -o DIR (a rules directory) and/or --cxx-table FILE");
  if (a.torch.empty() == a.torch_include.empty())
    throw InputError("rules import", "give either --torch PATH (an install) or --torch-include DIR (its headers)");
  const auto& src = inputs::RulesSource::current();
  const auto& catalog = inputs::ApiCatalog::current();
  std::string include_dir = a.torch_include;
  std::optional<source::InstallFacts> install;
  if (!a.torch.empty()) install = read_install(a.torch, catalog, include_dir);
  auto classifier = source::HeaderClassifier::load(src);
  source::ImportedApis apis = source::import_stable_headers(include_dir, classifier, catalog.baseline());
  if (!a.output.empty()) source::write_imported_rules(a.output, apis, src, catalog, install ? &*install : nullptr);
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
  if (install)
    std::cout << "from the install " << install->install << " (torch " << install->release << "): "
              << (install->aten_ops_tsv.empty() ? std::string("no native_functions.yaml (the base rules' ATen operators are kept)")
                                                : std::string("its ATen operator schemas"))
              << "; " << install->unknown_exports.size() << " exported shim functions no header declares\n";
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
  auto* cmd = rules->add_subcommand("import", "Read an installed torch (headers, schemas, exports) into a rules directory");
  auto args = std::make_shared<ImportArgs>();
  cmd->add_option("--torch", args->torch,
                  "A PyTorch install: site-packages/torch, a libtorch directory, or a directory of its libraries; "
                  "its headers, native_functions.yaml and exported shims are read");
  cmd->add_option("--torch-include", args->torch_include, "torch's include directory (holding torch/csrc/stable/): "
                                                          "its headers only");
  cmd->add_option("-o,--output", args->output, "Rules directory to write (for --rules-dir)");
  cmd->add_option("--cxx-table", args->cxx_table,
                  "Also write the C++ API table as the headers alone date it (stable_cxx_apis.tsv format)");
  cmd->callback([&d, args] { d.run = [args] { return run(*args); }; });
}

}  // namespace torchabi::cli
