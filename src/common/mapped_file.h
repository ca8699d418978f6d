// A read-only memory map of a whole file. Big inputs (libtorch_cpu.so is
// ~120 MB) are never copied: analyzers read only the pages they touch.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace torchabi {

class MappedFile {
public:
  // Throws InputError naming `path` when it is missing, a directory, or unreadable.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(data_), size_}; }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace torchabi
