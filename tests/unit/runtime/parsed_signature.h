// The runtime's signature of a schema, for tests that build calls by hand;
// a schema that does not parse fails the test's setup with the parser's message.
#pragma once

#include <stdexcept>
#include <string>
#include <variant>

#include "analyzers/runtime/driver/signatures.h"

namespace runtime_test {

inline torchabi::runtime::OpSignature parsed_signature(const std::string& schema) {
  auto s = torchabi::runtime_driver::signature_from_schema(schema, "t");
  if (auto* err = std::get_if<std::string>(&s)) throw std::runtime_error(*err);
  return std::get<torchabi::runtime::OpSignature>(s);
}

}  // namespace runtime_test
