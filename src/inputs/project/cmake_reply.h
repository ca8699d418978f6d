// The CMake File API's answer (codemodel-v2) read into build configurations:
// each C++ or CUDA compile group of each library or executable target, with
// the flags in the order the Makefile generator writes them (definitions,
// include directories, then the compile fragments: options, -fPIC, -std).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "inputs/project/build_configuration.h"

namespace torchabi::inputs {

struct CMakeReply {
  std::string cmake_version;  // "3.25.1"
  std::vector<BuildConfiguration> configurations;
  std::vector<std::string> generated_includes;  // include directories inside the scratch build tree
};

struct ReplyPaths {
  std::string build_dir;  // where cmake wrote the reply
  // Turns a path of the configured copy into the user's; identity by default.
  std::function<std::string(const std::string&)> to_project = [](const std::string& p) { return p; };
  // Include directories always passed with -isystem (the torch headers).
  std::vector<std::string> system_includes;
  std::string method;  // BuildConfiguration::method
};

// Throws InputError naming the reply file when the reply is missing or malformed.
CMakeReply read_cmake_reply(const ReplyPaths& paths);

// A compile command fragment ("-Xcompiler=-fPIC --generate-code=...") split
// into words as the shell would.
std::vector<std::string> split_fragment(const std::string& fragment);

}  // namespace torchabi::inputs
