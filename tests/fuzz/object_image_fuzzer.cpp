// fuzz-links: torchabi_artifacts
//
// Feeds arbitrary bytes to the Mach-O / PE reader: it must never crash, hang
// or read out of bounds, only return images or throw the one InputError.
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/input_error.h"
#include "inputs/object_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  try {
    for (const auto& img : torchabi::inputs::read_object_image(bytes, "fuzz")) (void)img.imports.size();
  } catch (const torchabi::InputError&) {
  }
  return 0;
}
