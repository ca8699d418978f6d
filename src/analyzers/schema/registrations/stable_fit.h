// Whether a stable kernel's C++ type fits the schema type it receives or
// returns, with the StableIValue conversions of the headers its translation
// unit is built with (read from its AST, see source/boxable_types.h), or with
// PyTorch's (rules/schema/kernel_types.yaml) when those headers are not
// PyTorch's. What PyTorch's headers convert but the TU's do not (or not at its
// TORCH_TARGET_VERSION) is a release gap, not a wrong type.
#pragma once

#include <string>

#include "analyzers/schema/registrations/kernel_types.h"
#include "analyzers/schema/registrations/registration_model.h"

namespace torchabi::schema {

struct StableFit {
  enum class Kind {
    Ok,
    Mismatch,  // not a form of the schema type: `text` says what it arrives as
    Release,   // a form, but the conversion needs a newer release (or headers): `text` says which
    Skip,      // the schema type itself has no form (the def is reported instead)
  };
  Kind kind = Kind::Ok;
  std::string text;
};

// "a or b or c (or 2 more)".
std::string forms_text(const std::vector<std::string>& forms);

class StableConversions {
public:
  StableConversions(const KernelTypes& types, const TuRegistrations* tu);

  // A TORCH_BOX parameter.
  StableFit param(const Type& type, const CppType& cpp) const;
  // The result of a TORCH_BOX kernel.
  StableFit result(const std::vector<Return>& returns, const CppType& cpp) const;
  // to<T>(stack[i]) (Flow::To) or stack[j] = from(x) (Flow::From).
  StableFit stack(const Type& type, Flow flow, const CppType& cpp) const;

  // Whether the schema type can cross the boxed stack at all, with the TU's
  // headers or with PyTorch's.
  TypeForms representation(const Type& type, Flow flow) const;
  // A form to suggest (the first one), or the schema type's spelling.
  std::string suggestion(const Type& type, Flow flow) const;

private:
  template <typename MatchFn, typename FormsFn>
  StableFit fit(MatchFn match, FormsFn forms) const;
  std::string headers() const;

  const KernelTypes& types_;
  const source::BoxableTypes& used_;
  bool own_;  // used_ was read from the TU's headers
  std::optional<TorchVersion> target_;
};

}  // namespace torchabi::schema
