// The header half of --fix: once a file's code names torch::stable::Tensor or
// STD_TORCH_CHECK, it must include the stable headers that declare them; once
// nothing in it (or in the project files that include it) needs the legacy
// headers, those includes go. Computed per file after the other fixes are
// known, as ordinary fix-its against the file's current text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "findings/finding.h"

namespace torchabi::migration {

struct LegacyInclude {
  uint32_t line = 0;   // where lint reported it
  std::string header;  // its include-relative name, e.g. "torch/extension.h"
};

struct HeaderRewriteInput {
  std::string file;
  std::string text;                   // the file's current content
  std::vector<std::string> needed;    // headers declaring the replacements --fix puts in this file
  std::vector<LegacyInclude> legacy;  // non-stable includes lint reported in this file
  bool legacy_still_needed = true;    // unfixed uses remain here or in a file including this one
};

// Inserts the missing stable includes (before the first legacy include, else
// before the file's first unconditional include, else after #pragma once) and,
// when the legacy includes are no longer needed, removes them. Removing a
// legacy include with nothing to put in its place is an unsafe fix: the file
// may have relied on it for standard headers. `needed` entries are include-relative names ("torch/csrc/stable/tensor.h")
// or bracketed system headers ("<optional>").
std::vector<findings::FixIt> header_fixes(const HeaderRewriteInput& in);

}  // namespace torchabi::migration
