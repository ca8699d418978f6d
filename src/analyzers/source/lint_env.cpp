#include "analyzers/source/lint_env.h"

#include <cstdio>

#include "inputs/api_catalog.h"
#include "analyzers/source/replacements_cache.h"
#include "inputs/rules_source.h"

namespace torchabi::source {

std::string digest_hex(std::string_view data, uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

LintEnv LintEnv::load(const inputs::RulesSource& src, const inputs::ApiCatalog& catalog,
                      const std::string& cache_dir) {
  LintEnv env;
  env.catalog = &catalog;
  env.classifier = HeaderClassifier::load(src);
  env.replacements = load_replacements_cached(src, cache_dir);
  env.stable_apis = StableApiIndex::load(src, catalog);
  env.version_macros = VersionMacros::load(src);
  env.aten_ops = inputs::AtenOps::load(src);
  std::string all;
  for (const auto& rel : src.list("")) {
    all += rel;
    all += '\0';
    all += src.read(rel).value_or("");
  }
  env.digest = digest_hex(all);
  return env;
}

ApiClass classify_reference(const Reference& ref, const LintEnv& env) {
  if (ref.decl_kind == HeaderKind::Stable) return ApiClass::Stable;
  if (ref.decl_kind == HeaderKind::Unstable) {
    // The standard library's names are never PyTorch's, even when a torch
    // header specialises one of their templates.
    if (ref.qualified.starts_with("std::")) return ApiClass::Other;
    return ApiClass::Unstable;
  }
  auto ns = env.catalog->classify(ref.qualified);
  if (ns.kind == inputs::NamespaceKind::Stable) return ApiClass::Stable;
  if (ns.kind == inputs::NamespaceKind::Unstable && ref.qualified.find("::") != std::string::npos)
    return ApiClass::Unstable;
  if (ref.qualified.find("::") == std::string::npos && env.catalog->find_c(ref.qualified)) return ApiClass::Stable;
  return ApiClass::Other;
}

void LintEnv::set_promise(std::optional<TorchPromise> p) {
  promise = std::move(p);
  if (promise) digest = digest_hex(digest + "\npromise " + promise->release.hex() + " " + promise->origin);
}

}  // namespace torchabi::source
