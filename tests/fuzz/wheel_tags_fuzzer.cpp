// fuzz-links: torchabi_artifacts
//
// Wheel tags from arbitrary file names and WHEEL files: parsing never
// crashes, and what it returns is consistent (every platform it lists is one
// of the triples').
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "inputs/python/wheel_tags.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& tags : {torchabi::inputs::tags_from_wheel_filename(text), torchabi::inputs::tags_from_wheel_file(text)}) {
    for (const auto& p : tags.platforms) {
      (void)torchabi::inputs::tag_allows_machine(p, "x86-64");
      bool listed = false;
      for (const auto& t : tags.triples) listed |= t.ends_with("-" + p.text);
      if (!listed) std::abort();
    }
  }
  return 0;
}
