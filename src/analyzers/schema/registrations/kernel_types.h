// Which C++ types a kernel may use for each schema type, from
// rules/schema/kernel_types.yaml: the StableIValue conversions of the stable
// ABI (with the release that added each) and the legacy unboxed mapping.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/schema/ast.h"
#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::schema {

// The C++ forms of one schema type, or why it has none.
struct TypeForms {
  std::vector<std::string> cpp;       // normalized C++ spellings (see cpp_type_name.h)
  std::optional<TorchVersion> since;  // stable only: the release that made all of them convertible
  std::string unsupported;            // non-empty: no form; what to do instead
};

class KernelTypes {
public:
  // Throws InputError naming the file when the table is malformed.
  static KernelTypes load(const inputs::RulesSource& rules);
  static KernelTypes parse(const std::string& yaml_text, const std::string& origin);

  // What to_<T>/from and TORCH_BOX accept for an argument or return of `type`.
  TypeForms stable(const Type& type) const;
  // The C++ return type of a TORCH_BOX kernel for these returns.
  TypeForms stable_returns(const std::vector<Return>& returns) const;
  // What a legacy unboxed kernel may take for an argument of `type`
  // (empty `cpp` when the table does not know the type: nothing is checked).
  TypeForms legacy(const Type& type) const;
  TypeForms legacy_returns(const std::vector<Return>& returns) const;

private:
  struct StableEntry {
    std::vector<std::string> cpp;
    TorchVersion since;
  };
  std::map<std::string, StableEntry> stable_types_;
  StableEntry stable_optional_, stable_list_, stable_tuple_;
  std::map<std::string, std::string> unsupported_;
  std::map<std::string, std::vector<std::string>> legacy_types_;
  std::vector<std::string> legacy_optional_, legacy_optional_list_, legacy_list_, legacy_sized_bool_list_,
      legacy_custom_class_, legacy_list_return_;
  std::string legacy_tuple_return_;
};

// True when `cpp` (normalized) is one of `forms`; `$C` in a form matches any
// class name.
bool matches_form(const std::string& cpp, const std::vector<std::string>& forms);

}  // namespace torchabi::schema
