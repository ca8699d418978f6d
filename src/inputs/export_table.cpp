#include "inputs/export_table.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <unordered_map>

#include "inputs/elf_view.h"

namespace torchabi::inputs {

namespace {

// What the dynamic linker can bind another object's reference to.
bool exported(const DynSymbol& s) {
  if (!s.defined || s.version == VER_NDX_LOCAL) return false;
  if (s.bind != STB_GLOBAL && s.bind != STB_WEAK && s.bind != STB_GNU_UNIQUE) return false;
  return s.visibility == STV_DEFAULT || s.visibility == STV_PROTECTED;
}

constexpr size_t kArenaChunk = size_t(1) << 20;

}  // namespace

std::string_view ExportTable::keep(std::string_view s) {
  if (s.size() > arena_left_) {
    const size_t n = std::max(kArenaChunk, s.size());
    arena_.push_back(std::unique_ptr<char[]>(new char[n]));  // not zeroed: every byte is written before use
    arena_next_ = arena_.back().get();
    arena_left_ = n;
  }
  if (!s.empty()) std::memcpy(arena_next_, s.data(), s.size());
  std::string_view kept(arena_next_, s.size());
  arena_next_ += s.size();
  arena_left_ -= s.size();
  return kept;
}

ExportTable ExportTable::read(const ElfView& elf) {
  ExportTable t;
  t.defines_versions_ = elf.defines_versions();
  // Version names are few; each is copied once.
  std::unordered_map<std::string_view, std::string_view> versions;
  auto kept_version = [&](std::string_view v) {
    if (v.empty()) return v;
    auto [it, fresh] = versions.emplace(v, std::string_view());
    if (fresh) it->second = t.keep(v);
    return it->second;
  };
  for (auto v : elf.version_definitions()) t.version_defs_.push_back(kept_version(v));

  t.symbols_.reserve(elf.symbol_count());
  t.next_.reserve(elf.symbol_count());
  // A power of two at least twice the symbols: short probe runs.
  size_t slots = 16;
  while (slots < 2 * elf.symbol_count()) slots *= 2;
  t.slots_.assign(slots, kEnd);
  t.mask_ = slots - 1;
  for (size_t i = 1; i < elf.symbol_count(); ++i) {
    // Nearly every symbol of a library is an export: read each once, with its name.
    const DynSymbol s = elf.symbol(i);
    if (!exported(s) || s.name.empty()) continue;
    ExportedSymbol e;
    e.name = t.keep(s.name);
    e.version = kept_version(elf.version(s.version).name);
    // .gnu.version's hidden bit; index 0 (local) was skipped above.
    e.hidden = s.hidden_version;
    e.weak = s.bind == STB_WEAK;
    t.symbols_.push_back(e);
    t.index_last();
  }
  return t;
}

void ExportTable::index_last() {
  const uint32_t index = uint32_t(symbols_.size() - 1);
  const std::string_view name = symbols_.back().name;
  size_t i = std::hash<std::string_view>{}(name) & mask_;
  while (slots_[i] != kEnd && symbols_[slots_[i]].name != name) i = (i + 1) & mask_;
  // Newest first; the order of one name's definitions does not matter to lookups.
  next_.push_back(slots_[i]);
  slots_[i] = index;
}

uint32_t ExportTable::first(std::string_view name) const {
  if (slots_.empty()) return kEnd;
  size_t i = std::hash<std::string_view>{}(name) & mask_;
  while (slots_[i] != kEnd) {
    if (symbols_[slots_[i]].name == name) return slots_[i];
    i = (i + 1) & mask_;
  }
  return kEnd;
}

bool ExportTable::defines_version(std::string_view v) const {
  return std::find(version_defs_.begin(), version_defs_.end(), v) != version_defs_.end();
}

bool ExportTable::binds(const ExportedSymbol& def, std::string_view version) const {
  if (version.empty()) return !def.hidden;
  if (def.version == version) return true;
  return def.version.empty() && !def.hidden && !defines_versions_;
}

}  // namespace torchabi::inputs
