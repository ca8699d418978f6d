#include "common/json_io.h"

#include <istream>
#include <iterator>

namespace torchabi::json_io {

nlohmann::json parse(std::string_view text) { return nlohmann::json::parse(text); }

nlohmann::json parse(std::istream& in) {
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return nlohmann::json::parse(text);
}

nlohmann::json parse_or_discarded(std::string_view text) { return nlohmann::json::parse(text, nullptr, false); }

// Strings that are not UTF-8 (file names are bytes) would make dump() throw
// type_error 316; they are replaced (U+FFFD) instead. Reporters that must keep
// such bytes carry them escaped beside the string (reporters/path_bytes.h).
std::string dump(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string dump_lossy(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace torchabi::json_io
