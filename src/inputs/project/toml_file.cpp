#include "inputs/project/toml_file.h"

#include <fstream>
#include <sstream>

#include "common/input_error.h"

namespace torchabi::inputs {

toml::table read_toml_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, std::string("cannot read ") + what);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return toml::parse(text.str(), path);
  } catch (const toml::parse_error& e) {
    throw InputError(path, "not valid TOML at line " + std::to_string(e.source().begin.line) + ": " +
                               std::string(e.description()));
  }
}

}  // namespace torchabi::inputs
