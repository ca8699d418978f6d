#include "analyzers/runtime/driver/standins.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "common/input_error.h"
#include "common/regex.h"

namespace torchabi::runtime_driver {

const std::string& standin_placeholder_soname() {
  static const std::string s = TORCHABI_STANDIN_SONAME;
  return s;
}

std::vector<std::string> torch_library_names(const std::vector<std::string>& needed,
                                             const inputs::RulesSource& rules) {
  const std::string rel = "runtime/torch_libraries.tsv";
  std::istringstream in(rules.require(rel));
  std::vector<Regex> patterns;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::string pattern = line.substr(0, line.find('\t'));
    try {
      patterns.emplace_back(pattern);
    } catch (const RegexError& e) {
      throw InputError(rules.describe() + "/" + rel + ":" + std::to_string(lineno),
                       "'" + pattern + "' is not a regular expression: " + e.what());
    }
  }
  std::vector<std::string> out;
  for (const auto& n : needed)
    for (const auto& p : patterns)
      if (p.matches(n)) {
        out.push_back(n);
        break;
      }
  return out;
}

std::string load_standin(const std::string& template_path, const std::string& soname) {
  std::ifstream f(template_path, std::ios::binary);
  if (!f) return "cannot read the stand-in template " + template_path;
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::string& placeholder = standin_placeholder_soname();
  // The placeholder is a whole string of .dynstr: find it with its terminator.
  const size_t at = bytes.find(placeholder + '\0');
  if (at == std::string::npos || bytes.find(placeholder + '\0', at + 1) != std::string::npos)
    return template_path + " does not carry the stand-in placeholder soname exactly once";
  if (soname.size() >= placeholder.size())
    return "the soname " + soname + " is longer than a stand-in can take (" +
           std::to_string(placeholder.size() - 1) + " characters)";
  std::fill(bytes.begin() + static_cast<long>(at), bytes.begin() + static_cast<long>(at + placeholder.size()), '\0');
  std::copy(soname.begin(), soname.end(), bytes.begin() + static_cast<long>(at));

  const int fd = memfd_create(soname.c_str(), MFD_CLOEXEC);
  if (fd < 0) return "memfd_create failed for the stand-in " + soname;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      close(fd);
      return "cannot write the stand-in " + soname;
    }
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    std::string error = std::string("cannot load the stand-in ") + soname + ": " + dlerror();
    close(fd);
    return error;
  }
  // The descriptor stays open: the loader knows the object by its path, and a
  // later stand-in reusing the number would be taken for this one.
  return "";
}

}  // namespace torchabi::runtime_driver
