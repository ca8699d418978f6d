// `--fix --dry-run` output: a unified diff (the format `diff -u` and `patch`
// speak), computed in-process so it works where no diff tool is installed.
#pragma once

#include <string>
#include <string_view>

namespace torchabi::migration {

// The unified diff turning `before` into `after`, with `context` lines of
// context and both sides labelled `path` (apply with `patch -p0`). Empty when
// the texts are equal. A last line without a newline gets the usual
// "\ No newline at end of file" marker.
std::string unified_diff(std::string_view before, std::string_view after, const std::string& path, int context = 3);

}  // namespace torchabi::migration
