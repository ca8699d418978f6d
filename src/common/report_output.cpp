#include "common/report_output.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/input_error.h"

namespace torchabi {

namespace {

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISLNK(m)) return "a symbolic link";
  return "not a regular file";
}

}  // namespace

void check_output_path(const std::string& path, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (::lstat(path.c_str(), &out) != 0) return;  // created new: nothing to destroy
  if (!S_ISREG(out.st_mode))
    throw InputError(path, std::string("is ") + kind_of(out.st_mode) +
                               ": -o writes a regular file (or creates one) and replaces nothing else");
  for (const auto& in : inputs) {
    struct stat st {};
    if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
      throw InputError(path, "is an input of this run (" + in + "): the report would replace it");
  }
}

void write_output(const std::string& path, std::string_view text, const std::vector<std::string>& inputs) {
  if (!path.empty()) {
    check_output_path(path, inputs);
    write_file_atomically(path, text);
    return;
  }
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  std::cout.flush();
  if (!std::cout) {
    const int e = errno;
    std::cout.clear();
    throw InputError("standard output", std::string("the report could not be written") +
                                            (e ? std::string(": ") + std::strerror(e) : std::string()));
  }
}

}  // namespace torchabi
