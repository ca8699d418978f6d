// Test helper: builds a compressed tar in memory with libarchive (zstd or
// bzip2), the members of conda packages. Our own code, for tests only.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace torchabi::test_support {

struct TarMember {
  TarMember(std::string n, std::string c, std::string link = {})
      : name(std::move(n)), content(std::move(c)), symlink(std::move(link)) {}
  std::string name;
  std::string content;
  std::string symlink;  // non-empty: a symbolic link to this target instead of a file
};

inline std::string build_tar(const std::vector<TarMember>& members, bool zstd) {
  std::string out;
  archive* a = archive_write_new();
  if (zstd) archive_write_add_filter_zstd(a);
  else archive_write_add_filter_bzip2(a);
  archive_write_set_format_pax_restricted(a);
  archive_write_set_bytes_in_last_block(a, 1);
  auto append = [](archive*, void* ctx, const void* buf, size_t n) -> la_ssize_t {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(buf), n);
    return la_ssize_t(n);
  };
  if (archive_write_open(a, &out, nullptr, append, nullptr) != ARCHIVE_OK) throw std::runtime_error("build_tar: open");
  for (const auto& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    if (m.symlink.empty()) {
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_size(e, la_int64_t(m.content.size()));
    } else {
      archive_entry_set_filetype(e, AE_IFLNK);
      archive_entry_set_symlink(e, m.symlink.c_str());
    }
    archive_entry_set_perm(e, 0644);
    if (archive_write_header(a, e) != ARCHIVE_OK) throw std::runtime_error("build_tar: header " + m.name);
    if (m.symlink.empty()) archive_write_data(a, m.content.data(), m.content.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

inline std::vector<std::byte> to_bytes(const std::string& s) {
  return std::vector<std::byte>(reinterpret_cast<const std::byte*>(s.data()),
                                reinterpret_cast<const std::byte*>(s.data()) + s.size());
}

}  // namespace torchabi::test_support
