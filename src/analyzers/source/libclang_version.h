// Which libclang this process parses with, for --version and bug reports.
#pragma once

#include <string>

namespace torchabi::source {

// "Debian clang version 19.1.7 (3~deb12u1), /usr/lib/.../libclang-19.so.19".
// Loads libclang; throws InputError (naming the library) when it cannot.
std::string libclang_version();

}  // namespace torchabi::source
