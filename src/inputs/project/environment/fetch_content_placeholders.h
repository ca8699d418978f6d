// A configure downloads what FetchContent_Declare names (cutlass from
// GitHub in vLLM and its derivatives); the sandbox has no network, so the
// configure stops at "CMake step for cutlass failed" before any target.
// Each dependency declared with a download (GIT_REPOSITORY, URL) gets an
// empty placeholder source directory through FetchContent's own override,
// FETCHCONTENT_SOURCE_DIR_<NAME>: the configure goes on as it would with the
// download, and what the dependency would have added (its include
// directories' contents, its targets) is absent and named in the report.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct FetchContentPlaceholders {
  std::vector<std::string> cmake_args;  // -DFETCHCONTENT_SOURCE_DIR_<NAME>=<placeholder>
  std::vector<std::string> names;       // the dependencies, as declared
};

// Reads the CMake files under `project` (the scratch copy) and writes a
// placeholder directory for each downloaded dependency under `dir`.
FetchContentPlaceholders write_fetch_content_placeholders(const std::string& project, const std::string& dir);

}  // namespace torchabi::inputs
