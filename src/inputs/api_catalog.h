// What torchabi knows about PyTorch's stable ABI, read from rules/api/:
// the stable C functions with the release that introduced each, the known
// releases, and which C++ namespaces are stable.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/version.h"

namespace torchabi::inputs {

class RulesSource;

struct CFunction {
  std::string name;
  TorchVersion since;       // for baseline entries: the catalog baseline (2.9)
  bool baseline = false;    // "<=2.9": available in 2.9 or earlier
  bool is_type = false;     // a handle/typedef name rather than an entry point
  bool dlopen_export = false;
  std::string header;       // "-" when unknown
  std::string prototype;    // "-" when unknown; for a type its declaration ("struct X", "using X = T")
  // Who provides it (all "-" when unknown or header-only C++): the shim's
  // backend (common, aten, cpu, cuda, mps, xpu), the libtorch library that
  // defines it, and the build options it needs ("USE_CUDA", "AT_MKLDNN_ENABLED()").
  std::string backend = "-";
  std::string library = "-";
  std::string build_condition = "-";

  // "2.12" or "<=2.9"
  std::string since_label() const;
};

enum class NamespaceKind { Stable, Unstable, Other };

struct NamespaceMatch {
  NamespaceKind kind = NamespaceKind::Other;
  std::string ns;  // the matching namespace, e.g. "c10" or "torch::stable"
  std::string why;
};

// Splits a C++ qualified name at top-level "::" (not inside <...> or (...)).
// "std::vector<at::Tensor>::size" -> {"std", "vector<at::Tensor>", "size"}.
std::vector<std::string_view> split_qualified(std::string_view name);

class ApiCatalog {
public:
  // Throws InputError when the rules are malformed.
  static ApiCatalog load(const RulesSource& src);
  // The catalog for RulesSource::current(), loaded once.
  static const ApiCatalog& current();

  const CFunction* find_c(std::string_view name) const;
  const std::vector<CFunction>& c_functions() const { return functions_; }

  // Symbols that look like shim entry points (aoti_torch_*, torch_*), whether or not we know them.
  static bool looks_like_shim(std::string_view symbol);

  // Classifies a qualified C++ name (a declaration context such as
  // "c10::TensorImpl" or "torch::stable::Tensor") by its namespaces.
  NamespaceMatch classify(std::string_view qualified_name) const;

  // The first component of every namespace namespaces.yaml classifies
  // ("torch", "at", "c10", ...), in the file's order.
  std::vector<std::string> namespace_roots() const;

  TorchVersion baseline() const { return baseline_; }
  TorchVersion latest() const { return latest_; }
  const std::vector<TorchVersion>& releases() const { return releases_; }

private:
  struct NsEntry {
    std::vector<std::string> components;
    NamespaceKind kind;
    std::string name, why;
  };
  std::vector<CFunction> functions_;
  std::unordered_map<std::string, size_t> by_name_;
  std::vector<NsEntry> namespaces_;
  TorchVersion baseline_, latest_;
  std::vector<TorchVersion> releases_;
};

}  // namespace torchabi::inputs
