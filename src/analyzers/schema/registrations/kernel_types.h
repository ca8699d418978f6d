// Which C++ types a kernel may use for each schema type.
//
// Stable kernels: a C++ type fits a schema type when it is one the schema
// type arrives as (rules/schema/schema_cpp_types.yaml: int as an integer,
// int[] in a list container, ...) AND a given set of StableIValue
// conversions converts it: the FromImpl/ToImpl specialisations of the
// headers the kernel's translation unit includes (source::BoxableTypes, read
// from its AST), or, when those are not PyTorch's headers, the same facts
// read from PyTorch's headers into rules/schema/kernel_types.yaml.
// Legacy kernels: c10's unboxed mapping, from schema_cpp_types.yaml.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/schema/ast.h"
#include "analyzers/source/boxable_types.h"
#include "common/version.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::schema {

// The C++ forms of one schema type, or why it has none.
struct TypeForms {
  std::vector<std::string> cpp;       // normalized C++ spellings (see cpp_type_name.h), a few examples for stable
  std::optional<TorchVersion> since;  // stable only: the newest guard of the conversions they need (the
                                      // least demanding form); unset: unguarded
  std::string unsupported;            // non-empty: no form; what to do instead
};

// Whether one C++ type fits one schema type.
struct StableMatch {
  bool ok = false;
  std::optional<TorchVersion> since;  // ok: the newest guard among the conversions it goes through
};

// How a value crosses the boxed stack.
enum class Flow {
  Param,   // a TORCH_BOX kernel's parameter: UnboxType, then to<T>
  To,      // to<T>(stack[i]) in a hand-written boxed kernel
  From,    // from(x): a return, or stack[j] = from(x)
};

class KernelTypes {
public:
  // Reads schema/schema_cpp_types.yaml and schema/kernel_types.yaml; throws
  // InputError naming the file when one is malformed.
  static KernelTypes load(const inputs::RulesSource& rules);
  static KernelTypes parse(const std::string& map_yaml, const std::string& map_origin,
                           const std::string& conversions_yaml, const std::string& conversions_origin);

  // The conversions of PyTorch's headers (kernel_types.yaml).
  const source::BoxableTypes& fallback() const { return fallback_; }

  // What `type` may be received as (Flow::Param, Flow::To) or returned as
  // (Flow::From) with `conversions`.
  TypeForms stable(const Type& type, Flow flow, const source::BoxableTypes& conversions) const;
  // The C++ return type of a TORCH_BOX kernel for these returns.
  TypeForms stable_returns(const std::vector<Return>& returns, const source::BoxableTypes& conversions) const;

  // `cpp` is normalized; `spelled` as written (a StableIValue parameter
  // takes any schema type as it is).
  StableMatch match(const Type& type, Flow flow, const std::string& cpp, const std::string& spelled,
                    const source::BoxableTypes& conversions) const;
  StableMatch match_returns(const std::vector<Return>& returns, const std::string& cpp,
                            const source::BoxableTypes& conversions) const;

  // What a legacy unboxed kernel may take for an argument of `type`
  // (empty `cpp` when the table does not know the type: nothing is checked).
  TypeForms legacy(const Type& type) const;
  TypeForms legacy_returns(const std::vector<Return>& returns) const;

  struct StableMap {  // schema/schema_cpp_types.yaml's `stable:` section
    std::map<std::string, std::vector<std::string>> types;  // schema base type -> C++ leaf types
    std::vector<std::string> integers, optional, list, tuple;
    std::string raw;
    std::map<std::string, std::string> unsupported;
  };

  const StableMap& stable_map() const { return stable_; }

private:
  source::BoxableTypes fallback_;
  StableMap stable_;
  std::map<std::string, std::vector<std::string>> legacy_types_;
  std::vector<std::string> legacy_optional_, legacy_optional_list_, legacy_list_, legacy_sized_bool_list_,
      legacy_custom_class_, legacy_list_return_;
  std::string legacy_tuple_return_;
};

// True when `cpp` (normalized) is one of `forms`; `$C` in a form matches any
// class name.
bool matches_form(const std::string& cpp, const std::vector<std::string>& forms);

}  // namespace torchabi::schema
