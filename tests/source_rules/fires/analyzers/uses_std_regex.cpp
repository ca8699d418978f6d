// A file that compiles std::regex itself (the check must report it).
#include <regex>
bool looks_like_version(const std::string& s) { return std::regex_match(s, std::regex("[0-9]+\\.[0-9]+")); }
