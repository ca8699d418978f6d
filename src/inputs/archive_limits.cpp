#include "inputs/archive_limits.h"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "common/input_error.h"

namespace torchabi::inputs {

namespace {

constexpr const char* kMemberVar = "TORCHABI_MAX_MEMBER_SIZE";
constexpr const char* kRatioVar = "TORCHABI_MAX_COMPRESSION_RATIO";

// Digits, then (when allowed) an optional binary multiple: K, M, G, T, with
// "B"/"iB" after it. False on anything else, or on overflow.
bool parse_count(std::string_view s, bool allow_suffix, uint64_t& out) {
  size_t i = 0;
  uint64_t v = 0;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
    if (v > (std::numeric_limits<uint64_t>::max() - 9) / 10) return false;
    v = v * 10 + uint64_t(s[i] - '0');
  }
  if (i == 0) return false;
  std::string_view rest = s.substr(i);
  if (!rest.empty()) {
    if (!allow_suffix) return false;
    int shift = 0;
    switch (std::toupper(static_cast<unsigned char>(rest.front()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      default: return false;
    }
    rest.remove_prefix(1);
    if (!(rest.empty() || rest == "B" || rest == "iB")) return false;
    if (v > (std::numeric_limits<uint64_t>::max() >> shift)) return false;
    v <<= shift;
  }
  out = v;
  return true;
}

}  // namespace

ArchiveLimits ArchiveLimits::parse(const char* max_member_size, const char* max_ratio) {
  ArchiveLimits l;
  if (max_member_size && *max_member_size &&
      (!parse_count(max_member_size, true, l.max_member_size) || l.max_member_size == 0))
    throw InputError(kMemberVar, std::string("not a size: '") + max_member_size +
                                     "' (a number of bytes, or with K, M, G: '512M', '4G')");
  if (max_ratio && *max_ratio && !parse_count(max_ratio, false, l.max_ratio))
    throw InputError(kRatioVar, std::string("not a ratio: '") + max_ratio +
                                    "' (a whole number such as 200; 0 turns the cap off)");
  return l;
}

const ArchiveLimits& ArchiveLimits::current() {
  // Read once: every member of every archive is held to the same limits.
  static const ArchiveLimits limits = parse(std::getenv(kMemberVar), std::getenv(kRatioVar));
  return limits;
}

std::string ArchiveLimits::size_violation(uint64_t size, uint64_t limit) const {
  // The variable is named only when it set the limit (a caller's own, smaller
  // cap, e.g. 64 MiB for METADATA, is not the user's to raise).
  std::string line = "member of " + std::to_string(size) + " bytes exceeds the " + std::to_string(limit) + "-byte limit";
  if (limit == max_member_size) line += std::string(" (") + kMemberVar + ")";
  return line;
}

std::string ArchiveLimits::ratio_violation(uint64_t decompressed, uint64_t compressed) const {
  if (max_ratio == 0 || decompressed <= kRatioFloor) return "";
  if (compressed && decompressed / compressed < max_ratio) return "";
  return "decompresses to over " + std::to_string(decompressed) + " bytes from " + std::to_string(compressed) +
         " compressed: over the compression ratio limit of " + std::to_string(max_ratio) + ":1 (" + kRatioVar + ")";
}

std::string out_of_memory_reason(uint64_t bytes) {
  return "out of memory holding " + std::to_string(bytes) + " bytes of this member (lower " +
         std::string(kMemberVar) + " or raise the memory limit)";
}

}  // namespace torchabi::inputs
