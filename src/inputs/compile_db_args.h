// Turns the command that really compiled a file (g++, clang++, c++ or nvcc)
// into arguments for libclang: the same include paths, macros and language
// standard, without the flags that only matter for code generation or that
// clang does not know (nvcc's -gencode, -Xcompiler, ...). `.cu` files are
// parsed host-side in clang's CUDA mode with the CUDA installation that
// cuda_installation.h finds; without one the CUDA keywords are defined away so
// the parse degrades instead of failing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inputs/compile_db_reader.h"

namespace torchabi::inputs {

struct MacroFlag {
  std::string name;
  std::optional<std::string> value;  // -DNAME=value; nullopt for -DNAME (value 1) and -UNAME
  bool undef = false;
};

struct ClangArgs {
  std::string file;                       // absolute
  std::string directory;                  // working directory of the original compile
  std::vector<std::string> args;          // for libclang, without the compiler and the file
  std::string language;                   // "c++", "c", "cuda", "c++-header"
  std::vector<std::string> include_dirs;  // absolute, search order (-iquote, -I, -isystem, -idirafter)
  std::vector<MacroFlag> macros;          // -D/-U in command-line order
  std::vector<std::string> dropped;       // flags left out because clang would not accept them
  bool cuda_without_sdk = false;          // .cu parsed without CUDA headers
  std::string cuda;                       // .cu: the CUDA installation used, or why none (cuda_installation.h)
  std::string label;                      // the build configuration (CompileCommand::label); "" when one
  bool reference_only = false;            // CompileCommand::reference_only

  // Only -I/-D/-U/-std/-include and friends: the retry when clang rejects the full set.
  std::vector<std::string> minimal_args() const;
};

// Throws InputError naming a missing response file (@flags.rsp).
ClangArgs translate_compile_command(const CompileCommand& cmd);

// Flags given explicitly (`torchabi lint FILE -- FLAGS`), as for `clang++ FLAGS FILE`.
ClangArgs translate_flags(const std::string& file, const std::vector<std::string>& flags, const std::string& cwd);

// The directory of a CUDA installation clang can use, if any.
std::optional<std::string> find_cuda_sdk(const std::vector<std::string>& args);

}  // namespace torchabi::inputs
