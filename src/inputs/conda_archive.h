// A conda package read in memory, never extracted to disk: either the
// `.conda` format (a zip holding `info-*.tar.zst`, the metadata, and
// `pkg-*.tar.zst`, the files) or the older `.tar.bz2` (one tar holding both).
// The tars are decompressed with libarchive as streams: the members asked for
// are handed over one at a time, each bounded in size, so a package of any
// size is read with the memory of its largest wanted member.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

enum class CondaFormat { Conda, TarBz2 };

// ".conda" or ".tar.bz2" by name.
bool is_conda_package_name(std::string_view path);

struct CondaContents {
  CondaFormat format = CondaFormat::Conda;
  std::string index_json;  // info/index.json; empty when the package has none
};

// Reads the package `name` (a label for messages) from `bytes`, calls
// `visit(member, bytes)` for every regular file whose path `want` accepts
// (symbolic and hard links are not files of their own), and returns what the
// metadata says. Members larger than `max_member` are refused. Throws
// InputError naming the package (or "package!member") when it is not a conda
// package, is corrupt, or holds a member path escaping its root. Exceptions
// from `visit` propagate.
CondaContents read_conda_package(std::span<const std::byte> bytes, const std::string& name,
                                 const std::function<bool(std::string_view member)>& want,
                                 const std::function<void(const std::string& member, std::vector<std::byte> data)>& visit,
                                 uint64_t max_member = uint64_t(4) << 30);

}  // namespace torchabi::inputs
