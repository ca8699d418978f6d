// common/ may instantiate std::regex: it is where the one instantiation lives.
#include <regex>
bool any(const std::string& s, const std::regex& r) { return std::regex_search(s, r); }
