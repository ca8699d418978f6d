// Clang's errors read back into what they are about, for the checks that
// explain an error by its cause in PyTorch's headers or the build's flags
// (a version guard, #ifdef USE_CUDA, a release too old, a #error).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzers/source/front_end.h"
#include "common/version.h"

namespace torchabi::source {

// A finding that explains a clang error quotes it in a note ending in
// "<kClangQuote><clang's message>", so source-parse-incomplete does not count
// that error a second time.
constexpr std::string_view kClangQuote = "; clang: ";

// A name clang could not find: "use of undeclared identifier 'x'", "no
// member named 'x' in namespace 'torch::stable'", "unknown type name 'x'",
// "no template named 'x'", and the stable headers' own static_assert text
// "x requires TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0".
struct MissingName {
  std::string name;   // as clang wrote it (may be qualified)
  std::string scope;  // "torch::stable" for a missing member; empty otherwise
  std::optional<TorchVersion> requires_release;  // the static_assert form
  std::string qualified() const { return scope.empty() ? name : scope + "::" + name; }
};
std::optional<MissingName> read_missing_name(const std::string& message);

// The project location an error is about: the error itself when it is in a
// project file, else the first of its notes that is ("in instantiation of ...
// requested here"). Null when neither is.
const Diagnostic* project_site(const ParsedTu& tu, const Diagnostic& d);

bool is_error(const Diagnostic& d);

// A Range at a diagnostic's position (for location_of).
Range range_of(const Diagnostic& d);

}  // namespace torchabi::source
