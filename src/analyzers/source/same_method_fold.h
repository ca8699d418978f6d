// Calls such as x.dim() or x.size(0) on an at::Tensor are unstable uses, but
// the fix for them is to change the tensor's type: torch::stable::Tensor has
// the same methods (replacements.yaml style same-method). Reporting each call
// as its own error buries the one finding that matters, so lint folds them
// into a note on the finding for the tensor type. `torchabi migrate` keeps
// them separate: it counts every use that follows the type's rewrite.
#pragma once

#include <cstddef>

#include "analyzers/source/replacements.h"
#include "findings/finding.h"

namespace torchabi::source {

// The note source-unstable-api puts on a same-method call written with
// template arguments (`x.data_ptr<float>()`): the stable method takes none,
// so the call must change and is never folded.
inline constexpr const char* kTemplateArgumentsNote =
    "called with template arguments, which the torch::stable::Tensor method does not take";

// Removes each source-unstable-api finding of a same-method call whose class
// (torch::stable::Tensor for at::TensorBase::dim) is also the replacement of
// a reported type finding (and that is not marked kTemplateArgumentsNote),
// preferring a type finding in the same file, and
// lists the removed calls in that finding's notes. A call with no such type
// finding anywhere in the report stays a finding of its own. Returns how
// many findings were folded.
size_t fold_same_method_calls(findings::Report& report, const Replacements& replacements);

}  // namespace torchabi::source
