// The branches of #if/#ifdef/#ifndef/#elif/#else chains that the
// preprocessor skipped in the analysed configuration: code another build
// configuration compiles (#ifdef USE_ROCM, #ifndef __CUDA_ARCH__, #if 0).
//
// clang reports skipped ranges as bytes, from the `#` of the directive that
// opens a skipped branch into the directive that ends it (one range may hold
// several sibling branches: after a taken branch everything up to #endif is
// skipped at once). This file maps them back onto the directive structure of
// the file's text, so that each inactive branch is known with the directive
// that disabled it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace torchabi::source {

// One branch of a conditional chain.
struct ConditionalBranch {
  std::string directive;      // as written, on one line: "#ifdef USE_ROCM", "#else", "#elif CUDA_VERSION >= 12000"
  std::string chain_opening;  // the #if/#ifdef/#ifndef of its chain, on one line
  uint32_t directive_begin = 0;  // offset of the '#'
  uint32_t body_begin = 0;       // after the directive's line
  uint32_t body_end = 0;         // the '#' of the next directive of the chain
  uint32_t line = 0;             // 1-based line of the directive
  uint32_t chain_line = 0;       // line of the chain's opening directive
  uint32_t chain_begin = 0;      // offset of the chain's opening directive (identifies the chain)
  bool include_guard = false;    // the file's #ifndef X / #define X ... #endif guard
  // How to name it in a message: "#ifdef USE_ROCM" or "#else of #ifdef USE_ROCM (line 12)".
  std::string describe() const;
};

// Every branch of every conditional chain in `text`, nested ones included, in
// text order. Directives inside comments are ignored.
std::vector<ConditionalBranch> scan_conditional_branches(std::string_view text);

// The branches `skipped` (byte ranges as clang_getSkippedRanges gives them)
// disabled: a skipped range starts at the directive of a skipped branch and
// also holds the later branches of that chain up to its end. Branches nested
// in a skipped one are part of its body. A range that starts at the file's
// include guard is left out: a header included again has its guard's body
// skipped, but that is not code another configuration compiles.
std::vector<ConditionalBranch> inactive_branches(std::string_view text,
                                                 const std::vector<std::pair<uint32_t, uint32_t>>& skipped);

}  // namespace torchabi::source
