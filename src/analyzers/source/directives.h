// Preprocessor directives of a file, read from its text: what the compiler
// would see in every configuration, including branches this TU skipped.
// Checks that judge how a condition reads (-DNAME=True tested by #if, a
// version macro the target's headers lack) need the text of each #if/#elif,
// which libclang's preprocessing record does not keep.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::source {

struct Directive {
  uint32_t line = 0;
  uint32_t offset = 0;       // of the line's first character
  std::string keyword;       // if, ifdef, elif, undef, pragma, define, ...
  std::string rest;          // the directive after the keyword, continuations joined, comments removed
  uint32_t rest_offset = 0;  // file offset of rest[0] (exact for single-line directives)
  bool continued = false;    // spans several lines (backslash-newline): rest_offset is exact only for its start
};

std::vector<Directive> scan_directives(std::string_view text);

}  // namespace torchabi::source
