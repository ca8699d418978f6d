// Writes a file so that readers see either the old content or the complete new
// content, never a prefix: reports (-o) and --fix rewrites go through here.
#pragma once

#include <string>
#include <string_view>

namespace torchabi {

// Writes `content` to a temporary file next to `path`, flushes it, then renames
// it over `path`. Throws InputError naming `path` on failure; on failure the
// original file is untouched and no temporary file is left behind.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace torchabi
