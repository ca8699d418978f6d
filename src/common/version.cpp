#include "common/version.h"

#include <cctype>
#include <charconv>
#include <cstdio>

#include "common/regex.h"

namespace torchabi {

std::string TorchVersion::str() const {
  std::string s = std::to_string(major) + "." + std::to_string(minor);
  if (patch != 0) s += "." + std::to_string(patch);
  return s;
}

uint64_t TorchVersion::encoded() const {
  return (uint64_t(major) << 56) | (uint64_t(minor & 0xff) << 48) | (uint64_t(patch & 0xff) << 40);
}

std::string TorchVersion::hex() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(encoded()));
  return buf;
}

TorchVersion TorchVersion::decode(uint64_t v) {
  return TorchVersion{int(v >> 56), int((v >> 48) & 0xff), int((v >> 40) & 0xff)};
}

static bool read_int(std::string_view& s, int& out) {
  const char* b = s.data();
  const char* e = s.data() + s.size();
  auto [p, ec] = std::from_chars(b, e, out);
  if (ec != std::errc() || out < 0 || out > 255) return false;
  s.remove_prefix(size_t(p - b));
  return true;
}

std::optional<TorchVersion> TorchVersion::from_version_header(std::string_view text) {
  static const Regex major(R"(#\s*define\s+TORCH_VERSION_MAJOR\s+([0-9]+))");
  static const Regex minor(R"(#\s*define\s+TORCH_VERSION_MINOR\s+([0-9]+))");
  static const Regex patch(R"(#\s*define\s+TORCH_VERSION_PATCH\s+([0-9]+))");
  const auto a = major.search(text), b = minor.search(text);
  if (!a || !b) return std::nullopt;
  const auto c = patch.search(text);
  return TorchVersion{std::stoi((*a)[1]), std::stoi((*b)[1]), c ? std::stoi((*c)[1]) : 0};
}

std::optional<TorchVersion> TorchVersion::parse_dotted(std::string_view s) {
  char sep = '.';
  if (s.starts_with("TORCH_VERSION_")) {
    s.remove_prefix(14);
    sep = '_';
  }
  TorchVersion v;
  if (!read_int(s, v.major) || s.empty() || s.front() != sep) return std::nullopt;
  s.remove_prefix(1);
  if (!read_int(s, v.minor)) return std::nullopt;
  if (!s.empty() && s.front() == sep && s.size() > 1 && std::isdigit(static_cast<unsigned char>(s[1]))) {
    s.remove_prefix(1);
    if (!read_int(s, v.patch)) return std::nullopt;
  }
  // Local version labels and pre-releases (2.10.0a0+gitabc, 2.10.0+cu126) name
  // the same ABI; anything else after the numbers is not a version.
  if (!s.empty() && !(s.front() == '+' || std::isalpha(static_cast<unsigned char>(s.front()))))
    return std::nullopt;
  return v;
}

std::optional<uint64_t> TorchVersion::parse_integer(std::string_view s) {
  // Tolerate the integer suffixes people paste from C (0x...ULL).
  while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L'))
    s.remove_suffix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

TargetVersionReading read_target_version(std::string_view text, TorchVersion latest_known) {
  TargetVersionReading r;
  if (auto dotted = TorchVersion::parse_dotted(text)) {
    r.version = dotted;
    if (dotted->major != 2) r.error = "'" + std::string(text) + "' is not a PyTorch 2.x release; the stable ABI exists from 2.x on";
    return r;
  }
  auto raw = TorchVersion::parse_integer(text);
  if (!raw) {
    r.error = "'" + std::string(text) + "' is not a version: use 2.10, 2.10.0 or the TORCH_TARGET_VERSION hex 0x020a000000000000";
    return r;
  }
  TorchVersion v = TorchVersion::decode(*raw);
  const uint64_t low_bits = *raw & ((uint64_t(1) << 40) - 1);
  if (low_bits != 0) {
    r.error = "'" + std::string(text) + "' has bits set below the patch field; TORCH_TARGET_VERSION is (major<<56)|(minor<<48)";
    return r;
  }
  if (v.major != 2 || v > latest_known) {
    r.error = "'" + std::string(text) + "' decodes to " + v.str() + ", which is not a PyTorch release";
    // The usual slip: the minor written in decimal digits inside a hex literal.
    const int minor_hex_digits = (v.minor >> 4) * 10 + (v.minor & 0xf);
    if ((v.minor >> 4) <= 9 && (v.minor & 0xf) <= 9) {
      TorchVersion meant{v.major, minor_hex_digits, v.patch};
      if (meant.major == 2 && meant <= latest_known)
        r.error += "; if you meant " + meant.str() + ", write " + meant.hex();
    }
    return r;
  }
  r.version = v;
  return r;
}

}  // namespace torchabi
