// `torchabi rules import --torch-include DIR`: reads an installed torch's
// stable headers with libclang (the C shim headers, the generated
// c_shim_*.h, torch/csrc/stable/*.h and what they include from
// torch/headeronly) and records every stable C function and torch::stable /
// torch::headeronly C++ API and stable macro, each with the
// TORCH_FEATURE_VERSION guard that introduces it. The result is written as a
// complete rules directory for --rules-dir, so torchabi is never older than
// the user's PyTorch; lint does the same automatically for the torch include
// directory in the compile flags.
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
  size_t parse_errors = 0;
};

// True when DIR/torch/csrc/stable exists.
bool has_stable_headers(const std::string& include_dir);

// The stable headers under DIR an import parses, absolute, sorted.
std::vector<std::string> stable_header_files(const std::string& include_dir);

// Throws InputError naming DIR when it holds no stable headers or libclang
// cannot parse them at all.
ImportedApis import_stable_headers(const std::string& include_dir, const HeaderClassifier& classifier,
                                   TorchVersion baseline);

std::string imported_to_json(const ImportedApis& apis);
ImportedApis imported_from_json(const std::string& json);  // throws std::runtime_error

// Overlays the imported facts on an index (imported guards win).
void merge_imported(StableApiIndex& index, const ImportedApis& apis);

// Writes `base` with the imported facts merged into api/stable_c_functions.tsv
// and api/stable_cxx_apis.tsv, plus api/imported.yaml describing the import.
// The directory appears complete or not at all. Throws InputError when
// `out_dir` exists and is neither empty nor an earlier import.
void write_imported_rules(const std::string& out_dir, const ImportedApis& apis, const inputs::RulesSource& base,
                          const inputs::ApiCatalog& shipped);

}  // namespace torchabi::source
