// What a StableIValue can carry, read from the stable headers themselves
// rather than from a list: torch/csrc/stable/stableivalue_conversions.h
// specialises
//   FromImpl<T>  T -> StableIValue: from(x), the returns of TORCH_BOX kernels
//   ToImpl<T>    StableIValue -> T: to<T>(s), the parameters of TORCH_BOX kernels
// for each convertible type, generically for std::optional<T>,
// std::vector<T>, HeaderOnlyArrayRef<T> ..., some of them under
// `#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0`; their primary
// templates copy trivially copyable scalars (int64_t, double, bool) as they
// are. torch/csrc/stable/library.h's TORCH_BOX stores some parameter types as
// another type before converting (UnboxType<P>::type: HeaderOnlyArrayRef<T>
// as std::vector<T>, std::string_view as std::string) and returns several
// values as a std::tuple (boxer_impl<std::tuple<R...>, ...>).
//
// Read from the AST of the translation unit being linted, these are exactly
// the conversions its headers provide for its TORCH_TARGET_VERSION (guarded
// ones the preprocessor dropped are absent); read from an include directory
// they are what `torchabi rules import` writes to schema/kernel_types.yaml,
// the fallback for TUs whose headers are not PyTorch's.
#pragma once

#include <clang-c/Index.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/version.h"

namespace torchabi::source {

// One specialisation: its type in normalize_cpp_type's spelling, with "$T"
// for the specialisation's template parameter ("std::optional<$T>") and
// "$T..." for a pack.
struct BoxableConversion {
  std::string type;
  std::optional<TorchVersion> since;  // the TORCH_FEATURE_VERSION guard around it; nullopt: unguarded
  bool operator==(const BoxableConversion&) const = default;
};

// UnboxType<from>::type is `to`: a TORCH_BOX parameter of type `from`
// (without const and reference) is converted with to<`to`>.
struct BoxableRewrite {
  std::string from, to;
  std::optional<TorchVersion> since;
  bool operator==(const BoxableRewrite&) const = default;
};

struct BoxableTypes {
  bool found = false;        // the FromImpl and ToImpl templates were seen: what is absent does not convert
  bool catch_all = false;    // their primary templates are defined: scalars are copied as they are
  bool boxer_found = false;  // TORCH_BOX's boxer_impl was seen: tuple_returns is known
  std::vector<BoxableConversion> from, to;
  std::vector<BoxableRewrite> unbox;
  std::optional<BoxableConversion> tuple_returns;  // "std::tuple<$T...>" when several returns are a tuple
  std::optional<TorchVersion> torch_version;       // the headers' release, when known

  bool operator==(const BoxableTypes&) const = default;
};

// The conversions `tu` declares (after preprocessing). Each one's `since`
// comes from the TORCH_FEATURE_VERSION guards around its declaration in the
// header file (FeatureGuards). `found` is false when the TU does not include
// PyTorch's conversions header.
BoxableTypes read_boxable_types(CXTranslationUnit tu);

// Parses DIR/torch/csrc/stable/library.h (which includes the conversions)
// with no TORCH_TARGET_VERSION, so every guarded conversion is there, and
// reads the release from DIR/torch/headeronly/version.h. Throws InputError
// naming DIR when it has no stable headers or libclang cannot parse them.
BoxableTypes import_boxable_types(const std::string& include_dir);

// schema/kernel_types.yaml: the same facts as text, one conversion a line.
std::string boxable_types_yaml(const BoxableTypes& types);
// Throws InputError naming `origin` when the text is malformed.
BoxableTypes parse_boxable_types_yaml(const std::string& text, const std::string& origin);

void to_json(nlohmann::json& j, const BoxableTypes& t);
void from_json(const nlohmann::json& j, BoxableTypes& t);

}  // namespace torchabi::source
