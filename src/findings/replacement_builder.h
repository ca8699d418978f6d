// Builds a fix-it's replacement from literal text and copies of the file's
// own text, recording where each copy lands (FixIt::kept): that is what lets
// a rewrite of a whole call compose with rewrites inside its arguments.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "findings/finding.h"

namespace torchabi::findings {

class ReplacementBuilder {
public:
  explicit ReplacementBuilder(std::string_view file_text) : text_(file_text) {}

  ReplacementBuilder& text(std::string_view s) {
    out_ += s;
    return *this;
  }
  // Copies the file's bytes [begin, end); an empty or out-of-file range is
  // copied as nothing and `ok()` turns false.
  ReplacementBuilder& copy(uint32_t begin, uint32_t end);

  bool ok() const { return ok_; }
  const std::string& str() const { return out_; }
  // The fix-it replacing [begin, end) of `file` with what was built.
  FixIt fix(std::string file, uint32_t begin, uint32_t end, bool safe, std::string description) const;

private:
  std::string_view text_;
  std::string out_;
  std::vector<KeptText> kept_;
  bool ok_ = true;
};

}  // namespace torchabi::findings
