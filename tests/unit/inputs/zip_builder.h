// Test helper: builds a zip archive in memory with libzip (members stored
// uncompressed, so tests can damage member bytes at a known place). Our own
// code, for tests only.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include <zip.h>

namespace torchabi::test_support {

struct ZipMember {
  std::string name;
  std::string content;
};

inline std::vector<std::byte> build_zip(const std::vector<ZipMember>& members) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(nullptr, 0, 0, &err);
  zip_t* z = src ? zip_open_from_source(src, ZIP_TRUNCATE, &err) : nullptr;
  if (!z) throw std::runtime_error("build_zip: cannot create an in-memory archive");
  zip_source_keep(src);
  for (const auto& m : members) {
    zip_source_t* s = zip_source_buffer(z, m.content.data(), m.content.size(), 0);
    zip_int64_t idx = s ? zip_file_add(z, m.name.c_str(), s, ZIP_FL_ENC_UTF_8) : -1;
    if (idx < 0) throw std::runtime_error("build_zip: cannot add " + m.name);
    zip_set_file_compression(z, zip_uint64_t(idx), ZIP_CM_STORE, 0);
  }
  if (zip_close(z) != 0) throw std::runtime_error("build_zip: cannot close");
  std::vector<std::byte> out;
  if (zip_source_open(src) == 0) {
    zip_source_seek(src, 0, SEEK_END);
    out.resize(size_t(zip_source_tell(src)));
    zip_source_seek(src, 0, SEEK_SET);
    zip_source_read(src, out.data(), out.size());
    zip_source_close(src);
  }
  zip_source_free(src);
  zip_error_fini(&err);
  return out;
}

// Offset of `needle` in `bytes` (the first occurrence), or npos.
inline size_t find_bytes(const std::vector<std::byte>& bytes, const std::string& needle) {
  for (size_t i = 0; i + needle.size() <= bytes.size(); ++i)
    if (std::memcmp(bytes.data() + i, needle.data(), needle.size()) == 0) return i;
  return std::string::npos;
}

}  // namespace torchabi::test_support
