// A wheel's compatibility tags (PEP 425, PEP 600, PEP 656): from the
// "Tag:" lines of its .dist-info/WHEEL, or from its file name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct PlatformTag {
  enum class Kind { Manylinux, Musllinux, MacOS, Windows, Linux, Any, Other };
  Kind kind = Kind::Other;
  std::string text;      // as written: "manylinux2014_x86_64"
  std::string policy;    // manylinux/musllinux: the PEP 600 name, "manylinux_2_17"
  int major = 0;         // glibc/musl/macOS version the tag promises (2.17, 1.2, 11.0)
  int minor = 0;
  std::string arch;      // "x86_64", "aarch64", "arm64", "universal2", "amd64"
};

// Never fails: a tag the audit does not know ("emscripten_3_1_wasm32") is
// Kind::Other.
PlatformTag parse_platform_tag(std::string_view tag);

struct WheelTags {
  std::vector<std::string> python;  // "cp39", "py3"
  std::vector<std::string> abi;     // "abi3", "cp311", "none"
  std::vector<PlatformTag> platforms;
  // Every "python-abi-platform" combination, sorted: what pip matches.
  std::vector<std::string> triples;
  bool empty() const { return triples.empty(); }
};

// "dist-1.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl": the
// last three dash-separated fields, each a '.'-separated set. Empty when the
// name has too few fields.
WheelTags tags_from_wheel_filename(std::string_view filename);

// The "Tag: py-abi-platform" lines of a WHEEL file (RFC 822 style headers).
WheelTags tags_from_wheel_file(std::string_view text);

// True when a library of `machine` (as the readers spell it: "x86-64",
// "AArch64", "arm64", "i386", "x86") runs on the tag's architecture.
bool tag_allows_machine(const PlatformTag& tag, std::string_view machine);

}  // namespace torchabi::inputs
