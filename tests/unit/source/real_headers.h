// Shared by the source tests that read PyTorch's real headers (real_torch.h):
// their release and the releases a target may name, and one `rules import`
// of them per test binary.
#pragma once

#include <string>
#include <vector>

#include "analyzers/source/rules_import.h"
#include "real_torch.h"
#include "test_helpers.h"

namespace torchabi::source::test {

// The headers' own release, read from their version header.
inline TorchVersion real_release() {
  auto v = installed_torch_version(::torchabi::test::real_torch_include());
  return v.value_or(TorchVersion{});
}

// Every release from the stable ABI baseline up to the headers' own.
inline std::vector<TorchVersion> real_targets() {
  std::vector<TorchVersion> out;
  const TorchVersion base = env().stable_apis.baseline(), own = real_release();
  for (TorchVersion v{base.major, base.minor, 0}; v.major == own.major && v <= own; ++v.minor) out.push_back(v);
  return out;
}

inline const ImportedApis& real_import() {
  static const ImportedApis a =
      import_stable_headers(::torchabi::test::real_torch_include(), env().classifier, env().stable_apis.baseline());
  return a;
}

}  // namespace torchabi::source::test
