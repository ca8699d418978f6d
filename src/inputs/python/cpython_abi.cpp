#include "inputs/python/cpython_abi.h"

#include <charconv>

#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::inputs {

std::optional<PythonVersion> PythonVersion::parse(std::string_view text) {
  PythonVersion v;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v.major);
  if (ec != std::errc() || p == end || *p != '.') return std::nullopt;
  auto [q, ec2] = std::from_chars(p + 1, end, v.minor);
  if (ec2 != std::errc() || q != end) return std::nullopt;
  return v;
}

CPythonStableAbi CPythonStableAbi::load(const RulesSource& src) {
  const std::string file = "python/stable_abi.tsv";
  CPythonStableAbi abi;
  for_each_tsv_row(src.require(file), file, 3, [&](const std::vector<std::string_view>& c, size_t line) {
    const auto lo = PythonVersion::parse(c[1]), hi = PythonVersion::parse(c[2]);
    if (!lo || !hi || *hi < *lo)
      throw InputError(file + ":" + std::to_string(line), "bad release range '" + std::string(c[1]) + "'..'" +
                                                              std::string(c[2]) + "'");
    abi.symbols_[std::string(c[0])] = {*lo, *hi, c.size() > 3 ? std::string(c[3]) : std::string()};
  });
  if (abi.symbols_.empty()) throw InputError(file, "no symbols");
  return abi;
}

const CPythonStableAbi& CPythonStableAbi::current() {
  static const CPythonStableAbi abi = load(RulesSource::current());
  return abi;
}

const StableAbiSymbol* CPythonStableAbi::find(std::string_view symbol) const {
  auto it = symbols_.find(std::string(symbol));
  return it == symbols_.end() ? nullptr : &it->second;
}

bool is_python_c_api_symbol(std::string_view name) {
  if (name.starts_with("PyInit_")) return false;
  return name.starts_with("Py") || name.starts_with("_Py");
}

}  // namespace torchabi::inputs
