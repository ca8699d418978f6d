// What torchabi knows about PyTorch's stable ABI, read from rules/api/:
// the stable C functions with the release that introduced each, the known
// releases, and which C++ namespaces are stable.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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

  ApiCatalog(ApiCatalog&&) = default;
  ~ApiCatalog();

  // The row of that name (the first one), built on first use; stable while
  // the catalog lives. Any thread may call.
  const CFunction* find_c(std::string_view name) const;
  // Every row, in the file's order (built on the first call).
  const std::vector<CFunction>& c_functions() const;

  // Symbols that look like shim entry points (aoti_torch_*, torch_*), whether or not we know them.
  static bool looks_like_shim(std::string_view symbol);

  // Classifies a qualified C++ name (a declaration context such as
  // "c10::TensorImpl" or "torch::stable::Tensor") by its namespaces.
  NamespaceMatch classify(std::string_view qualified_name) const;

  // Every namespace namespaces.yaml classifies: the stable ones, then the
  // unstable ones, each list in the file's order.
  std::vector<NamespaceMatch> namespaces() const;

  // The first component of every namespace namespaces.yaml classifies
  // ("torch", "at", "c10", ...), in the file's order.
  std::vector<std::string> namespace_roots() const;

  // For the build-time precompiler (inputs/precompiled_rules.h): the table's
  // size, each row's offset and length in it, and the rows in name order.
  size_t table_bytes() const { return text_.size(); }
  std::vector<std::pair<unsigned, unsigned>> row_spans() const;
  std::vector<unsigned> rows_by_name() const;

  TorchVersion baseline() const { return baseline_; }
  TorchVersion latest() const { return latest_; }
  const std::vector<TorchVersion>& releases() const { return releases_; }

private:
  struct NsEntry {
    std::vector<std::string> components;
    NamespaceKind kind;
    std::string name, why;
  };
  ApiCatalog() = default;
  struct NameRow {
    std::string_view name;
    uint32_t row;
  };
  static size_t split_row(std::string_view line, std::string_view (&cols)[9]);
  static CFunction parse_row(std::string_view line);
  const CFunction& row(uint32_t i) const;

  // The table's text: the embedded rules' bytes, or owned (--rules-dir).
  std::shared_ptr<const std::string> owned_text_;
  std::string_view text_;
  std::vector<std::string_view> rows_;  // each checked by load()
  std::vector<NameRow> by_name_;        // sorted by name
  std::unique_ptr<std::atomic<const CFunction*>[]> built_;  // per row, once asked for
  std::unique_ptr<std::once_flag> all_once_;
  mutable std::vector<CFunction> functions_;  // c_functions(), built once
  std::vector<NsEntry> namespaces_;
  TorchVersion baseline_, latest_;
  std::vector<TorchVersion> releases_;
};

}  // namespace torchabi::inputs
