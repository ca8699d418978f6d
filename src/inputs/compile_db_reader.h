// compile_commands.json as the build tools people use write it: CMake and
// `ninja -t compdb` (torch.utils.cpp_extension / setuptools builds) write a
// shell `command` string, bear writes an `arguments` array. Both become the
// same argv here so nothing downstream cares which tool produced the file.
#pragma once

#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

namespace torchabi::inputs {

struct CompileCommand {
  std::string file;                    // absolute, lexically normalised
  std::string directory;               // absolute working directory of the compile
  std::vector<std::string> arguments;  // argv; arguments[0] is the compiler
  // Project mode: the configuration this command belongs to
  // (BuildConfiguration::label), shown when one file is compiled several ways.
  std::string label;
  // Compiled only to learn what code other configurations compile (a legacy
  // kernel-builder backend): its own findings are not reported, but the
  // code it compiles is not "inactive" in the stable configurations' reports.
  bool reference_only = false;
};

struct CompileDb {
  std::string path;  // the compile_commands.json that was read
  std::vector<CompileCommand> commands;
  // Project mode: sources the build compiles that have no command here (a
  // legacy library left out as legacy by design). What they register is
  // unseen, so cross-file checks must not conclude from its absence.
  std::vector<std::string> left_out;

  // The first command compiling `abs_file` (absolute, normalised); nullptr if none.
  const CompileCommand* find(const std::string& abs_file) const;
  // Every distinct command compiling `abs_file`: a project that builds one
  // source for several targets or releases (-DTORCH_TARGET_VERSION=...) lists
  // it once per configuration, and each configuration can have its own defects.
  // Duplicates are found through a hash of the flags: a database may list one
  // file 10^5 times.
  std::vector<const CompileCommand*> find_all(const std::string& abs_file) const;
  // find_all of every file, in one pass (for runs over many files).
  std::unordered_map<std::string, std::vector<const CompileCommand*>> all_by_file() const;
};

// Reads `path_or_dir` (a compile_commands.json, or a build directory holding
// one). Throws InputError naming the file when it is missing, not JSON, or an
// entry lacks file/directory/command. Relative "directory" values are taken
// relative to the file's own directory.
CompileDb load_compile_db(const std::string& path_or_dir);

// True when `dir` holds a compile_commands.json.
bool has_compile_db(const std::string& dir);

// The commands of a build directory: its compile_commands.json, else its
// build.ninja (a CMake -G Ninja build directory, or the build/temp.* one
// torch's BuildExtension writes; build_ninja.h). A file is read as what it
// is. CompileDb::path says which file the commands came from.
CompileDb load_build_commands(const std::string& path_or_dir);

// True when `dir` holds a compile_commands.json or a build.ninja.
bool has_build_commands(const std::string& dir);

// POSIX shell word splitting (quotes, backslashes) of a `command` string.
std::vector<std::string> split_shell_words(std::string_view command);

// Absolute, lexically normalised form of `path` relative to `base`.
std::string absolute_path(const std::string& path, const std::string& base);

}  // namespace torchabi::inputs
