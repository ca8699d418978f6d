// Everything lint reads from rules/ (and from the user's own torch headers),
// loaded once in the parent process before TUs are analysed in children.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/source/header_classifier.h"
#include "analyzers/source/replacements.h"
#include "analyzers/source/source_model.h"
#include "analyzers/source/stable_api_index.h"
#include "analyzers/source/version_macros.h"
#include "inputs/aten_ops.h"
#include "common/version.h"

namespace torchabi::inputs {
class ApiCatalog;
class RulesSource;
}  // namespace torchabi::inputs

namespace torchabi::source {

// The oldest PyTorch the project states it supports, and who states it.
struct TorchPromise {
  TorchVersion release;
  std::string origin;  // "pyproject.toml ('torch>=2.10')"
};

struct LintEnv {
  const inputs::ApiCatalog* catalog = nullptr;
  HeaderClassifier classifier;
  Replacements replacements;
  StableApiIndex stable_apis;
  // The release each version macro of the stable headers first appears in.
  VersionMacros version_macros;
  // ATen's operator schemas, for calls through the dispatcher by name.
  inputs::AtenOps aten_ops;
  // Digest of every rules input (rules/ files, imported torch headers): part
  // of each cached result's key, so editing a rule invalidates the cache.
  std::string digest;
  // Torch include directories whose stable headers were imported.
  std::vector<std::string> imported_from;
  // Set by the command from the project's files; part of the digest
  // (set_promise), since findings' severities depend on it.
  std::optional<TorchPromise> promise;
  void set_promise(std::optional<TorchPromise> p);

  // Throws InputError when the rules are malformed. A non-empty `cache_dir`
  // keeps pre-parsed rules there (replacements_cache.h).
  static LintEnv load(const inputs::RulesSource& src, const inputs::ApiCatalog& catalog,
                      const std::string& cache_dir = {});
};

enum class ApiClass { Stable, Unstable, Other };

// Whether a referenced declaration is stable ABI, unstable PyTorch API, or
// neither. The declaring header decides first (header-only c10:: code in
// torch/headeronly is stable; anything from ATen/ or c10/ headers is not),
// then the namespace, then the C shim catalog for global C functions.
ApiClass classify_reference(const Reference& ref, const LintEnv& env);

// 64-bit FNV-1a, hex: cheap content digests for cache keys.
std::string digest_hex(std::string_view data, uint64_t seed = 1469598103934665603ull);

}  // namespace torchabi::source
