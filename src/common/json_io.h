// Reading and writing JSON text. nlohmann/json's lexer, parser and
// serializer are templates that cost about 4 s of -O2 code generation in
// every translation unit (or unity batch) that calls json::parse or dump()
// (bench/build); calling them only through these functions instantiates them
// once, in json_io.cpp. Building and reading json values stays inline.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace torchabi::json_io {

// The value `text` holds; throws nlohmann::json::parse_error when it is not JSON.
nlohmann::json parse(std::string_view text);
// The same for the rest of `in`, read whole first (parsing a string is much
// faster than parsing a stream).
nlohmann::json parse(std::istream& in);

// The value `text` holds, or a discarded value (is_discarded()) when it is not JSON.
nlohmann::json parse_or_discarded(std::string_view text);

// `j` as text: compact (indent < 0) or indented by `indent` spaces per level.
// Invalid UTF-8 in strings is replaced by U+FFFD, never thrown: reports that
// must keep a file name's exact bytes carry them beside the string
// (reporters/path_bytes.h).
std::string dump(const nlohmann::json& j, int indent = -1);

// `j` compact on one line, with invalid UTF-8 in strings replaced by U+FFFD
// (for text that came from a child process or a binary).
std::string dump_lossy(const nlohmann::json& j);

}  // namespace torchabi::json_io
