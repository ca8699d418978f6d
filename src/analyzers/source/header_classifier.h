// Classifies headers as stable / unstable torch / other, from the patterns in
// rules/api/headers.yaml. Classification is by include-relative name
// (torch/csrc/stable/ops.h), never by absolute path, so the same header is
// classified the same wherever torch is installed (site-packages, /usr/include,
// a test's stand-in directory).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/source/source_model.h"

namespace torchabi::inputs {
class RulesSource;
}

namespace torchabi::source {

class HeaderClassifier {
public:
  // Throws InputError when rules/api/headers.yaml is missing or malformed.
  static HeaderClassifier load(const inputs::RulesSource& src);

  // Kind of an include-relative name such as "ATen/ATen.h".
  HeaderKind classify(std::string_view include_name) const;

  // The include-relative torch name of `abs_path` ("" when it is not a torch
  // header): relative to the first of `include_dirs` that yields a torch
  // name, else from the rightmost torch root directory in the path.
  std::string torch_name(const std::string& abs_path, const std::vector<std::string>& include_dirs) const;

private:
  std::vector<std::string> stable_, unstable_, roots_;
};

// fnmatch-style glob on include names; a trailing "/**" matches any suffix.
bool header_glob_match(std::string_view pattern, std::string_view name);

}  // namespace torchabi::source
