// Where a report goes: standard output, or `-o FILE`. torchabi runs in CI as
// root, so -o must never destroy what is there: it writes a regular file (or
// creates one), atomically, and refuses anything else with one line naming
// the path — an input of the same run (`audit x.so -o x.so`), a directory, a
// device (as root `-o /dev/null` would otherwise replace the device node), a
// FIFO, a socket, or a symbolic link (replacing it would not follow it).
// A failed or short write to standard output is an error too.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace torchabi {

// Throws InputError naming `path` when it may not be written as a report.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs);

// Writes `text` to `path` (checked as above; "" for standard output).
// Throws InputError on failure.
void write_output(const std::string& path, std::string_view text, const std::vector<std::string>& inputs = {});

}  // namespace torchabi
