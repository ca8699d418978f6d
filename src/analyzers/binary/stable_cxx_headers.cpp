#include "analyzers/binary/stable_cxx_headers.h"

#include <unordered_map>

#include "inputs/rules_source.h"
#include "inputs/tsv_rows.h"

namespace torchabi::binary {

namespace {

const std::unordered_map<std::string, std::string>& declaring_headers() {
  static const std::unordered_map<std::string, std::string> by_name = [] {
    std::unordered_map<std::string, std::string> m;
    const std::string rel = "api/stable_cxx_apis.tsv";
    const auto text = inputs::RulesSource::current().read(rel);
    if (!text) return m;
    inputs::for_each_tsv_row(*text, rel, 4, [&](const std::vector<std::string_view>& cols, size_t) {
      if (cols[3] != "-") m.emplace(std::string(cols[0]), std::string(cols[3]));
    });
    return m;
  }();
  return by_name;
}

}  // namespace

std::string stable_header_to_include(std::string_view qualified) {
  const auto& headers = declaring_headers();
  // A member unknown to the rules is found through its class.
  std::string name(qualified);
  std::string header;
  while (!name.empty()) {
    if (auto it = headers.find(name); it != headers.end()) {
      header = it->second;
      break;
    }
    const size_t sep = name.rfind("::");
    if (sep == std::string::npos) break;
    name.resize(sep);
  }
  constexpr std::string_view kStruct = "_struct.h";
  if (header.ends_with(kStruct)) header = header.substr(0, header.size() - kStruct.size()) + ".h";
  return header;
}

}  // namespace torchabi::binary
