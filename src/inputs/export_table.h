// The dynamic symbols a shared library offers to others, as the dynamic
// linker sees them: defined, global or weak, default or protected visibility,
// with their GNU symbol version. Read once into a hash table so that
// resolving an extension's imports costs one lookup per import, whatever the
// size of the library (libtorch_cpu.so exports ~80 000 symbols).
//
// The names are copied out of the ELF image, so a table outlives the bytes it
// was read from (a library decompressed from a wheel is freed right after).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

class ElfView;

struct ExportedSymbol {
  std::string_view name;
  std::string_view version;  // GNU version it is defined in; empty: unversioned
  bool hidden = false;       // name@V, not the default name@@V
  bool weak = false;
};

class ExportTable {
public:
  // Throws InputError (naming the view) on corrupt tables.
  static ExportTable read(const ElfView& elf);

  ExportTable() = default;
  ExportTable(ExportTable&&) = default;
  ExportTable& operator=(ExportTable&&) = default;

  // Calls f(const ExportedSymbol&) for every definition of `name` (usually
  // one; several when the library exports more than one version of it).
  template <class F>
  void for_each(std::string_view name, F&& f) const {
    for (uint32_t i = first(name); i != kEnd; i = next_[i]) f(symbols_[i]);
  }
  bool contains(std::string_view name) const { return first(name) != kEnd; }
  // Every definition, in symbol-table order.
  const std::vector<ExportedSymbol>& symbols() const { return symbols_; }
  size_t size() const { return symbols_.size(); }

  // Whether the library has a .gnu.version_d: then an unversioned export
  // does not satisfy a versioned import (see binds()).
  bool defines_versions() const { return defines_versions_; }
  const std::vector<std::string_view>& version_definitions() const { return version_defs_; }
  bool defines_version(std::string_view v) const;

  // Whether an import of `version` ("" for an unversioned import) binds to
  // `def` of this library, by the rules of glibc's dynamic linker: a
  // versioned import takes the definition of that exact version (default or
  // hidden), or an unversioned one from a library that defines no versions;
  // an unversioned import takes the default (non-hidden) definition.
  bool binds(const ExportedSymbol& def, std::string_view version) const;

private:
  static constexpr uint32_t kEnd = UINT32_MAX;
  std::string_view keep(std::string_view s);
  // The newest definition of `name`, or kEnd.
  uint32_t first(std::string_view name) const;
  // Adds symbols_.back() to the table.
  void index_last();

  std::vector<std::unique_ptr<char[]>> arena_;
  size_t arena_left_ = 0;
  char* arena_next_ = nullptr;

  std::vector<ExportedSymbol> symbols_;
  std::vector<uint32_t> next_;  // next definition of the same name, or kEnd
  // Open addressing over symbol indices (one allocation, no node per name:
  // building and freeing the table of libtorch_cpu.so costs half of what
  // std::unordered_map does).
  std::vector<uint32_t> slots_;  // kEnd: empty; else the newest definition of a name
  size_t mask_ = 0;
  std::vector<std::string_view> version_defs_;
  bool defines_versions_ = false;
};

}  // namespace torchabi::inputs
