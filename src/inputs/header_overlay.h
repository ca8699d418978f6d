// A directory of stand-in headers, passed to clang with -idirafter so that a
// header an installation lacks is found there and nothing it has is
// shadowed. Made once under the user's cache directory (else the temporary
// directory), each file written whole and renamed into place, so concurrent
// lints never see half a file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace torchabi::inputs {

// The overlay `name` (a versioned directory name: change it when a content
// changes) holding `files` (relative path, text); "" when none can be made.
std::string header_overlay_dir(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace torchabi::inputs
