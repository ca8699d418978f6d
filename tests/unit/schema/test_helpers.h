// Small helpers shared by the schema tests: parse or fail the test loudly.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "analyzers/schema/parser.h"

namespace torchabi::schema::testing {

inline FunctionSchema must_parse(const std::string& text, const ParseOptions& options = {}) {
  auto r = parse_schema(text, options);
  if (auto* e = std::get_if<ParseError>(&r)) {
    ADD_FAILURE() << "failed to parse '" << text << "': " << e->display();
    return {};
  }
  return std::get<FunctionSchema>(r);
}

inline ParseError must_fail(const std::string& text, const ParseOptions& options = {}) {
  auto r = parse_schema(text, options);
  if (auto* e = std::get_if<ParseError>(&r)) return *e;
  ADD_FAILURE() << "expected '" << text << "' to be rejected";
  return {};
}

}  // namespace torchabi::schema::testing
