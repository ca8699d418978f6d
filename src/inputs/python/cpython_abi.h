// CPython's stable ABI (rules/python/stable_abi.tsv): which C API symbols an
// abi3 extension module may import, and from which CPython release on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace torchabi::inputs {

class RulesSource;

// A CPython feature release: 3.9, 3.12.
struct PythonVersion {
  int major = 3;
  int minor = 0;
  auto operator<=>(const PythonVersion&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  // "3.9"; nullopt otherwise.
  static std::optional<PythonVersion> parse(std::string_view text);
};

struct StableAbiSymbol {
  // The releases it may have joined in: equal when CPython documents it; a
  // range when only its presence in a release's list bounds it.
  PythonVersion added_min, added_max;
  std::string platform;  // a feature macro ("MS_WINDOWS"), empty: every build
};

class CPythonStableAbi {
public:
  // Throws InputError when the table is missing or malformed.
  static CPythonStableAbi load(const RulesSource& src);
  // Loaded once from RulesSource::current().
  static const CPythonStableAbi& current();

  const StableAbiSymbol* find(std::string_view symbol) const;
  size_t size() const { return symbols_.size(); }

private:
  std::unordered_map<std::string, StableAbiSymbol> symbols_;
};

// A name the CPython C API exports: "Py..." or "_Py..." (PyInit_* aside,
// which a module defines rather than imports).
bool is_python_c_api_symbol(std::string_view name);

}  // namespace torchabi::inputs
