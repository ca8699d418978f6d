// A light scan of a source file's preprocessor directives, without running the
// preprocessor. The rewrite engine uses it to keep edits out of macro bodies
// (a fix-it there would change every expansion, including ones in other
// files), and the header rewrite uses it to find the #include lines to edit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::migration {

struct ByteRange {
  uint32_t begin = 0;  // inclusive
  uint32_t end = 0;    // exclusive
  bool overlaps(uint32_t b, uint32_t e) const;
};

struct IncludeDirective {
  ByteRange line;       // the whole line, including its newline when present
  std::string target;   // "torch/extension.h"
  bool angled = false;  // <...> rather than "..."
  uint32_t line_number = 0;  // 1-based
  int conditional_depth = 0; // #if/#ifdef/#ifndef levels open around it (include guards count)
};

struct DirectiveScan {
  // #define and #undef directives, each from the '#' to the end of its
  // logical line (backslash continuations included).
  std::vector<ByteRange> macro_definitions;
  std::vector<IncludeDirective> includes;
  // The end of a leading `#pragma once` line, or 0.
  uint32_t after_pragma_once = 0;
};

// Directives inside /* */ comments are ignored; a '#' must be the first
// non-blank character of a line, as the preprocessor requires.
DirectiveScan scan_directives(std::string_view text);

// Whether --fix may edit the macro definitions of `path`: a macro defined in
// a source file (not a header) expands only in that file's own translation
// unit, which --fix rewrites and compiles as one, so an edit of the #define
// (`AT_ASSERTM(x.type().is_cuda(), ...)` in a CHECK_CUDA) changes no expansion
// elsewhere and a wrong one is backed out by the compile check. A header's
// macros may expand in files the run never sees.
bool macro_definitions_editable(std::string_view path);

}  // namespace torchabi::migration
