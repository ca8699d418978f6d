#include "inputs/cuda_libraries.h"

#include <algorithm>
#include <charconv>
#include <mutex>

#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::inputs {

namespace {

constexpr const char* kTable = "binary/cuda_libraries.tsv";

std::optional<int> leading_number(std::string_view s, std::string_view& rest) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  rest = s.substr(size_t(p - s.data()));
  return v;
}

// "N" -> {n}; "11,12" -> {11, 12}; "any" -> {}.
std::optional<std::vector<int>> majors_of(std::string_view cuda, int n) {
  if (cuda == "any") return std::vector<int>{};
  if (cuda == "N") return std::vector<int>{n};
  std::vector<int> out;
  while (!cuda.empty()) {
    std::string_view rest;
    auto v = leading_number(cuda, rest);
    if (!v) return std::nullopt;
    out.push_back(*v);
    cuda = rest.starts_with(",") ? rest.substr(1) : rest;
    if (!rest.empty() && !rest.starts_with(",")) return std::nullopt;
  }
  return out;
}

}  // namespace

CudaLibraries CudaLibraries::load(const RulesSource& rules) {
  CudaLibraries out;
  const std::string label = rules.describe() + "/" + kTable;
  for_each_tsv_row(rules.require(kTable), label, 4, [&](const std::vector<std::string_view>& c, size_t line) {
    Row r;
    std::string_view soname = c[0];
    if (soname.ends_with("{N}")) {
      r.pattern = true;
      soname.remove_suffix(3);
    }
    r.prefix = std::string(soname);
    r.component = std::string(c[1]);
    r.cuda = std::string(c[2]);
    r.source = std::string(c[3]);
    if (r.prefix.empty() || !majors_of(r.cuda, 0) || (r.cuda == "N" && !r.pattern))
      throw InputError(label + ":" + std::to_string(line), "malformed row: soname '" + std::string(c[0]) +
                                                              "', cuda '" + r.cuda + "' (N needs a {N} soname)");
    out.rows_.push_back(std::move(r));
  });
  // Exact names first: they override the pattern of the same library.
  std::stable_partition(out.rows_.begin(), out.rows_.end(), [](const Row& r) { return !r.pattern; });
  return out;
}

const CudaLibraries& CudaLibraries::current() {
  static const CudaLibraries table = load(RulesSource::current());
  return table;
}

std::optional<CudaLibraryNeed> CudaLibraries::classify(std::string_view needed) const {
  for (const auto& r : rows_) {
    int n = 0;
    if (!r.pattern) {
      if (needed != r.prefix) continue;
    } else {
      if (!needed.starts_with(r.prefix)) continue;
      std::string_view rest;
      auto v = leading_number(needed.substr(r.prefix.size()), rest);
      // Only more version numbers may follow: "libcudart.so.11.0", not "libcudart.so.12x".
      if (!v || rest.find_first_not_of("0123456789.") != std::string_view::npos) continue;
      n = *v;
    }
    return CudaLibraryNeed{std::string(needed), r.component, *majors_of(r.cuda, n), r.source};
  }
  return std::nullopt;
}

}  // namespace torchabi::inputs
