// Decodes a C++ string literal as written in the source ("a\tb", R"(x)",
// "a" "b", u8"x") and remembers, for every byte of the value, the byte of the
// source it came from: a schema error's column then points into the file
// even when the schema is split over several literals or uses escapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::schema {

struct DecodedLiteral {
  std::string value;
  std::vector<uint32_t> source_offsets;  // one per byte of value, offsets into the written text
};

// nullopt when `written` is not one or more string literals (a macro name,
// a variable).
std::optional<DecodedLiteral> decode_cpp_string_literal(std::string_view written);

}  // namespace torchabi::schema
