// PyTorch release numbers and the TORCH_TARGET_VERSION / TORCH_ABI_VERSION
// encoding: (major << 56) | (minor << 48) | (patch << 40).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace torchabi {

struct TorchVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  auto operator<=>(const TorchVersion&) const = default;

  // "2.10" (patch omitted when zero) — how releases are usually named.
  std::string str() const;
  // "0x020a000000000000"
  std::string hex() const;
  uint64_t encoded() const;

  static TorchVersion decode(uint64_t encoded);
  // "2.10", "2.10.0", "2.10.0a0+git", "TORCH_VERSION_2_10_0".
  static std::optional<TorchVersion> parse_dotted(std::string_view text);
  // "0x020a000000000000" or the decimal integer form of the same value.
  static std::optional<uint64_t> parse_integer(std::string_view text);
  // The release a torch version.h states with its TORCH_VERSION_MAJOR and
  // TORCH_VERSION_MINOR defines (TORCH_VERSION_PATCH: 0 when absent).
  static std::optional<TorchVersion> from_version_header(std::string_view text);
};

// Result of reading a user-supplied target version (`--target-version`,
// `-DTORCH_TARGET_VERSION=...`). `error` is set when the text is not a
// version or decodes to a release that cannot be meant.
struct TargetVersionReading {
  std::optional<TorchVersion> version;
  std::string error;
};

// `latest_known` bounds plausibility: 0x0210000000000000 decodes to 2.16, and
// when 2.16 is newer than any release we know, the author almost certainly
// wrote the minor in decimal (2.10); the error shows both readings.
TargetVersionReading read_target_version(std::string_view text, TorchVersion latest_known);

}  // namespace torchabi
