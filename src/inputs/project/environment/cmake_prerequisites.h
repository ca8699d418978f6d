// A configure that stops at a prerequisite of a build machine this machine
// lacks (find_package(WebP REQUIRED), pkg-config's FFmpeg, a project's own
// `message(FATAL_ERROR "libfoo not found")`) says nothing about the flags of
// the targets it never reached. Configured once more with
// continue_past_prerequisites.cmake, it goes on the way it would on the
// build machine; what was stood in for is listed, and the flags it could
// have added are unknown, not absent.
#pragma once

#include <string>
#include <vector>

namespace torchabi::inputs {

struct ContinuedPast {
  std::string kind;   // "message", "find_package", "target", "notfound"
  std::string where;  // the CMake file (relative to the project) or the target
  std::string what;   // the message, package, imported target or value
};

struct PrerequisitesScript {
  std::vector<std::string> cmake_args;  // -D arguments that load the script
  std::string log;                      // where the script writes what it continued past
};

// Writes the script into `dir` (which exists); no arguments when the
// machine's CMake (`machine_version`, "3.25.1") is older than 3.19 (no
// cmake_language(DEFER)).
PrerequisitesScript write_prerequisites_script(const std::string& dir, const std::string& machine_version);

// The log's entries, in order, each once.
std::vector<ContinuedPast> read_continued(const std::string& log);

// One line for the report: "find_package(WebP) at src/CMakeLists.txt:
// not found; message(FATAL_ERROR) at ...: libwebp not found".
std::string describe(const ContinuedPast& c);

}  // namespace torchabi::inputs
