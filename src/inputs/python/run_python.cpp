#include "inputs/python/run_python.h"

#include <cstdio>
#include <sstream>
#include <sys/wait.h>

namespace torchabi::inputs {

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::vector<std::string>> run_python_query(const std::string& python, const std::string& code) {
  const std::string cmd = quote(python) + " -c " + quote(code) + " 2>/dev/null </dev/null";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = ::pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  std::vector<std::string> lines;
  std::istringstream ls(out);
  for (std::string l; std::getline(ls, l);)
    if (!l.empty()) lines.push_back(l);
  return lines;
}

}  // namespace torchabi::inputs
