// A file that instantiates nlohmann/json's serializer itself.
#include <nlohmann/json.hpp>
std::string text(const nlohmann::json& j) { return j.dump(2); }
