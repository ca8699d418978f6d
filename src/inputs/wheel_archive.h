// A wheel (.whl, a zip archive) read entirely in memory with libzip: members
// are listed and decompressed into buffers on demand, never extracted to disk,
// so member names cannot escape anywhere; names that would (absolute, "..")
// make the wheel invalid, as pip would treat them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

typedef struct zip zip_t;

namespace torchabi::inputs {

struct WheelMember {
  std::string name;   // path inside the archive, e.g. "pkg/_C.cpython-311-x86_64-linux-gnu.so"
  uint64_t size = 0;  // uncompressed size
  uint64_t index = 0;
  uint64_t compressed_size = 0;  // as the directory says; bounds the ratio check
};

class WheelArchive {
public:
  // `bytes` must outlive the archive. Throws InputError naming `name` when the
  // bytes are not a zip archive or its directory is corrupt.
  WheelArchive(std::span<const std::byte> bytes, std::string name);
  ~WheelArchive();
  WheelArchive(const WheelArchive&) = delete;
  WheelArchive& operator=(const WheelArchive&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<WheelMember>& members() const { return members_; }

  // The wheel's "<dist>.dist-info/METADATA" member, or null.
  const WheelMember* metadata() const;
  // "<dist>.dist-info/<file>" ("WHEEL", "RECORD"), or null.
  const WheelMember* dist_info(std::string_view file) const;

  // Decompresses one member (CRC-checked). Throws InputError naming
  // "wheel!member" when it is corrupt or larger than `max_size`.
  // Also refused: a member decompressing beyond ArchiveLimits' ratio of its
  // compressed size, checked while streaming (the directory may lie).
  std::vector<std::byte> read(const WheelMember& m, uint64_t max_size = kMaxMemberSize) const;
  std::string read_text(const WheelMember& m) const;

  // Bigger members are refused rather than decompressed (a zip bomb would
  // otherwise exhaust memory); the largest real library, libtorch_cuda.so, is
  // about 1.5 GB.
  static constexpr uint64_t kMaxMemberSize = uint64_t(4) << 30;

private:
  std::string name_;
  zip_t* zip_ = nullptr;
  std::vector<WheelMember> members_;
};

// True for member paths that stay inside the archive root: relative, no ".."
// component, no backslashes or NULs.
bool safe_member_path(std::string_view path);

}  // namespace torchabi::inputs
