// `torchabi rules import --torch-include DIR`: reads an installed torch's
// stable headers with libclang (every header rules/api/headers.yaml calls
// stable: torch/csrc/stable/**, torch/headeronly/**, the C shim headers and
// the generated c_shim_*.h) and records every stable C function and
// torch::stable / torch::headeronly C++ API and stable macro, each with the
// release from which the headers declare it: the lowest TORCH_FEATURE_VERSION
// for which the guards around a declaration compile it (feature_guards.h);
// for a name with several declarations, the oldest. Declarations that only
// older targets see (`#if TORCH_FEATURE_VERSION < ...`, `#else` branches)
// are found by parsing again at such a target. The result is written as a
// complete rules directory for --rules-dir, so torchabi is never older than
// the user's PyTorch; lint does the same automatically for the torch include
// directory in the compile flags, and scripts/build-cxx-rules.sh derives the
// shipped rules/api/stable_cxx_apis.tsv this way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/source/header_classifier.h"
#include "analyzers/source/stable_api_index.h"
#include "common/version.h"

namespace torchabi::inputs {
class ApiCatalog;
class RulesSource;
}  // namespace torchabi::inputs

namespace torchabi::source {

struct ImportedCFunction {
  StableApi api;
  std::string prototype;  // "-" for types
};

struct ImportedApis {
  std::string include_dir;
  std::optional<TorchVersion> torch_version;  // from the headers' TORCH_VERSION_MAJOR/MINOR
  std::vector<ImportedCFunction> c_functions;
  std::vector<StableApi> cxx;  // C++ names and macros
  std::vector<std::string> headers;  // include-relative names of the headers parsed
  size_t parse_errors = 0;            // of the parse at the headers' own version
  // The headers #define TORCH_FEATURE_VERSION: their guards date every API
  // (a declaration outside any guard is baseline). False for torch <= 2.9.
  bool versioned = false;
  std::vector<TorchVersion> targets_parsed;  // older TORCH_TARGET_VERSIONs parsed as well
};

// Bumped whenever the same headers would import differently (cache keys).
inline constexpr const char* kImportFormat = "import-v2";

// True when DIR/torch/csrc/stable exists.
bool has_stable_headers(const std::string& include_dir);

// The stable headers under DIR an import parses, absolute, sorted.
std::vector<std::string> stable_header_files(const std::string& include_dir, const HeaderClassifier& classifier);

// The release of the torch installed under DIR, from its version header
// (TORCH_VERSION_MAJOR / _MINOR); nullopt when there is none.
std::optional<TorchVersion> installed_torch_version(const std::string& include_dir);

// Throws InputError naming DIR when it holds no stable headers or libclang
// cannot parse them at all.
ImportedApis import_stable_headers(const std::string& include_dir, const HeaderClassifier& classifier,
                                   TorchVersion baseline);

// The C++ names and macros as the headers alone date them, in the format of
// rules/api/stable_cxx_apis.tsv (sorted by name): what
// scripts/build-cxx-rules.sh ships as that file.
std::string imported_cxx_tsv(const ImportedApis& apis);

std::string imported_to_json(const ImportedApis& apis);
ImportedApis imported_from_json(const std::string& json);  // throws std::runtime_error

// Overlays the imported facts on an index. Dates from versioned headers win;
// from headers without TORCH_FEATURE_VERSION, where nothing is guarded, a
// later release the index knows for a name is kept.
void merge_imported(StableApiIndex& index, const ImportedApis& apis);

// Writes `base` with the imported facts merged into api/stable_c_functions.tsv
// and api/stable_cxx_apis.tsv, plus api/imported.yaml describing the import.
// The directory appears complete or not at all. Throws InputError when
// `out_dir` exists and is neither empty nor an earlier import.
// What an import from a whole install (`rules import --torch PATH`) adds to
// what its headers say.
struct InstallFacts {
  std::string install;  // the PATH given
  std::string release;  // as the install states it
  // rules/schema/aten_ops.tsv from the install's native_functions.yaml; empty: keep the base rules' file.
  std::string aten_ops_tsv;
  // C shim functions the install's libraries export that neither the headers
  // nor the rules know: catalog rows dated to the install's release.
  struct Export {
    std::string name, library;
  };
  std::vector<Export> unknown_exports;
};

void write_imported_rules(const std::string& out_dir, const ImportedApis& apis, const inputs::RulesSource& base,
                          const inputs::ApiCatalog& shipped, const InstallFacts* install = nullptr);

}  // namespace torchabi::source
