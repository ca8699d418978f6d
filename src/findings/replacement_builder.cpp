#include "findings/replacement_builder.h"

namespace torchabi::findings {

ReplacementBuilder& ReplacementBuilder::copy(uint32_t begin, uint32_t end) {
  if (begin > end || end > text_.size()) {
    ok_ = false;
    return *this;
  }
  if (end > begin) kept_.push_back({begin, end, static_cast<uint32_t>(out_.size())});
  out_ += text_.substr(begin, end - begin);
  return *this;
}

FixIt ReplacementBuilder::fix(std::string file, uint32_t begin, uint32_t end, bool safe,
                              std::string description) const {
  FixIt f;
  f.file = std::move(file);
  f.begin_offset = begin;
  f.end_offset = end;
  f.replacement = out_;
  f.safety = safe ? FixSafety::Safe : FixSafety::Unsafe;
  f.description = std::move(description);
  // A copy is only worth composing with when it lies inside the replaced range.
  for (const auto& k : kept_)
    if (k.begin_offset >= begin && k.end_offset <= end) f.kept.push_back(k);
  return f;
}

}  // namespace torchabi::findings
