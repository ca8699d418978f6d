#include "inputs/python/wheel_tags.h"
#include "common/text.h"

#include <algorithm>
#include <charconv>

namespace torchabi::inputs {

namespace {

using text::split;

bool to_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// "2_17_x86_64" -> 2, 17, "x86_64"
bool version_and_arch(std::string_view rest, PlatformTag& t) {
  const size_t a = rest.find('_');
  if (a == std::string_view::npos) return false;
  const size_t b = rest.find('_', a + 1);
  if (b == std::string_view::npos) return false;
  t.arch = std::string(rest.substr(b + 1));
  return to_int(rest.substr(0, a), t.major) && to_int(rest.substr(a + 1, b - a - 1), t.minor) && !t.arch.empty();
}

// The legacy manylinux names and the glibc they stand for (PEP 600).
struct Legacy {
  std::string_view prefix;
  int major, minor;
};
constexpr Legacy kLegacyManylinux[] = {{"manylinux1_", 2, 5}, {"manylinux2010_", 2, 12}, {"manylinux2014_", 2, 17}};

std::string canonical_arch(std::string_view a) {
  if (a == "amd64" || a == "x86_64" || a == "x86-64") return "x86_64";
  if (a == "arm64" || a == "aarch64" || a == "AArch64") return "aarch64";
  if (a == "i386" || a == "i686" || a == "x86" || a == "win32") return "i686";
  return std::string(a);
}

}  // namespace

PlatformTag parse_platform_tag(std::string_view tag) {
  PlatformTag t;
  t.text = std::string(tag);
  if (tag == "any") {
    t.kind = PlatformTag::Kind::Any;
    return t;
  }
  for (const auto& l : kLegacyManylinux) {
    if (tag.starts_with(l.prefix) && tag.size() > l.prefix.size()) {
      t.kind = PlatformTag::Kind::Manylinux;
      t.major = l.major;
      t.minor = l.minor;
      t.arch = std::string(tag.substr(l.prefix.size()));
      t.policy = "manylinux_" + std::to_string(l.major) + "_" + std::to_string(l.minor);
      return t;
    }
  }
  struct Family {
    std::string_view prefix;
    PlatformTag::Kind kind;
  };
  for (const Family f : {Family{"manylinux_", PlatformTag::Kind::Manylinux}, Family{"musllinux_", PlatformTag::Kind::Musllinux},
                         Family{"macosx_", PlatformTag::Kind::MacOS}}) {
    if (!tag.starts_with(f.prefix)) continue;
    if (!version_and_arch(tag.substr(f.prefix.size()), t)) return t;  // Other
    t.kind = f.kind;
    if (f.kind != PlatformTag::Kind::MacOS)
      t.policy = std::string(f.prefix) + std::to_string(t.major) + "_" + std::to_string(t.minor);
    return t;
  }
  if (tag == "win32" || tag.starts_with("win_")) {
    t.kind = PlatformTag::Kind::Windows;
    t.arch = tag == "win32" ? "win32" : std::string(tag.substr(4));
    return t;
  }
  if (tag.starts_with("linux_")) {
    t.kind = PlatformTag::Kind::Linux;
    t.arch = std::string(tag.substr(6));
  }
  return t;
}

WheelTags tags_from_wheel_filename(std::string_view filename) {
  const size_t slash = filename.find_last_of("/\\");
  if (slash != std::string_view::npos) filename.remove_prefix(slash + 1);
  if (filename.ends_with(".whl")) filename.remove_suffix(4);
  const auto fields = split(filename, '-');
  WheelTags tags;
  if (fields.size() < 5) return tags;
  for (auto p : split(fields[fields.size() - 3], '.')) tags.python.emplace_back(p);
  for (auto a : split(fields[fields.size() - 2], '.')) tags.abi.emplace_back(a);
  for (auto p : split(fields.back(), '.')) tags.platforms.push_back(parse_platform_tag(p));
  for (const auto& py : tags.python)
    for (const auto& abi : tags.abi)
      for (const auto& p : tags.platforms) tags.triples.push_back(py + "-" + abi + "-" + p.text);
  std::sort(tags.triples.begin(), tags.triples.end());
  tags.triples.erase(std::unique(tags.triples.begin(), tags.triples.end()), tags.triples.end());
  return tags;
}

WheelTags tags_from_wheel_file(std::string_view text) {
  WheelTags tags;
  auto add = [](std::vector<std::string>& v, std::string_view s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.emplace_back(s);
  };
  for (auto line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.starts_with("Tag:")) continue;
    std::string_view value = line.substr(4);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    const auto parts = split(value, '-');
    if (parts.size() != 3) continue;
    add(tags.python, parts[0]);
    add(tags.abi, parts[1]);
    if (std::none_of(tags.platforms.begin(), tags.platforms.end(), [&](const PlatformTag& p) { return p.text == parts[2]; }))
      tags.platforms.push_back(parse_platform_tag(parts[2]));
    tags.triples.emplace_back(value);
  }
  std::sort(tags.triples.begin(), tags.triples.end());
  tags.triples.erase(std::unique(tags.triples.begin(), tags.triples.end()), tags.triples.end());
  return tags;
}

bool tag_allows_machine(const PlatformTag& tag, std::string_view machine) {
  const std::string m = canonical_arch(machine);
  if (tag.arch == "universal2") return m == "x86_64" || m == "aarch64";
  if (tag.arch == "universal" || tag.arch == "intel") return m == "x86_64" || m == "i686";
  return canonical_arch(tag.arch) == m;
}

}  // namespace torchabi::inputs
