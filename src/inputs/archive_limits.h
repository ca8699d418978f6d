// How far an archive member may decompress. Wheels and conda packages are
// read in memory, so a zip bomb (a small archive whose member inflates to
// gigabytes) or a forged size would otherwise exhaust memory or time. Two caps,
// both checked while the data streams:
//   - a size cap on every member held in memory (TORCHABI_MAX_MEMBER_SIZE);
//   - a compression-ratio cap on every compressed stream: it may not produce
//     more than RATIO times the compressed bytes it comes from
//     (TORCHABI_MAX_COMPRESSION_RATIO), past a floor that small members never
//     reach. Real libraries compress 2-10:1; zeros compress 1000:1 and more.
#pragma once

#include <cstdint>
#include <string>

namespace torchabi::inputs {

struct ArchiveLimits {
  // The largest real library, libtorch_cuda.so, is about 1.5 GB.
  static constexpr uint64_t kDefaultMaxMemberSize = uint64_t(4) << 30;
  static constexpr uint64_t kDefaultMaxRatio = 200;
  // Output below this is never refused for its ratio: a bomb must be large to
  // hurt, and a small member of zeros is no bomb.
  static constexpr uint64_t kRatioFloor = uint64_t(16) << 20;

  uint64_t max_member_size = kDefaultMaxMemberSize;
  uint64_t max_ratio = kDefaultMaxRatio;  // 0: no ratio cap

  // The limits for this process: the defaults, or the environment variables
  // above (read once). Throws InputError naming the variable when its value
  // is not a size ("512M", "4G", bytes) or a whole-number ratio.
  static const ArchiveLimits& current();
  // The same from the variables' values (null: unset); for tests.
  static ArchiveLimits parse(const char* max_member_size, const char* max_ratio);

  // "member of N bytes exceeds the LIMIT-byte limit (TORCHABI_MAX_MEMBER_SIZE)".
  std::string size_violation(uint64_t size, uint64_t limit) const;
  // Empty while `decompressed` bytes from `compressed` ones are within the
  // ratio cap (or under the floor); else the one-line reason.
  std::string ratio_violation(uint64_t decompressed, uint64_t compressed) const;
};

// The reason for a failed allocation while holding `bytes` of a member.
std::string out_of_memory_reason(uint64_t bytes);

}  // namespace torchabi::inputs
