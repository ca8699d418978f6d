// The C++ that PyTorch's header-only headers (torch/headeronly/**) define in
// namespaces that are unstable by name (c10::ScalarType, c10::toString(ScalarType),
// c10::Half, ...), from rules/api/headeronly_cxx.tsv (scripts/headeronly-cxx.py
// derives it from the real headers). Stable vs unstable is decided by where a
// declaration lives: these are stable although spelled c10::.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace torchabi::inputs {

class RulesSource;

class HeaderOnlyIndex {
public:
  // Throws InputError when the file is malformed; a missing file is an empty index.
  static HeaderOnlyIndex load(const RulesSource& src);
  // The index of RulesSource::current(), loaded once.
  static const HeaderOnlyIndex& current();

  // A function or variable, by its exact mangled name (overloads differ).
  bool has_mangled(std::string_view mangled) const { return contains(mangled_, mangled); }
  // A class or enum defined there: its members, typeinfo and vtable are too.
  bool has_type(std::string_view qualified) const { return contains(types_, qualified); }
  // A function template: any instantiation of it.
  bool has_function_template(std::string_view qualified) const { return contains(templates_, qualified); }
  // Any entity of that qualified name (type, function, template, variable,
  // enumerator, alias): for names read from tokens, without overloads.
  bool has_name(std::string_view qualified) const { return contains(names_, qualified); }
  // For names read from tokens (no overload resolution): the name of an
  // entity defined there, or of a member of a class defined there
  // (c10::Half::from_bits), also through the headers' using-directives
  // (at::ScalarType::Float). Lint's token-level fallbacks must not call these unstable.
  bool defines_name(std::string_view qualified) const;
  // Every mangled function name, for matching a local entity's enclosing function.
  const std::vector<std::string_view>& mangled_names() const { return mangled_; }

  size_t size() const { return names_.size(); }

private:
  bool defines_name(std::string_view qualified, int depth) const;
  static bool contains(const std::vector<std::string_view>& sorted, std::string_view v) {
    return std::binary_search(sorted.begin(), sorted.end(), v);
  }

  // Views into the table's text (the embedded bytes, or `owned_`): sorted,
  // without duplicates. Read at the start of audits that import C++: no
  // string per row is made (bench/audit).
  std::shared_ptr<const std::string> owned_;
  std::vector<std::string_view> mangled_, types_, templates_, names_;
  std::unordered_multimap<std::string, std::string> directives_;  // namespace -> namespace it nominates
};

}  // namespace torchabi::inputs
