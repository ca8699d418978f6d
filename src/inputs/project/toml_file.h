// A TOML file read whole and parsed with toml++, its errors as one-line
// InputErrors naming the file and the line: what build.toml and
// pyproject.toml both start from.
#pragma once

#include <string>
#include <toml++/toml.h>

namespace torchabi::inputs {

// `what` names the file kind for "cannot read <what>" ("build.toml").
toml::table read_toml_file(const std::string& path, const char* what);

// The 1-based line a node starts on (0: unknown).
inline int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

}  // namespace torchabi::inputs
