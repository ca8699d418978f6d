// Through the wrappers; a comment that names std::regex does not count.
#include "common/json_io.h"
#include "common/regex.h"
std::string text(const nlohmann::json& j) { return torchabi::json_io::dump(j, 2); }
bool versionish(const std::string& s) { return torchabi::Regex("[0-9]+\\.[0-9]+").matches(s); }
